#include "program/tensor_conversion.h"

#include <algorithm>
#include <cstring>

#include "kernels/dim_order.h"
#include "kernels/util/strided_copy.h"

namespace slicefuzz {

namespace {
// Row-major strides of a tensor's sizes: the stride rule with the identity order.
void row_major(const Tensor& t, int64_t* strides) {
  uint8_t order[kMaxRank];
  identity_dim_order(t.rank, order);
  dim_order_to_strides(t.sizes, order, t.rank, strides);
}
}  // namespace

TensorValue to_tensor_value(const Tensor& t) {
  TensorValue v;
  v.dtype = t.dtype;
  v.sizes.assign(t.sizes, t.sizes + t.rank);
  v.bytes.resize(t.nbytes());
  int64_t rm[kMaxRank];
  row_major(t, rm);
  if (std::equal(rm, rm + t.rank, t.strides)) {  // already row-major: one memcpy
    if (!v.bytes.empty()) std::memcpy(v.bytes.data(), t.data, v.bytes.size());
    return v;
  }
  strided_copy(v.bytes.data(), rm, t.bytes(), t.strides, t.sizes, t.rank, t.element_size());
  return v;
}

void write_tensor_value(const TensorValue& v, Tensor& t) {
  int64_t rm[kMaxRank];
  row_major(t, rm);
  strided_copy(t.bytes(), t.strides, v.bytes.data(), rm, t.sizes, t.rank, t.element_size());
}

}  // namespace slicefuzz
