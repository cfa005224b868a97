// Overflow-checked size arithmetic: a case may claim absurd sizes, and nothing
// may overflow before the byte budget rejects it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

namespace slicefuzz {

inline std::optional<int64_t> checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<int64_t> checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// numel(sizes) * elem_size, or nullopt if a size is negative or anything overflows.
// The stride product (sizes with 0 counted as 1, see dim_order.h) must fit too, so
// that deriving strides afterwards cannot overflow: [2^62, 2^62, 0] is rejected.
inline std::optional<int64_t> checked_numel_bytes(const int64_t* sizes, int rank,
                                                  size_t elem_size) {
  int64_t n = static_cast<int64_t>(elem_size);
  int64_t stride_span = static_cast<int64_t>(elem_size);
  for (int i = 0; i < rank; ++i) {
    if (sizes[i] < 0) return std::nullopt;
    auto s = checked_mul(stride_span, sizes[i] > 1 ? sizes[i] : 1);
    if (!s) return std::nullopt;
    stride_span = *s;
    n *= sizes[i];  // n <= stride_span, so this cannot overflow
  }
  return n;
}

}  // namespace slicefuzz
