#include "kernels/tensor.h"

#include "kernels/dim_order.h"
#include "kernels/util/checked_math.h"

namespace slicefuzz {

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int i = 0; i < rank; ++i) n *= sizes[i];
  return n;
}

bool make_tensor_meta(ScalarType dtype, int rank, const int64_t* sizes,
                      const uint8_t* dim_order, Tensor& out) {
  if (rank < 0 || rank > kMaxRank) return false;
  if (!is_valid_dim_order(dim_order, rank)) return false;
  if (!checked_numel_bytes(sizes, rank, slicefuzz::element_size(dtype))) return false;
  out.dtype = dtype;
  out.rank = rank;
  for (int i = 0; i < rank; ++i) {
    out.sizes[i] = sizes[i];
    out.dim_order[i] = dim_order[i];
  }
  dim_order_to_strides(out.sizes, out.dim_order, rank, out.strides);
  return true;
}

bool resize_tensor(Tensor& t, const int64_t* new_sizes) {
  bool same = true;
  for (int i = 0; i < t.rank; ++i) same = same && new_sizes[i] == t.sizes[i];
  if (same) return true;
  if (t.dynamism == ShapeDynamism::STATIC) return false;
  auto bytes = checked_numel_bytes(new_sizes, t.rank, t.element_size());
  if (!bytes || static_cast<size_t>(*bytes) > t.capacity_nbytes) return false;
  for (int i = 0; i < t.rank; ++i) t.sizes[i] = new_sizes[i];
  dim_order_to_strides(t.sizes, t.dim_order, t.rank, t.strides);
  return true;
}

bool same_dim_order(const Tensor& a, const Tensor& b) {
  if (a.rank != b.rank) return false;
  for (int i = 0; i < a.rank; ++i)
    if (a.dim_order[i] != b.dim_order[i]) return false;
  return true;
}

bool same_sizes(const Tensor& a, const Tensor& b) {
  if (a.rank != b.rank) return false;
  for (int i = 0; i < a.rank; ++i)
    if (a.sizes[i] != b.sizes[i]) return false;
  return true;
}

}  // namespace slicefuzz
