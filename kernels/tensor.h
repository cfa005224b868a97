// ExecuTorch's tensor model, reduced to what slicing needs: a non-owning view of
// (dtype, sizes, dim order, derived strides, data). Strides are never free: they
// follow from sizes and dim order (see dim_order.h), exactly as in ExecuTorch.
#pragma once
#include <cstddef>
#include <cstdint>

#include "vocab/scalar_type.h"

namespace slicefuzz {

inline constexpr int kMaxRank = 16;

// STATIC: sizes may not change. DYNAMIC_BOUND: may resize while the bytes fit the
// capacity (ExecuTorch's TensorShapeDynamism).
enum class ShapeDynamism : uint8_t { STATIC, DYNAMIC_BOUND };

struct Tensor {
  ScalarType dtype = ScalarType::Float;
  int rank = 0;
  int64_t sizes[kMaxRank] = {};
  uint8_t dim_order[kMaxRank] = {};  // dim_order[0] outermost in memory
  int64_t strides[kMaxRank] = {};    // in elements, derived from sizes + dim_order
  void* data = nullptr;
  size_t capacity_nbytes = 0;  // bytes behind `data` that this tensor may use
  ShapeDynamism dynamism = ShapeDynamism::STATIC;

  int dim() const { return rank; }
  int64_t size(int d) const { return sizes[d]; }
  int64_t numel() const;
  size_t element_size() const { return slicefuzz::element_size(dtype); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * element_size(); }
  uint8_t* bytes() const { return static_cast<uint8_t*>(data); }
};

// Builds tensor metadata (strides derived). Returns false when rank, sizes or the
// dim order are invalid; `out` is then unspecified.
bool make_tensor_meta(ScalarType dtype, int rank, const int64_t* sizes,
                      const uint8_t* dim_order, Tensor& out);

// Sets new sizes (same rank, same dim order) and re-derives strides. Fails, leaving
// `t` untouched, if the shape is static and differs, or the bytes exceed capacity.
bool resize_tensor(Tensor& t, const int64_t* new_sizes);

bool same_dim_order(const Tensor& a, const Tensor& b);
bool same_sizes(const Tensor& a, const Tensor& b);

}  // namespace slicefuzz
