// Copies a strided region element by element into another strided region: the
// one data-movement loop behind slice_copy, clone and copy_. It walks the
// destination in its memory order and coalesces the innermost dims that are
// contiguous on both sides into one memcpy, so a dense slice is a few memcpys
// whatever the dim order.
#pragma once
#include <cstddef>
#include <cstdint>

namespace slicefuzz {

void strided_copy(uint8_t* dst, const int64_t* dst_strides, const uint8_t* src,
                  const int64_t* src_strides, const int64_t* sizes, int rank,
                  size_t elem_size);

}  // namespace slicefuzz
