#include "generators/generate.h"

#include <mutex>

#include "generators/case_gen.h"
#include "oracles/analysis.h"

namespace slicefuzz {

namespace {
// Distinguishes this use of the 256-bit key from any other keyed by (seed, index).
constexpr uint64_t kStream = 0x736c696365667a31;  // "slicefz1"
}  // namespace

namespace {
Case generate_keyed(uint64_t seed, uint64_t index, uint64_t attempt) {
  // RapidCheck keeps generation state (gen::exec's handler) in process-wide
  // statics, not thread-locals: callers on several threads must take turns.
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  static const rc::Gen<Case> gen = genCase();
  // The full key keeps every (seed, index) pair an independent stream; the size
  // cycles through RapidCheck's 0..99 so that small and large cases interleave.
  const rc::Random random(rc::Random::Key{seed, index, kStream, attempt});
  return gen(random, static_cast<int>(index % 100)).value();
}
}  // namespace

Case generate_case(uint64_t seed, uint64_t index) { return generate_keyed(seed, index, 0); }

Case generate_case_within(uint64_t seed, uint64_t index, OutsideLimits outside) {
  Case c = generate_keyed(seed, index, 0);
  if (!outside || index % 10 == 0) return c;
  for (uint64_t attempt = 1; attempt <= 8; ++attempt) {
    ProgramInfo info;
    AnalysisError err;
    if (analyze(c, kDefaultByteBudget, info, err) && outside(c, info).empty()) return c;
    c = generate_keyed(seed, index, attempt);
  }
  return c;
}

}  // namespace slicefuzz
