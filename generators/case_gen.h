// RapidCheck generators for whole cases, composed from small named pieces that
// each shrink on their own. Every piece lists its options simplest first and
// shrinks toward the first, so a failing case shrinks toward: fewer ops, rank 1,
// small sizes, identity dim order, float32, slice args None/0/1.
//
// Slice arguments and op sources are generated as shape-independent *plans*
// (e.g. "an in-range start", "the value defined 2 ops ago") and only then turned
// into concrete ints against the source's shape. That is what lets shrinking drop
// an op from the middle of a chain, or shrink the input's sizes, and still leave
// every later op meaningful.
//
// Only generators/ and tests see RapidCheck (DESIGN section 6); the CLI goes
// through generate.h.
#pragma once
#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "vocab/case.h"

namespace slicefuzz {

// Shape of what genCase produces (DESIGN section 4 allows far more; these keep
// a case cheap enough to run thousands per second under ASan).
inline constexpr size_t kMaxGeneratedOps = 8;
// The input's element count is capped at kMinInputElements + size *
// kInputElementsPerSize (RapidCheck size 0..100): at most 4064 elements, and
// every other value is no larger than the input, so a case of 8 ops holds at
// most 9 * 4064 * 8 bytes (< 300 KiB), far below kDefaultByteBudget.
inline constexpr int64_t kMinInputElements = 64;
inline constexpr int64_t kInputElementsPerSize = 40;

// The arguments of one slice_copy, as a .case file spells them.
struct SliceArgs {
  int64_t dim = 0;
  std::optional<int64_t> start, end;
  int64_t step = 1;
};

// float32 mostly (the shrink target), every other supported dtype often.
rc::Gen<ScalarType> genDtype();

// 1..6 mostly, 7..16 sometimes, 0 rarely; shrinks toward 1.
rc::Gen<int> genRank();

// `rank` sizes biased to 1, 2, 0 and the small primes 3, 5, 7, 11, 13 (plus the
// odd 4..32), with the element count capped as described above; shrinks each
// size toward 1.
rc::Gen<std::vector<int64_t>> genSizes(int rank);

// A dim order for a tensor of `sizes`, in canonical form (identity = empty, as
// canonicalize() stores it): identity, channels-last (rank 4), channels-last-3d
// (rank 5), a random permutation, or an order that differs from identity only in
// where the size-1 dims sit. Shrinks toward identity.
rc::Gen<std::vector<int>> genDimOrder(const std::vector<int64_t>& sizes);

// slice_copy arguments for a source of `sizes`. Valid ones: dim in range (also
// negative); start/end None, in range (also negative), +-size, +-size+-1,
// INT64_MIN, INT64_MAX, +-2^62, +-2^62+-1; step 1 often, 2..5, >= size, or near
// INT64_MAX. About `invalid_percent`% are invalid: dim out of range or step <= 0
// (a rank-0 source makes every slice invalid anyway).
rc::Gen<SliceArgs> genSliceArgs(const std::vector<int64_t>& sizes, int invalid_percent = 0);

// A whole case: one input (genDtype, genRank, genSizes, genDimOrder), a chain of
// 1..8 ops (slice_copy mostly, add_, clone, copy_ between equal-sized values),
// each reading any earlier value, about 5% of slice_copy ops with invalid args,
// and a non-empty set of outputs (often just the last value). Always passes
// analyze() with kDefaultByteBudget, and parse(print(c)) == c.
rc::Gen<Case> genCase();

// One slice_copy of the input, as its only op and output: the most slice
// arguments per test run. `invalid_percent` as for genSliceArgs.
rc::Gen<Case> genSingleSliceCase(int invalid_percent);

// The name genCase gives the value defined by the n-th defining op (0-based):
// a, b, ..., w, then t23, t24, ... (the input is x).
std::string generated_value_name(size_t n);

}  // namespace slicefuzz
