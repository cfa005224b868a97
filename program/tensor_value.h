// A tensor's logical content: dtype, sizes and elements in row-major order,
// whatever the layout it was computed in. Every path reports outputs this way,
// so comparisons never depend on strides.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/scalar_type.h"
#include "kernels/tensor.h"

namespace slicefuzz {

struct TensorValue {
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> sizes;
  std::vector<uint8_t> bytes;  // numel * element_size, row-major
  int64_t numel() const;
};

TensorValue to_tensor_value(const Tensor& t);

// The documented input fill (element_ops.h) as a row-major value.
TensorValue make_input_value(ScalarType dtype, const std::vector<int64_t>& sizes);

// Writes `v` into `t` (same sizes and dtype), following t's strides.
void write_tensor_value(const TensorValue& v, Tensor& t);

// Row-major strides of `sizes` (the stride rule with the identity dim order).
std::vector<int64_t> row_major_strides(const std::vector<int64_t>& sizes);

// "[1, 0, 2]" for the row-major index `flat` of a tensor of `sizes`.
std::string index_string(const std::vector<int64_t>& sizes, int64_t flat);
std::string sizes_string(const std::vector<int64_t>& sizes);

// Compares two values; on a difference, describes the first one ("sizes [2, 3]
// vs [2, 4]" or "element [1, 2]: expected 5, got 7") and returns false.
bool compare_values(const TensorValue& expected, const TensorValue& actual, std::string& why,
                    int64_t* first_bad_flat = nullptr);

}  // namespace slicefuzz
