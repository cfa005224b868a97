#include "generators/generate.h"

#include <mutex>
#include <optional>
#include <random>

#include "generators/case_gen.h"
#include "generators/dynamic_gen.h"
#include "generators/eager_gen.h"
#include "generators/gen_weights.h"
#include "generators/schema_ops_gen.h"
#include "generators/tensor_operands.h"
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
constexpr uint64_t kViewOpsCasePercent = gen::weights::kViewOpsCasePercent;
// The stream and the share (percent) of version-3 cases that get schema ops.
constexpr uint64_t kSchemaOpsStream = 0x736c69636573636d;  // "slicescm"
constexpr uint64_t kSchemaOpsCasePercent = gen::weights::kSchemaOpsCasePercent;

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

// Version 3 on: a share of the version-2 copy-semantics cases get the ops added since the
// op schema (schema_ops_gen.h) inserted, from a stream of their own, so that the
// case drawn first is byte for byte the version-2 case of the same key.
Case with_schema_ops(Case c, uint64_t seed, uint64_t index, uint64_t attempt, int version) {
  // Version-1 cases stay as they are: they keep the original contract tested.
  if (version < 3 || c.has_eager_ops() || c.min_version() < 2) return c;
  std::mt19937_64 rng(rc::Random(rc::Random::Key{seed, index, kSchemaOpsStream, attempt}).next());
  if (rng() % 100 >= kSchemaOpsCasePercent) return c;
  Case k = c;
  const int inserts = 1 + static_cast<int>(rng() % 2);
  for (int i = 0; i < inserts; ++i) gen::insert_schema_op(k, rng);
  ProgramInfo info;
  AnalysisError err;
  return analyze(k, kDefaultByteBudget, info, err) ? k : c;
}

// Version 4 on: the schema ops that version brought (permute_copy) inserted into a
// share of the copy-semantics cases, from a stream of their own, so that a case
// drawn without one is byte for byte its version-3 self.
constexpr uint64_t kNewerSchemaOpsStream = 0x736c696365763472;  // "slicev4r"
Case with_newer_schema_ops(Case c, uint64_t seed, uint64_t index, uint64_t attempt, int version) {
  if (version < kDynamicCaseVersion || c.has_eager_ops() || c.min_version() < 2) return c;
  std::mt19937_64 rng(rc::Random(rc::Random::Key{seed, index, kNewerSchemaOpsStream, attempt}).next());
  if (rng() % 100 >= gen::weights::kNewerSchemaOpsCasePercent) return c;
  Case k = c;
  if (!gen::insert_newer_schema_op(k, rng, version)) return c;
  ProgramInfo info;
  AnalysisError err;
  return analyze(k, kDefaultByteBudget, info, err) ? k : c;
}

// Version 4 on: mul in a share of the eager cases (an out-of-place add made a mul
// by the same integer: the same sizes and dtype), from a stream of their own.
constexpr uint64_t kMulStream = 0x736c6963656d756c;  // "slicemul"
// A version-4 eager post-pass's own stream, or nullopt for a case it leaves alone
// (an older version, no eager ops, or outside its share of `percent`).
std::optional<std::mt19937_64> eager_share(const Case& c, uint64_t seed, uint64_t index, uint64_t stream,
                                           uint64_t attempt, int version, size_t percent) {
  if (version < kDynamicCaseVersion || !c.has_eager_ops()) return std::nullopt;
  std::mt19937_64 rng(rc::Random(rc::Random::Key{seed, index, stream, attempt}).next());
  if (rng() % 100 >= percent) return std::nullopt;
  return rng;
}

Case with_mul(Case c, uint64_t seed, uint64_t index, uint64_t attempt, int version) {
  auto rng = eager_share(c, seed, index, kMulStream, attempt, version, gen::weights::kMulEagerCasePercent);
  if (!rng) return c;
  for (Op& op : c.ops)
    if (op.kind == OpKind::AddOut && (*rng)() % 100 < gen::weights::kAddBecomesMulPercent) op.kind = OpKind::MulOut;
  return c;
}

// Version 4 on: sigmoid and gelu in a share of the eager cases (a relu made one:
// the same operand, sizes and place), from a stream of their own.
constexpr uint64_t kActivationStream = 0x736c696365616374;  // "sliceact"
Case with_activations(Case c, uint64_t seed, uint64_t index, uint64_t attempt, int version) {
  auto rng = eager_share(c, seed, index, kActivationStream, attempt, version,
                         gen::weights::kActivationEagerCasePercent);
  if (!rng) return c;
  for (Op& op : c.ops) {
    if (op.kind != OpKind::Relu) continue;
    const uint64_t roll = (*rng)() % 100;
    if (roll < gen::weights::kReluBecomesSigmoidPercent) op.kind = OpKind::Sigmoid;
    else if (roll < gen::weights::kReluBecomesSigmoidPercent + gen::weights::kReluBecomesGeluPercent)
      op.kind = OpKind::Gelu;
  }
  return c;
}

// Version 4 on: add and mul of two tensors in a share of the eager cases (an add
// or mul by an integer made the op of two tensors), from a stream of their own.
constexpr uint64_t kTwoTensorStream = 0x736c696365747774;  // "slicetwt"
Case with_two_tensor_ops(Case c, uint64_t seed, uint64_t index, uint64_t attempt, int version) {
  auto rng = eager_share(c, seed, index, kTwoTensorStream, attempt, version,
                         gen::weights::kTwoTensorEagerCasePercent);
  if (!rng) return c;
  for (size_t i = 0; i < c.ops.size(); ++i)
    if ((c.ops[i].kind == OpKind::AddOut || c.ops[i].kind == OpKind::MulOut) &&
        (*rng)() % 100 < gen::weights::kArithmeticTakesTensorPercent)
      gen::make_two_tensor_op(c, i, *rng);
  return c;
}

// Version 4 (opt-in): a share of the copy-semantics cases of version 2 on made
// dynamic (dynamic_gen.h), from a stream of their own.
constexpr uint64_t kSymbolsStream = 0x736c69636573796d;  // "slicesym"
Case with_symbols(Case c, uint64_t seed, uint64_t index, uint64_t attempt, int version) {
  if (version < kDynamicCaseVersion || c.has_eager_ops() || c.min_version() < 2) return c;
  std::mt19937_64 rng(rc::Random(rc::Random::Key{seed, index, kSymbolsStream, attempt}).next());
  if (rng() % 100 >= gen::weights::kDynamicCasePercent) return c;
  return gen::with_symbols(c, rng);
}

Case generate_versioned(uint64_t seed, uint64_t index, uint64_t attempt, bool eager, int version) {
  Case c = with_schema_ops(generate_keyed(seed, index, attempt, eager), seed, index, attempt, version);
  c = with_newer_schema_ops(std::move(c), seed, index, attempt, version);
  c = with_mul(std::move(c), seed, index, attempt, version);
  c = with_activations(std::move(c), seed, index, attempt, version);
  c = with_two_tensor_ops(std::move(c), seed, index, attempt, version);
  return with_symbols(std::move(c), seed, index, attempt, version);
}
Case generate_case(uint64_t seed, uint64_t index, bool eager, int version) {
  return generate_versioned(seed, index, 0, eager, version);
}

Case generate_case_within(uint64_t seed, uint64_t index, OutsideLimits outside, bool eager,
                          int version) {
  Case c = generate_versioned(seed, index, 0, eager, version);
  if (!outside || index % 10 == 0) return c;
  for (uint64_t attempt = 1; attempt <= 8; ++attempt) {
    ProgramInfo info;
    AnalysisError err;
    if (analyze(c, kDefaultByteBudget, info, err) && outside(c, info).empty()) return c;
    c = generate_versioned(seed, index, attempt, eager, version);
  }
  return c;
}

}  // namespace slicefuzz
