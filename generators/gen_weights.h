// One table of the generators' weights (Csmith/YARPGen style): every weighted
// choice they make, by name, each entry's meaning beside it. A weight is a
// share of its list (0: never drawn); RapidCheck shrinks toward the first entry,
// which is always the simplest. Changing one changes every generated stream:
// `gen --format-version 2 --seed 7` must stay byte-identical unless that is the
// point of the change (the generators' tests and README "Version 3" say how).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace slicefuzz::gen::weights {

using W = std::vector<size_t>;

// ---- genCase (version 1, case_gen.cpp)
// An op: slice_copy, clone, add_, copy_.
inline const W kV1OpKind = {62, 12, 13, 13};
// Its source: the latest value, any earlier one.
inline const W kV1Source = {40, 60};
// Outputs: the last value only, some values.
inline const W kV1Outputs = {60, 40};
// dtype: float32, float64, float16, bfloat16, int64, int32, int16, int8, uint8, bool.
inline const W kDtype = {25, 8, 8, 8, 9, 9, 8, 8, 8, 9};

// ---- slice arguments (slice_plan.cpp); validity is built from the invalid share.
// dim: as given, negative.
inline const W kSliceDimForm = {70, 30};
// start: None, 0 (never: None covers it), in range, negative, near the size, extreme.
inline const W kSliceStart = {30, 0, 35, 15, 12, 8};
// end: None, after start, in range, negative, near the size, extreme.
inline const W kSliceEnd = {25, 45, 8, 8, 8, 6};
// step: 1, small, at least the size, huge.
inline const W kSliceStep = {55, 25, 12, 8};
// validity (times the invalid percent p): valid (100 - p) * 5, dim out of range p * 3, step <= 0 p * 2.
inline constexpr size_t kSliceValidPerCent = 5, kSliceBadDimPerCent = 3, kSliceBadStepPerCent = 2;

// ---- version-2 view-op plans (view_op_plans.cpp)
// select's dim: outermost, from the front, from the back, innermost.
inline const W kSelectDim = {35, 25, 20, 20};
// select's index: 0, in range, negative, last, most negative.
inline const W kSelectIndex = {30, 30, 20, 10, 10};
// squeeze_copy which dims: all size-1, one size-1, a size > 1, mixed, every dim, none.
inline const W kSqueezeWhich = {35, 25, 10, 15, 10, 5};
// squeeze_copy form: list, list with negatives, dim=, dim= negative.
inline const W kSqueezeForm = {45, 20, 25, 10};
// unsqueeze_copy dim: front, end, middle, negative.
inline const W kUnsqueezeDim = {25, 25, 30, 20};
// view_copy shape: (view_op_plans.cpp's ViewShape order, 8 kinds).
inline const W kViewShape = {10, 20, 20, 20, 10, 10, 5, 5};
// view_copy -1: none, at one size.
inline const W kViewMinusOne = {60, 40};
// clone dim order: identity, the source's, reversed, channels-last, random, a swap.
inline const W kCloneOrder = {15, 10, 15, 25, 25, 10};

// ---- genViewOpsCase (view_ops_gen.cpp)
// An op: the slice, select, squeeze, unsqueeze and view copies, clone,
// clone(dim_order), add_, copy_ (view_ops_gen.cpp's order).
inline const W kViewOpKind = {20, 14, 11, 11, 14, 5, 9, 7, 10};
// Its source: (view_ops_gen.cpp's source kinds, 4).
inline const W kViewOpSource = {40, 40, 10, 10};
// An in-place op's target: (view_ops_gen.cpp's target kinds, 4).
inline const W kViewOpTarget = {40, 25, 15, 20};
// The invalid op's rule: copy_ of the same count 3, every other rule 1 (12 rules).
inline const W kInvalidRule = {3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
// Outputs: the last value, some values, a value with several users, an alias candidate with users.
inline const W kViewOutputs = {45, 30, 15, 10};
// An extra input: its own sizes, the first input's sizes and dtype, its sizes in another dtype.
inline const W kExtraInput = {40, 30, 30};

// ---- which generator (generate.cpp)
// Copy-semantics cases from genViewOpsCase (the rest from genCase, version 1).
inline constexpr size_t kViewOpsCasePercent = 70;
// Version 3: version-2 copy cases that get one or two schema ops inserted
// (schema_ops_gen.cpp; each op's own valid/invalid rates are in its realiser).
inline constexpr size_t kSchemaOpsCasePercent = 40;
// Version 4's own schema ops (permute_copy): a share of the version-2+ copy cases
// get one inserted, from a stream of their own (every other case stays byte for
// byte its version-3 self).
inline constexpr size_t kNewerSchemaOpsCasePercent = 20;
// Version 4's eager op mul: a share of the eager cases have their out-of-place
// adds made muls by the same integer, each with this chance (percent), from a
// stream of their own (every other eager case stays byte for byte its
// version-3 self).
inline constexpr size_t kMulEagerCasePercent = 40;
inline constexpr size_t kAddBecomesMulPercent = 50;
// Version 4's eager ops sigmoid and gelu (the rest of NativeReinplacePass's
// functional set): a share of the eager cases have each relu made sigmoid or
// gelu with these chances (percent; the rest stay relu), from a stream of their
// own. Both change every element, as relu of the generator's negative values does.
inline constexpr size_t kActivationEagerCasePercent = 40;
// Version 4's add and mul of two tensors: a share of the eager cases have each
// out-of-place add or mul by an integer made the same op of two tensors (the
// second a value of the first's dtype and sizes, defined before it) with this
// chance, from a stream of their own.
inline constexpr size_t kTwoTensorEagerCasePercent = 30;
inline constexpr size_t kArithmeticTakesTensorPercent = 50;
inline constexpr size_t kReluBecomesSigmoidPercent = 35;
inline constexpr size_t kReluBecomesGeluPercent = 35;


// ---- version 4: cases with symbols (dynamic_gen.cpp; generate.cpp, --format-version 4)
// Share (percent) of the version-2+ copy-semantics cases made dynamic.
inline constexpr uint64_t kDynamicCasePercent = 40;
// What is made symbolic: a dim of an input, a position or extent, both.
inline const W kDynamicKind = {45, 30, 25};
// A dynamic dim's range bottom: 0 (empty), 1 (decode), half its bound.
inline const W kDynamicLow = {30, 50, 20};
// A dim larger than this stays static (the judge enumerates every size).
inline constexpr int64_t kDynamicMaxBound = 64;
// A runtime integer's range is [0, 1..span]; a literal far outside stays literal.
inline constexpr int64_t kRuntimeIntegerSpan = 8;
// Share (percent) of the cases with a dynamic dim that get a second one and an
// execution past the bound in one dim (the input check's test).
inline constexpr uint64_t kDynamicPastBoundPercent = 25;
// Share (percent) of the cases with symbols in which an input the program never
// writes becomes a constant.
inline constexpr uint64_t kDynamicConstantPercent = 25;
// Executions between the bound and the bottom: 0, 1, 2, 3.
inline const W kDynamicMiddleRuns = {20, 40, 30, 10};

}  // namespace slicefuzz::gen::weights
