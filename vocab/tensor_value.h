// A tensor's logical content: dtype, sizes and elements in row-major order,
// whatever the layout it was computed in. Every path reports outputs this way,
// so comparisons never depend on strides. The struct is shared vocabulary; the
// conversions from and to the system under test's Tensor are the executors' own
// (program/tensor_conversion.h), the fill and the comparison are the judge's
// (oracles/values.h).
#pragma once
#include <cstdint>
#include <vector>

#include "vocab/scalar_type.h"

namespace slicefuzz {

struct TensorValue {
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> sizes;
  std::vector<uint8_t> bytes;  // numel * element_size, row-major
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return n;
  }
};

}  // namespace slicefuzz
