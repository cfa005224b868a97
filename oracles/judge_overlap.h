// The judge's fact about copy_ between two views of one storage (case format
// version 2's eager ops): what torch 1.13 does with `dst.copy_(src)` when both
// views share a storage. Eager programs are run exactly as written (no clone of
// the source), so the judge must know where PyTorch refuses the copy and where
// PyTorch's own result depends on its loop order (a program slicefuzz's case
// language does not admit: docs/design.md, "Copy semantics and eager ops").
#pragma once
#include <cstdint>

#include "oracles/judge_facts.h"

namespace slicefuzz::judge {

enum class CopyOverlap : uint8_t {
  Disjoint,        // no element in both: every order of the copy gives one result
  SameElements,    // each element is copied onto itself: a no-op in any order
  TorchRefuses,    // torch's overlap check says PARTIAL: copy_ raises
  OrderDependent,  // torch cannot tell (a view is not dense) and they share elements
};

// c10's TensorImpl::compute_non_overlapping_and_dense: the dims of size >= 2,
// by increasing stride, have strides 1, s0, s0*s1, ... (rank 1: size < 2 or
// stride 1; rank 0: true).
bool non_overlapping_and_dense(const StridedView& v);

// `dst.copy_(src)` for two views (element offsets and strides) of one storage,
// of equal sizes, that are not the same tensor. torch 1.13's copy_ returns at
// once for views of the same data (same offset, sizes and strides); otherwise its
// TensorIterator asks ATen's get_overlap_status (MemoryOverlap.cpp): empty ->
// no overlap; a view not non-overlapping-and-dense -> TOO_HARD (not checked:
// the copy runs); both dense -> FULL when begin, end and strides agree, PARTIAL
// (raises) when the element ranges meet. For TOO_HARD the views' elements are
// compared one by one (up to 2^20 elements each; above that, meeting element
// ranges count as shared).
CopyOverlap copy_overlap(const StridedView& dst, const StridedView& src);

// torch's words for the refused copy (the judge's prediction of the error).
extern const char* const kCopyPartialOverlapError;

}  // namespace slicefuzz::judge
