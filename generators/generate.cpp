#include "generators/generate.h"

#include <mutex>

#include "generators/case_gen.h"
#include "generators/eager_gen.h"
#include "generators/view_ops_gen.h"
#include "oracles/analysis.h"

namespace slicefuzz {

namespace {
// Distinguishes this use of the 256-bit key from any other keyed by (seed, index).
constexpr uint64_t kStream = 0x736c696365667a31;  // "slicefz1"
// The stream that routes a copy-semantics case to one of the two generators.
constexpr uint64_t kRouteStream = 0x736c696365727432;  // "slicert2"

// Share (percent) of the copy-semantics cases drawn from genViewOpsCase (every
// view-copy op, clone(dim_order), the blind spots); the rest come from genCase,
// the version-1 generator, unchanged: such a case is, byte for byte, the case
// the same (seed, index, attempt) gave before the view ops existed.
constexpr uint64_t kViewOpsCasePercent = 70;

Case generate_keyed(uint64_t seed, uint64_t index, uint64_t attempt, bool eager) {
  // RapidCheck keeps generation state (gen::exec's handler) in process-wide
  // statics, not thread-locals: callers on several threads must take turns.
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  static const rc::Gen<Case> copy_gen = genCase();
  static const rc::Gen<Case> view_ops_gen = genViewOpsCase();
  static const rc::Gen<Case> eager_gen = genEagerCase();
  const bool view_ops =
      !eager && rc::Random(rc::Random::Key{seed, index, kRouteStream, attempt}).next() % 100 <
                    kViewOpsCasePercent;
  const rc::Gen<Case>& gen = eager ? eager_gen : view_ops ? view_ops_gen : copy_gen;
  // The full key keeps every (seed, index) pair an independent stream; the size
  // cycles through RapidCheck's 0..99 so that small and large cases interleave.
  const rc::Random random(rc::Random::Key{seed, index, kStream, attempt});
  return gen(random, static_cast<int>(index % 100)).value();
}
}  // namespace

Case generate_case(uint64_t seed, uint64_t index, bool eager) {
  return generate_keyed(seed, index, 0, eager);
}

Case generate_case_within(uint64_t seed, uint64_t index, OutsideLimits outside, bool eager) {
  Case c = generate_keyed(seed, index, 0, eager);
  if (!outside || index % 10 == 0) return c;
  for (uint64_t attempt = 1; attempt <= 8; ++attempt) {
    ProgramInfo info;
    AnalysisError err;
    if (analyze(c, kDefaultByteBudget, info, err) && outside(c, info).empty()) return c;
    c = generate_keyed(seed, index, attempt, eager);
  }
  return c;
}

}  // namespace slicefuzz
