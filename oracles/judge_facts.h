// The judge's own facts: everything the judge predicts (which op must fail, every
// value's sizes, strides, torch-view offsets, density, element arithmetic) is
// computed here, from DESIGN section 2, with 128-bit arithmetic. Nothing here
// calls or includes the system under test (kernels/, the pass, the planner, the
// executors): a judge that shares the judged's normalisation cannot see its bugs.
// The only shared vocabulary is the dtype table (vocab/scalar_type.h: names
// and element sizes) and the case IR (vocab/case.h).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vocab/scalar_type.h"

namespace slicefuzz::judge {

// A normalised slice along dim `dim`: elements start, start + step, ... (length).
struct SliceSpan {
  int dim = 0;
  int64_t start = 0;
  int64_t length = 0;
  int64_t step = 1;
};

// `dim` normalised into [0, rank), or -1 when it lies outside [-rank, rank-1].
int dim_index(int rank, int64_t dim);

// Why slice_copy(x of `rank`, dim, step) must fail, or "" when it must not.
std::string slice_error(int rank, int64_t dim, int64_t step);

// Why select(x of `sizes`, dim, index) must fail (rank 0, dim out of range, index
// outside [-size, size)), or "" when it must not.
std::string select_error(const std::vector<int64_t>& sizes, int64_t dim, int64_t index);

// aten::slice normalisation (requires slice_error(...) == ""): missing start 0,
// missing end size, negatives + size, clamp into [0, size], L = ceil((e-s)/step).
SliceSpan normalize_slice_args(const std::vector<int64_t>& sizes, int64_t dim,
                               std::optional<int64_t> start, std::optional<int64_t> end,
                               int64_t step);

// The stride rule (DESIGN 2): stride[P[r-1]] = 1, stride[P[i]] =
// stride[P[i+1]] * max(sizes[P[i+1]], 1). An empty dim order means identity.
std::vector<int64_t> strides_for(const std::vector<int64_t>& sizes,
                                 const std::vector<int>& dim_order);
// The same into `strides`, reusing its capacity (for per-op scratch).
void strides_into(const std::vector<int64_t>& sizes, const std::vector<int>& dim_order,
                  std::vector<int64_t>& strides);

// A strided view of a tensor: sizes, strides (elements) and the element offset
// of its first element from the tensor's first element.
struct StridedView {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t offset = 0;
};

// torch's view of slice(x, span) over x laid out with `dim_order`.
StridedView slice_view(const std::vector<int64_t>& sizes, const std::vector<int>& dim_order,
                       const SliceSpan& span);

// The general density rule: every dim of size > 1 has the canonical stride of the
// view's sizes in `dim_order`; an empty view is dense.
bool view_is_dense(const StridedView& v, const std::vector<int>& dim_order);

// numel * element size, or nullopt when a size is negative or the bytes (or the
// stride span, sizes 0 counted as 1) exceed int64.
std::optional<int64_t> tensor_bytes(const std::vector<int64_t>& sizes, ScalarType dtype);

// --- elements (the judge's arithmetic, written apart from the kernels') ---

// The documented input fill (README, DESIGN 4): the element at row-major index i.
void fill_element(ScalarType t, int64_t i, uint8_t* dst);
// float16 (Half) and bfloat16 (BFloat16) by value tables: encode16 rounds a float
// to the nearest finite value (ties to the even pattern; at or above the midpoint
// past the largest finite: infinity; NaN: the dtype's NaN, float16 keeping the
// sign as c10::Half does); decode16 is the IEEE value of a pattern.
uint16_t encode16(ScalarType t, float f);
float decode16(ScalarType t, uint16_t bits);
// add_(x, k) on one element: integers wrap, bool flips on odd k, float16/bfloat16
// add in float with k rounded float -> dtype, as torch does.
void add_to_element(ScalarType t, uint8_t* elem, int64_t k);
// The same on n contiguous elements from `first` (k is rounded to the dtype once).
void add_to_elements(ScalarType t, uint8_t* first, int64_t n, int64_t k);
// mul(x, k) on n contiguous elements: k converted to the dtype as torch's cast
// does it (integers wrap, bool is k != 0, floats round int64 -> float -> dtype),
// then the product in the dtype: integers wrap, bool is `and`, float16/bfloat16
// multiply in float (exact for two 11-bit significands) and round once.
void mul_elements(ScalarType t, uint8_t* first, int64_t n, int64_t k);
// add and mul of two tensors of one dtype, element-wise on n contiguous
// elements (a[i] = a[i] op b[i]): integers wrap, float16/bfloat16 compute in
// float and round once, bool add is `or` and bool mul `and` (torch's).
void add_tensor_elements(ScalarType t, uint8_t* a, const uint8_t* b, int64_t n);
void mul_tensor_elements(ScalarType t, uint8_t* a, const uint8_t* b, int64_t n);
// relu on n contiguous elements: a negative element becomes +0, every other
// (-0.0 and NaN included) stays, as torch's clamp_min(x, 0) leaves them; uint8 is
// unchanged. Bool and float16 never get here (op_dtype_error refuses them).
void relu_elements(ScalarType t, uint8_t* first, int64_t n);
bool same_element(ScalarType t, const uint8_t* a, const uint8_t* b);
double element_value(ScalarType t, const uint8_t* elem);
std::string element_text(ScalarType t, const uint8_t* elem);

}  // namespace slicefuzz::judge
