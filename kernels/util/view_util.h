// The strided-view facts of the system under test: what each view-copy op's
// result looks like as a view of its input's bytes (sizes, strides, element
// offset), and the density rule over such a view. The alias prim ops (et_slice,
// et_select, et_view), the rewrite pass and the planner read these; the judge
// has its own (oracles/judge_facts.h) and never calls these.
#pragma once
#include <cstdint>
#include <optional>

#include "kernels/tensor.h"
#include "kernels/util/slice_util.h"

namespace slicefuzz {

// A strided view of some tensor's bytes: sizes, strides (elements) and the offset
// of its first element from that tensor's first element (elements).
struct ViewLayout {
  int rank = 0;
  int64_t sizes[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};
  int64_t offset = 0;
  // Any size 0: the view holds no element.
  bool empty() const;
  int64_t numel() const;
};

// The whole of `t`: its sizes and strides, offset 0.
ViewLayout tensor_view(const Tensor& t);

// slice(src, d, r): offset + start * stride[d] (when the slice is not empty),
// stride[d] * step (when it keeps more than one element).
ViewLayout slice_view(const ViewLayout& src, int d, const SliceRange& r);
// select(src, d, index), index in [0, size[d]): dim d removed, offset + index * stride[d].
ViewLayout select_view(const ViewLayout& src, int d, int64_t index);
// squeeze: the dims with drop[d] (all of size 1) removed, the others keep their strides.
ViewLayout squeeze_view(const ViewLayout& src, const bool* drop);
// unsqueeze(src, d), d in [0, rank]: a size-1 dim inserted at d (stride: that of
// the dim it precedes times its size, 1 at the end, as torch gives it).
ViewLayout unsqueeze_view(const ViewLayout& src, int d);
// view(src, sizes): the same bytes with new sizes, row-major; nullopt when src's
// elements are not one row-major block (then no view exists: the copy stays).
std::optional<ViewLayout> reshape_view(const ViewLayout& src, const int64_t* sizes, int rank);

// The general density rule: every dim of size > 1 has the canonical stride of the
// view's sizes in `dim_order` (the stride rule, dim_order.h); an empty view is
// dense. Such a view is one block laid out exactly like a fresh tensor.
bool view_is_dense(const ViewLayout& v, const uint8_t* dim_order);

// Whether `a` and `b` reach the same elements in the same logical (row-major
// index) order: compared after dropping size-1 dims and merging every dim into
// the one outside it where their strides allow (stride[i] == stride[i+1] *
// size[i+1]). Offsets are not compared. Views of different element counts never
// match; two empty views always do. et_view's runtime guard.
bool same_element_order(const ViewLayout& a, const ViewLayout& b);

// Where an alias of `v` starts, in elements: v's offset, or 0 when v is empty (an
// empty alias aliases nothing and points at its input's first byte, so that it
// never lies outside the input's bytes).
int64_t alias_offset_elems(const ViewLayout& v);

}  // namespace slicefuzz
