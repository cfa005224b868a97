#include "kernels/util/strided_copy.h"

#include <algorithm>
#include <cstring>

#include "kernels/tensor.h"

namespace slicefuzz {

namespace {
// Element loops carry no decisions worth coverage feedback; instrumenting their
// compares costs the fuzzer a third of its time (perf, fuzz preset).
#define SF_NO_COVERAGE __attribute__((no_sanitize("coverage")))

template <typename T>
SF_NO_COVERAGE void copy_run(uint8_t* dst, int64_t dst_stride, const uint8_t* src, int64_t src_stride,
              int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(dst + i * dst_stride * sizeof(T), src + i * src_stride * sizeof(T), sizeof(T));
}

SF_NO_COVERAGE void copy_strided_run(uint8_t* dst, int64_t dst_stride, const uint8_t* src,
                      int64_t src_stride, int64_t n, size_t es) {
  switch (es) {
    case 1: return copy_run<uint8_t>(dst, dst_stride, src, src_stride, n);
    case 2: return copy_run<uint16_t>(dst, dst_stride, src, src_stride, n);
    case 4: return copy_run<uint32_t>(dst, dst_stride, src, src_stride, n);
    default: return copy_run<uint64_t>(dst, dst_stride, src, src_stride, n);
  }
}
}  // namespace

void strided_copy(uint8_t* dst, const int64_t* dst_strides, const uint8_t* src,
                  const int64_t* src_strides, const int64_t* sizes, int rank,
                  size_t es) {
  // Keep dims of size > 1 (size-1 dims move nothing); an empty region copies nothing.
  int dims[kMaxRank];
  int n = 0;
  for (int i = 0; i < rank; ++i) {
    if (sizes[i] == 0) return;
    if (sizes[i] > 1) dims[n++] = i;
  }
  // Outermost first in the destination's memory order: a stable insertion sort
  // (at most 16 dims; std::stable_sort took a heap buffer on every call).
  for (int i = 1; i < n; ++i) {
    const int d = dims[i];
    int j = i;
    for (; j > 0 && dst_strides[dims[j - 1]] < dst_strides[d]; --j) dims[j] = dims[j - 1];
    dims[j] = d;
  }

  // Coalesce the innermost dims that are contiguous in both regions.
  int64_t run = 1;
  while (n > 0 && dst_strides[dims[n - 1]] == run && src_strides[dims[n - 1]] == run) {
    run *= sizes[dims[n - 1]];
    --n;
  }
  // The innermost remaining dim is copied as one strided run when no memcpy run exists.
  int64_t inner_n = 1, inner_ds = 0, inner_ss = 0;
  if (run == 1 && n > 0) {
    inner_n = sizes[dims[n - 1]];
    inner_ds = dst_strides[dims[n - 1]];
    inner_ss = src_strides[dims[n - 1]];
    --n;
  }

  int64_t counter[kMaxRank] = {};
  int64_t dst_off = 0, src_off = 0;  // in elements
  for (;;) {
    if (run > 1 || inner_n == 1)
      std::memcpy(dst + dst_off * es, src + src_off * es, static_cast<size_t>(run) * es);
    else
      copy_strided_run(dst + dst_off * es, inner_ds, src + src_off * es, inner_ss, inner_n, es);
    int k = n - 1;  // odometer over the outer dims
    for (; k >= 0; --k) {
      int d = dims[k];
      dst_off += dst_strides[d];
      src_off += src_strides[d];
      if (++counter[k] < sizes[d]) break;
      dst_off -= dst_strides[d] * sizes[d];
      src_off -= src_strides[d] * sizes[d];
      counter[k] = 0;
    }
    if (k < 0) return;
  }
}

}  // namespace slicefuzz
