#include "kernels/util/view_util.h"

#include "kernels/dim_order.h"

namespace slicefuzz {

bool ViewLayout::empty() const {
  for (int i = 0; i < rank; ++i)
    if (sizes[i] == 0) return true;
  return false;
}

int64_t ViewLayout::numel() const {
  int64_t n = 1;
  for (int i = 0; i < rank; ++i) n *= sizes[i];
  return n;
}

ViewLayout tensor_view(const Tensor& t) {
  ViewLayout v;
  v.rank = t.rank;
  for (int i = 0; i < t.rank; ++i) {
    v.sizes[i] = t.sizes[i];
    v.strides[i] = t.strides[i];
  }
  return v;
}

ViewLayout slice_view(const ViewLayout& src, int d, const SliceRange& r) {
  ViewLayout v = src;
  v.sizes[d] = r.length;
  // start <= size[d], so start * stride[d] lies within the stride span of src.
  if (r.length > 0) v.offset += r.start * src.strides[d];
  // L > 1 implies step * stride[d] is in range; with L <= 1 the step may be huge
  // and the stride of that dim is never used.
  if (r.length > 1) v.strides[d] = src.strides[d] * r.step;
  return v;
}

ViewLayout select_view(const ViewLayout& src, int d, int64_t index) {
  ViewLayout v;
  v.rank = src.rank - 1;
  v.offset = src.offset + index * src.strides[d];
  for (int i = 0, j = 0; i < src.rank; ++i) {
    if (i == d) continue;
    v.sizes[j] = src.sizes[i];
    v.strides[j++] = src.strides[i];
  }
  return v;
}

ViewLayout squeeze_view(const ViewLayout& src, const bool* drop) {
  ViewLayout v;
  v.offset = src.offset;
  for (int i = 0; i < src.rank; ++i) {
    if (drop[i]) continue;
    v.sizes[v.rank] = src.sizes[i];
    v.strides[v.rank++] = src.strides[i];
  }
  return v;
}

ViewLayout unsqueeze_view(const ViewLayout& src, int d) {
  ViewLayout v;
  v.rank = src.rank + 1;
  v.offset = src.offset;
  for (int i = 0, j = 0; i < v.rank; ++i) {
    if (i == d) {
      v.sizes[i] = 1;
      v.strides[i] = d < src.rank ? src.sizes[d] * src.strides[d] : 1;
      continue;
    }
    v.sizes[i] = src.sizes[j];
    v.strides[i] = src.strides[j++];
  }
  return v;
}

namespace {
// Canonical strides of `sizes` in `dim_order` (the stride rule).
void canonical_strides(const int64_t* sizes, const uint8_t* dim_order, int rank, int64_t* out) {
  dim_order_to_strides(sizes, dim_order, rank, out);
}
}  // namespace

std::optional<ViewLayout> reshape_view(const ViewLayout& src, const int64_t* sizes, int rank) {
  uint8_t row_major[kMaxRank];
  identity_dim_order(src.rank, row_major);
  if (!view_is_dense(src, row_major)) return std::nullopt;
  ViewLayout v;
  v.rank = rank;
  v.offset = src.offset;
  for (int i = 0; i < rank; ++i) v.sizes[i] = sizes[i];
  identity_dim_order(rank, row_major);
  canonical_strides(v.sizes, row_major, rank, v.strides);
  return v;
}

bool view_is_dense(const ViewLayout& v, const uint8_t* dim_order) {
  if (v.empty()) return true;
  int64_t canonical[kMaxRank];
  canonical_strides(v.sizes, dim_order, v.rank, canonical);
  for (int i = 0; i < v.rank; ++i)
    if (v.sizes[i] > 1 && v.strides[i] != canonical[i]) return false;
  return true;
}

namespace {
// The dims that move (size > 1), outermost first by logical index, with every
// dim merged into the one outside it where the strides allow.
struct ElementOrder {
  int n = 0;
  int64_t sizes[kMaxRank];
  int64_t strides[kMaxRank];
};
ElementOrder element_order(const ViewLayout& v) {
  ElementOrder e;
  for (int i = 0; i < v.rank; ++i) {
    if (v.sizes[i] == 1) continue;
    int64_t span;  // a view's strides may be stepped: check before comparing
    if (e.n > 0 && !__builtin_mul_overflow(v.strides[i], v.sizes[i], &span) &&
        e.strides[e.n - 1] == span) {
      e.sizes[e.n - 1] *= v.sizes[i];  // <= numel: no overflow
      e.strides[e.n - 1] = v.strides[i];
      continue;
    }
    e.sizes[e.n] = v.sizes[i];
    e.strides[e.n++] = v.strides[i];
  }
  return e;
}
}  // namespace

bool same_element_order(const ViewLayout& a, const ViewLayout& b) {
  if (a.empty() || b.empty()) return a.empty() && b.empty();
  if (a.numel() != b.numel()) return false;
  const ElementOrder ea = element_order(a), eb = element_order(b);
  if (ea.n != eb.n) return false;
  for (int i = 0; i < ea.n; ++i)
    if (ea.sizes[i] != eb.sizes[i] || ea.strides[i] != eb.strides[i]) return false;
  return true;
}

int64_t alias_offset_elems(const ViewLayout& v) { return v.empty() ? 0 : v.offset; }

}  // namespace slicefuzz
