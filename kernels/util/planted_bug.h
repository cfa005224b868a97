// Planted bugs: mutation testing of the harness itself. Each switch puts one
// realistic bug inside a kernel utility that the kernels, the pass and the
// planner all call (slice normalisation, the stride rule, density, alias offset,
// add_ arithmetic), where no backend function pointer can reach. The test
// tests/planted_bugs_test.sh runs every verb with SLICEFUZZ_PLANTED_BUG=<name> and
// asserts the harness blames the system under test (never ORACLE_DISAGREEMENT or
// PARSE_ERROR) and prints a line for every case: the proof that the judge shares
// no code with the kernels. Compiled in only with SLICEFUZZ_PLANTED_BUGS (the asan
// preset); elsewhere planted() is a constant false.
#pragma once

namespace slicefuzz {

#define SLICEFUZZ_PLANTED_BUG_LIST(X)                                                         \
  X(NormalizeDimNegRank, "normalize-dim-neg-rank", "normalize_dim rejects dim == -rank")      \
  X(StartClampOffByOne, "start-clamp-off-by-one", "a start past the end clamps to size - 1")  \
  X(UnclampedNegativeStart, "unclamped-negative-start", "a start below -size stays negative") \
  X(StepZeroAccepted, "step-zero-accepted", "slice_args_error accepts step 0")                \
  X(DenseIgnoresStep, "dense-ignores-step", "slice_is_dense ignores the step")                \
  X(StridesIgnoreDimOrder, "strides-ignore-dim-order", "the stride rule ignores the dim order") \
  X(AliasOffsetStride0, "alias-offset-stride0", "slice_alias_offset_elems uses stride[0]")    \
  X(AddBoolAlwaysFlips, "add-bool-always-flips", "add_ on bool flips for even k too")

enum class PlantedBug {
#define SLICEFUZZ_PLANTED_ENUM(id, name, what) id,
  SLICEFUZZ_PLANTED_BUG_LIST(SLICEFUZZ_PLANTED_ENUM)
#undef SLICEFUZZ_PLANTED_ENUM
};

#if SLICEFUZZ_PLANTED_BUGS
// True when the environment variable SLICEFUZZ_PLANTED_BUG names `b`.
bool planted(PlantedBug b);
#else
constexpr bool planted(PlantedBug) { return false; }
#endif

}  // namespace slicefuzz
