// The shape facts of the view-copy ops (select, squeeze, unsqueeze and view, each
// a copy kernel and an alias) and clone(dim_order=): argument normalisation, the
// errors, and the result's layout (sizes and dim order), as ExecuTorch's portable
// kernels define them. The kernels, the alias prim ops, the rewrite pass and the
// executors all read these; nothing else in the system under test re-derives them.
// Each op also has one argument validator (check_*_args) that a kernel calls
// first, in the style of ExecuTorch's copy_ops_util.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/tensor.h"

namespace slicefuzz {

// What a defining op produces: the layout the planner gives its out tensor.
struct ResultLayout {
  int rank = 0;
  int64_t sizes[kMaxRank] = {};
  uint8_t dim_order[kMaxRank] = {};
};

// `in`'s own sizes and dim order (slice_copy's order, clone's).
ResultLayout layout_of(const Tensor& t);

// Why `out` cannot hold a result of `want`'s rank and dim order with dtype `dtype`,
// or "" (sizes are not compared: the kernel resizes out).
std::string out_layout_error(const char* op, const Tensor& out, ScalarType dtype,
                             const ResultLayout& want);

// ---- select_copy(in, dim, index) ------------------------------------------------
// Rank 0, dim outside [-rank, rank-1] or index outside [-size, size): an error.
std::string select_args_error(const Tensor& in, int64_t dim, int64_t index);
// The normalised dim and index (requires select_args_error(...) == "").
struct SelectArgs {
  int dim = 0;
  int64_t index = 0;
};
SelectArgs normalize_select(const Tensor& in, int64_t dim, int64_t index);
// in's sizes without dim d; the dim order without d, later dims renumbered.
ResultLayout select_result(const Tensor& in, int d);
std::string check_select_copy_args(const Tensor& in, int64_t dim, int64_t index, const Tensor& out);

// ---- squeeze_copy(in, dims) -----------------------------------------------------
// Each dim normalised against max(rank, 1) (a 0-dim tensor takes 0 and -1); out of
// range or listed twice: an error.
std::string squeeze_args_error(const Tensor& in, const int64_t* dims, size_t ndims);
// drop[d]: d is listed and has size 1 (a listed dim of size > 1 stays, as aten).
// Requires squeeze_args_error(...) == "".
void squeeze_drop_mask(const Tensor& in, const int64_t* dims, size_t ndims, bool* drop);
// in without the dropped dims; the dim order without them, renumbered.
ResultLayout squeeze_result(const Tensor& in, const bool* drop);
std::string check_squeeze_copy_args(const Tensor& in, const int64_t* dims, size_t ndims,
                                    const Tensor& out);

// ---- unsqueeze_copy(in, dim) ----------------------------------------------------
// Result rank over 16, or dim outside [-(rank+1), rank]: an error.
std::string unsqueeze_args_error(const Tensor& in, int64_t dim);
int normalize_unsqueeze_dim(const Tensor& in, int64_t dim);  // requires no error
// A size-1 dim at d; dims >= d renumbered up; in the dim order, d sits just outside
// the dim it precedes (innermost when d == rank), so the bytes are in's.
ResultLayout unsqueeze_result(const Tensor& in, int d);
std::string check_unsqueeze_copy_args(const Tensor& in, int64_t dim, const Tensor& out);

// ---- view_copy(in, sizes) -------------------------------------------------------
// The target sizes with a -1 inferred. Errors: more than 16 sizes, more than one
// -1, a size below -1, a -1 beside a size 0 (ambiguous), the element count differs.
// Returns "" and fills `target` (nsizes entries), or the reason.
std::string view_target_sizes(int64_t numel, const int64_t* sizes, size_t nsizes, int64_t* target);
// The target sizes, row-major (identity dim order).
ResultLayout view_result(const int64_t* target, int rank);
std::string check_view_copy_args(const Tensor& in, const int64_t* sizes, size_t nsizes,
                                 const Tensor& out);

// ---- clone(in, dim_order=P) -----------------------------------------------------
// P (when given) must be a permutation of in's rank and equal out's dim order.
std::string check_clone_dim_order_args(const Tensor& in, const int64_t* dim_order, size_t n,
                                       const Tensor& out);

}  // namespace slicefuzz
