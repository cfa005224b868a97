#include "kernels/dim_order.h"

#include "kernels/tensor.h"

namespace slicefuzz {

bool is_valid_dim_order(const uint8_t* dim_order, int rank) {
  if (rank < 0 || rank > kMaxRank) return false;
  bool seen[kMaxRank] = {};
  for (int i = 0; i < rank; ++i) {
    if (dim_order[i] >= rank || seen[dim_order[i]]) return false;
    seen[dim_order[i]] = true;
  }
  return true;
}

void dim_order_to_strides(const int64_t* sizes, const uint8_t* dim_order, int rank,
                          int64_t* strides) {
  int64_t stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    strides[dim_order[i]] = stride;
    stride *= sizes[dim_order[i]] > 1 ? sizes[dim_order[i]] : 1;
  }
}

void identity_dim_order(int rank, uint8_t* dim_order) {
  for (int i = 0; i < rank; ++i) dim_order[i] = static_cast<uint8_t>(i);
}

}  // namespace slicefuzz
