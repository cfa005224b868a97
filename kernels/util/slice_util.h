// The shared facts of slicing: index normalisation, result sizes, argument checks
// and the density predicate. slice_copy, et_slice, the rewrite pass and the
// planner all call these; nothing else re-derives them.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "kernels/tensor.h"

namespace slicefuzz {

// A normalised slice along one dim: elements start, start+step, ... (length many).
struct SliceRange {
  int64_t start = 0;   // in [0, size]
  int64_t length = 0;  // L = ceil((end - start) / step) for end > start, else 0
  int64_t step = 1;
};

// aten::slice semantics: missing start = 0, missing end = size; negatives get
// +size; clamp into [0, size]; end < start means empty. Requires size >= 0 and
// step >= 1. No intermediate overflows for any int64 input.
SliceRange normalize_slice(int64_t size, std::optional<int64_t> start,
                           std::optional<int64_t> end, int64_t step);

// Normalises a possibly negative dim; nullopt if outside [-rank, rank-1] or rank 0.
std::optional<int> normalize_dim(int64_t dim, int rank);

// Why slice arguments are invalid for `in` (rank 0, dim out of range, step <= 0),
// or empty when they are valid.
std::string slice_args_error(const Tensor& in, int64_t dim, int64_t step);

// Dense in the dim order: the sliced elements form one block laid out exactly like
// a fresh tensor of the result sizes with the same dim order. Closed form for a
// non-empty result: (step == 1 or L == 1) and (L == size[d] or every dim before d
// in the dim order has size 1). An empty result is trivially dense.
bool slice_is_dense(const int64_t* sizes, const uint8_t* dim_order, int rank, int d,
                    const SliceRange& r);

// Where the slice's first element lies in the input, in elements. An empty slice
// aliases nothing, so it points at the start of the input (offset 0): this keeps
// the alias inside the input's bytes even when start*stride would not be.
int64_t slice_alias_offset_elems(const Tensor& in, int d, const SliceRange& r);

}  // namespace slicefuzz
