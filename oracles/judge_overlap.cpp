#include "oracles/judge_overlap.h"

#include <algorithm>
#include <vector>

namespace slicefuzz::judge {

const char* const kCopyPartialOverlapError =
    "copy_: some elements of the source and the destination refer to a single memory "
    "location (torch 1.13 raises: unsupported operation)";

namespace {

int64_t numel(const StridedView& v) {
  int64_t n = 1;
  for (int64_t s : v.sizes) n *= s;
  return n;
}

// [first, last] element offsets a non-empty view touches (strides are >= 0 here).
void element_range(const StridedView& v, int64_t& first, int64_t& last) {
  first = last = v.offset;
  for (size_t d = 0; d < v.sizes.size(); ++d) last += (v.sizes[d] - 1) * v.strides[d];
}

// Every element offset of `v`, row-major.
void element_offsets(const StridedView& v, std::vector<int64_t>& out) {
  out.clear();
  const size_t r = v.sizes.size();
  std::vector<int64_t> idx(r, 0);
  const int64_t n = numel(v);
  for (int64_t i = 0; i < n; ++i) {
    int64_t at = v.offset;
    for (size_t d = 0; d < r; ++d) at += idx[d] * v.strides[d];
    out.push_back(at);
    for (size_t d = r; d-- > 0;) {
      if (++idx[d] < v.sizes[d]) break;
      idx[d] = 0;
    }
  }
}

// Whether every element of dst is the element of src at the same index.
bool same_mapping(const StridedView& a, const StridedView& b) {
  if (a.offset != b.offset || a.sizes != b.sizes) return false;
  for (size_t d = 0; d < a.sizes.size(); ++d)
    if (a.sizes[d] > 1 && a.strides[d] != b.strides[d]) return false;
  return true;
}

bool share_an_element(const StridedView& a, const StridedView& b) {
  int64_t a0, a1, b0, b1;
  element_range(a, a0, a1);
  element_range(b, b0, b1);
  if (a1 < b0 || b1 < a0) return false;
  constexpr int64_t kMaxEnumerated = int64_t{1} << 20;
  if (numel(a) > kMaxEnumerated || numel(b) > kMaxEnumerated) return true;  // conservative
  thread_local std::vector<int64_t> in_a, in_b;
  element_offsets(a, in_a);
  element_offsets(b, in_b);
  std::sort(in_a.begin(), in_a.end());
  for (int64_t at : in_b)
    if (std::binary_search(in_a.begin(), in_a.end(), at)) return true;
  return false;
}

}  // namespace

bool non_overlapping_and_dense(const StridedView& v) {
  const size_t r = v.sizes.size();
  if (r == 1) return v.sizes[0] < 2 || v.strides[0] == 1;
  std::vector<size_t> dims;
  for (size_t d = 0; d < r; ++d)
    if (v.sizes[d] >= 2) dims.push_back(d);
  std::stable_sort(dims.begin(), dims.end(),
                   [&](size_t a, size_t b) { return v.strides[a] < v.strides[b]; });
  int64_t require = 1;
  for (size_t d : dims) {
    if (v.strides[d] != require) return false;
    require *= v.sizes[d];
  }
  return true;
}

CopyOverlap copy_overlap(const StridedView& dst, const StridedView& src) {
  // copy_impl: `is_same_data` (alias, same storage offset, strides and sizes).
  if (dst.offset == src.offset && dst.sizes == src.sizes && dst.strides == src.strides)
    return CopyOverlap::SameElements;
  // get_overlap_status: an empty tensor overlaps nothing.
  if (numel(dst) == 0 || numel(src) == 0) return CopyOverlap::Disjoint;
  if (non_overlapping_and_dense(dst) && non_overlapping_and_dense(src)) {
    const int64_t db = dst.offset, de = dst.offset + numel(dst);
    const int64_t sb = src.offset, se = src.offset + numel(src);
    if (db == sb && de == se)
      return dst.strides == src.strides ? CopyOverlap::SameElements : CopyOverlap::TorchRefuses;
    if (db < se && sb < de) return CopyOverlap::TorchRefuses;
    return CopyOverlap::Disjoint;
  }
  // TOO_HARD: torch copies without checking. Well defined only when no element
  // is shared, or when every element is copied onto itself.
  if (same_mapping(dst, src)) return CopyOverlap::SameElements;
  return share_an_element(dst, src) ? CopyOverlap::OrderDependent : CopyOverlap::Disjoint;
}

}  // namespace slicefuzz::judge
