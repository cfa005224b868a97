// The stride rule, in one place: strides follow from sizes and dim order.
// stride[P[r-1]] = 1, stride[P[i]] = stride[P[i+1]] * max(sizes[P[i+1]], 1)
// (ExecuTorch's dim_order_to_stride treats a size-0 dim like size 1; so does torch).
#pragma once
#include <cstdint>

namespace slicefuzz {

bool is_valid_dim_order(const uint8_t* dim_order, int rank);
void dim_order_to_strides(const int64_t* sizes, const uint8_t* dim_order, int rank,
                          int64_t* strides);
void identity_dim_order(int rank, uint8_t* dim_order);

}  // namespace slicefuzz
