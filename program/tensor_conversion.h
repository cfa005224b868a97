// The executors' conversions between a logical value and a Tensor laid out by its
// strides (on the kernels' strided copy): the system under test's side.
#pragma once
#include "kernels/tensor.h"
#include "vocab/tensor_value.h"

namespace slicefuzz {

TensorValue to_tensor_value(const Tensor& t);
// Writes `v` into `t` (same sizes and dtype), following t's strides.
void write_tensor_value(const TensorValue& v, Tensor& t);

}  // namespace slicefuzz
