#include "program/tensor_value.h"

#include <algorithm>
#include <cstring>

#include "kernels/dim_order.h"
#include "kernels/util/element_ops.h"
#include "kernels/util/strided_copy.h"

namespace slicefuzz {

int64_t TensorValue::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

std::vector<int64_t> row_major_strides(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> strides(sizes.size());
  uint8_t order[kMaxRank];
  identity_dim_order(static_cast<int>(sizes.size()), order);
  dim_order_to_strides(sizes.data(), order, static_cast<int>(sizes.size()), strides.data());
  return strides;
}

TensorValue to_tensor_value(const Tensor& t) {
  TensorValue v;
  v.dtype = t.dtype;
  v.sizes.assign(t.sizes, t.sizes + t.rank);
  v.bytes.resize(t.nbytes());
  auto rm = row_major_strides(v.sizes);
  if (std::equal(rm.begin(), rm.end(), t.strides)) {  // already row-major: one memcpy
    if (!v.bytes.empty()) std::memcpy(v.bytes.data(), t.data, v.bytes.size());
    return v;
  }
  strided_copy(v.bytes.data(), rm.data(), t.bytes(), t.strides, t.sizes, t.rank,
               t.element_size());
  return v;
}

void write_tensor_value(const TensorValue& v, Tensor& t) {
  auto rm = row_major_strides(v.sizes);
  strided_copy(t.bytes(), t.strides, v.bytes.data(), rm.data(), t.sizes, t.rank,
               t.element_size());
}

TensorValue make_input_value(ScalarType dtype, const std::vector<int64_t>& sizes) {
  // Every path of a case (and its shadow) asks for the same input: keep the last.
  thread_local TensorValue last;
  thread_local bool have_last = false;
  if (have_last && last.dtype == dtype && last.sizes == sizes) return last;
  TensorValue v;
  v.dtype = dtype;
  v.sizes = sizes;
  const size_t es = element_size(dtype);
  const int64_t n = v.numel();
  v.bytes.resize(static_cast<size_t>(n) * es);
  for (int64_t i = 0; i < n; ++i) write_fill_value(dtype, i, v.bytes.data() + i * es);
  last = v;
  have_last = true;
  return v;
}

std::string sizes_string(const std::vector<int64_t>& sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

std::string index_string(const std::vector<int64_t>& sizes, int64_t flat) {
  std::vector<int64_t> idx(sizes.size());
  for (size_t i = sizes.size(); i-- > 0;) {
    idx[i] = sizes[i] ? flat % sizes[i] : 0;
    flat = sizes[i] ? flat / sizes[i] : 0;
  }
  return sizes_string(idx);
}

bool compare_values(const TensorValue& e, const TensorValue& a, std::string& why,
                    int64_t* first_bad_flat) {
  if (e.dtype != a.dtype) {
    why = "dtype " + std::string(scalar_type_name(e.dtype)) + " expected, got " +
          std::string(scalar_type_name(a.dtype));
    return false;
  }
  if (e.sizes != a.sizes) {
    why = "sizes " + sizes_string(e.sizes) + " expected, got " + sizes_string(a.sizes);
    return false;
  }
  // Equal bytes are equal values for every dtype; the element walk (with +0 == -0
  // and NaN == NaN for floats) only runs when the bytes differ.
  if (e.bytes == a.bytes) return true;
  const size_t es = element_size(e.dtype);
  const int64_t n = e.numel();
  for (int64_t i = 0; i < n; ++i) {
    if (!elements_equal(e.dtype, e.bytes.data() + i * es, a.bytes.data() + i * es)) {
      why = "element " + index_string(e.sizes, i) + ": expected " +
            element_to_string(e.dtype, e.bytes.data() + i * es) + ", got " +
            element_to_string(a.dtype, a.bytes.data() + i * es);
      if (first_bad_flat) *first_bad_flat = i;
      return false;
    }
  }
  return true;
}

}  // namespace slicefuzz
