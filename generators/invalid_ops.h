// The generators' blind spots (issue 10): ops that must fail, placed in the
// middle of otherwise valid programs, so that every path's error handling at that
// op is exercised by `run`, not only by the fuzzer's byte mutations. Internal to
// generators/; the rate is view_ops_gen.h's kInvalidOpCasePercent.
#pragma once
#include <cstddef>
#include <cstdint>

#include "oracles/judge_layouts.h"
#include "vocab/case.h"

namespace slicefuzz::gen {

// Each kind is one error rule of DESIGN 2 / judge_layouts.h.
enum class InvalidKind : size_t {
  CopySameCount,           // copy_ between different sizes with the same element count
  SelectIndex,             // a select's index outside [-size, size)
  SelectDim,               // a select's dim out of range (or a rank-0 source)
  SqueezeRepeated,         // squeeze_copy listing one dim twice (maybe spelled +d and d-r)
  SqueezeDim,              // squeeze_copy dim out of range
  ViewTwoMinusOnes,        // view_copy with two -1
  ViewMinusOneBesideZero,  // view_copy with -1 and a 0 (the -1 cannot be inferred)
  ViewCountMismatch,       // view_copy sizes holding another element count
  ViewNegativeSize,        // view_copy size < -1
  UnsqueezeDim,            // unsqueeze_copy dim out of range (or a rank-16 source)
  SliceDim,                // slice_copy dim out of range mid-chain
  SliceStep,               // slice_copy step <= 0 mid-chain
  CloneOrder,              // clone(dim_order=...) that is not a permutation of the rank
};
inline constexpr size_t kNumInvalidKinds = 13;
const char* invalid_kind_name(InvalidKind kind);

// A defining op of the kind's op over a source of layout `in` (the caller sets
// result and src) that op_result rejects; `k` picks among the kind's variants.
// Not for CopySameCount, which needs a second value (view_ops_gen.cpp).
Op realize_invalid_op(InvalidKind kind, uint64_t k, const judge::Layout& in);

}  // namespace slicefuzz::gen
