#include "kernels/util/shape_util.h"

#include <algorithm>

#include "kernels/dim_order.h"
#include "kernels/kernel_runtime_context.h"
#include "kernels/util/slice_util.h"

namespace slicefuzz {

namespace {

std::string order_string(const uint8_t* order, int rank) {
  std::string s = "[";
  for (int i = 0; i < rank; ++i) s += (i ? ", " : "") + std::to_string(order[i]);
  return s + "]";
}

// `order` without the dims in `drop`, the remaining dims renumbered.
int order_without(const uint8_t* order, int rank, const bool* drop, uint8_t* out) {
  int n = 0;
  for (int i = 0; i < rank; ++i) {
    const int d = order[i];
    if (drop[d]) continue;
    int below = 0;
    for (int j = 0; j < d; ++j) below += drop[j];
    out[n++] = static_cast<uint8_t>(d - below);
  }
  return n;
}

const char* dtype_name(ScalarType t) { return scalar_type_name(t).data(); }

}  // namespace

ResultLayout layout_of(const Tensor& t) {
  ResultLayout r;
  r.rank = t.rank;
  for (int i = 0; i < t.rank; ++i) {
    r.sizes[i] = t.sizes[i];
    r.dim_order[i] = t.dim_order[i];
  }
  return r;
}

std::string out_layout_error(const char* op, const Tensor& out, ScalarType dtype,
                             const ResultLayout& want) {
  if (out.dtype != dtype)
    return format_msg("%s: out dtype %s differs from in dtype %s", op, dtype_name(out.dtype),
                      dtype_name(dtype));
  if (out.rank != want.rank)
    return format_msg("%s: out has rank %d, the result has rank %d", op, out.rank, want.rank);
  if (!std::equal(want.dim_order, want.dim_order + want.rank, out.dim_order))
    return format_msg("%s: out has dim order %s, the result has dim order %s", op,
                      order_string(out.dim_order, out.rank).c_str(),
                      order_string(want.dim_order, want.rank).c_str());
  return {};
}

// ---- select_copy ------------------------------------------------------------------

std::string select_args_error(const Tensor& in, int64_t dim, int64_t index) {
  if (in.rank == 0) return "select_copy cannot be applied to a 0-dim tensor";
  const auto d = normalize_dim(dim, in.rank);
  if (!d)
    return format_msg("dim %lld is out of range for a tensor of rank %d (expected %d..%d)",
                      static_cast<long long>(dim), in.rank, -in.rank, in.rank - 1);
  const int64_t size = in.sizes[*d];
  if (index < -size || index >= size)
    return format_msg("index %lld is out of range for dim %d of size %lld", static_cast<long long>(index),
                      *d, static_cast<long long>(size));
  return {};
}

SelectArgs normalize_select(const Tensor& in, int64_t dim, int64_t index) {
  SelectArgs a;
  a.dim = *normalize_dim(dim, in.rank);
  a.index = index < 0 ? index + in.sizes[a.dim] : index;
  return a;
}

ResultLayout select_result(const Tensor& in, int d) {
  bool drop[kMaxRank] = {};
  drop[d] = true;
  return squeeze_result(in, drop);
}

std::string check_select_copy_args(const Tensor& in, int64_t dim, int64_t index, const Tensor& out) {
  std::string why = select_args_error(in, dim, index);
  if (!why.empty()) return "select_copy: " + why;
  return out_layout_error("select_copy", out, in.dtype, select_result(in, normalize_select(in, dim, index).dim));
}

// ---- squeeze_copy -----------------------------------------------------------------

std::string squeeze_args_error(const Tensor& in, const int64_t* dims, size_t ndims) {
  if (ndims > static_cast<size_t>(kMaxRank)) return format_msg("more than %d dims", kMaxRank);
  const int span = std::max(in.rank, 1);  // a 0-dim tensor takes dim 0 and -1
  bool listed[kMaxRank] = {};
  for (size_t i = 0; i < ndims; ++i) {
    const auto d = normalize_dim(dims[i], span);
    if (!d)
      return format_msg("dim %lld is out of range for a tensor of rank %d (expected %d..%d)",
                        static_cast<long long>(dims[i]), in.rank, -span, span - 1);
    if (listed[*d]) return format_msg("dim %d appears more than once in dims", *d);
    listed[*d] = true;
  }
  return {};
}

void squeeze_drop_mask(const Tensor& in, const int64_t* dims, size_t ndims, bool* drop) {
  std::fill(drop, drop + kMaxRank, false);
  if (in.rank == 0) return;  // stays 0-dim
  for (size_t i = 0; i < ndims; ++i) {
    const int d = *normalize_dim(dims[i], in.rank);
    drop[d] = in.sizes[d] == 1;
  }
}

ResultLayout squeeze_result(const Tensor& in, const bool* drop) {
  ResultLayout r;
  for (int i = 0; i < in.rank; ++i)
    if (!drop[i]) r.sizes[r.rank++] = in.sizes[i];
  order_without(in.dim_order, in.rank, drop, r.dim_order);
  return r;
}

std::string check_squeeze_copy_args(const Tensor& in, const int64_t* dims, size_t ndims,
                                    const Tensor& out) {
  std::string why = squeeze_args_error(in, dims, ndims);
  if (!why.empty()) return "squeeze_copy: " + why;
  bool drop[kMaxRank];
  squeeze_drop_mask(in, dims, ndims, drop);
  return out_layout_error("squeeze_copy", out, in.dtype, squeeze_result(in, drop));
}

// ---- unsqueeze_copy ---------------------------------------------------------------

std::string unsqueeze_args_error(const Tensor& in, int64_t dim) {
  if (in.rank + 1 > kMaxRank)
    return format_msg("the result's rank %d exceeds %d", in.rank + 1, kMaxRank);
  if (!normalize_dim(dim, in.rank + 1))
    return format_msg("dim %lld is out of range for a result of rank %d (expected %d..%d)",
                      static_cast<long long>(dim), in.rank + 1, -(in.rank + 1), in.rank);
  return {};
}

int normalize_unsqueeze_dim(const Tensor& in, int64_t dim) { return *normalize_dim(dim, in.rank + 1); }

ResultLayout unsqueeze_result(const Tensor& in, int d) {
  ResultLayout r;
  r.rank = in.rank + 1;
  for (int i = 0, j = 0; i < r.rank; ++i) r.sizes[i] = i == d ? 1 : in.sizes[j++];
  int n = 0;
  for (int i = 0; i < in.rank; ++i) {
    const int o = in.dim_order[i];
    if (o == d) r.dim_order[n++] = static_cast<uint8_t>(d);  // just outside the dim it precedes
    r.dim_order[n++] = static_cast<uint8_t>(o >= d ? o + 1 : o);
  }
  if (d == in.rank) r.dim_order[n++] = static_cast<uint8_t>(d);  // innermost
  return r;
}

std::string check_unsqueeze_copy_args(const Tensor& in, int64_t dim, const Tensor& out) {
  std::string why = unsqueeze_args_error(in, dim);
  if (!why.empty()) return "unsqueeze_copy: " + why;
  return out_layout_error("unsqueeze_copy", out, in.dtype,
                          unsqueeze_result(in, normalize_unsqueeze_dim(in, dim)));
}

// ---- view_copy --------------------------------------------------------------------

std::string view_target_sizes(int64_t numel, const int64_t* sizes, size_t nsizes, int64_t* target) {
  if (nsizes > static_cast<size_t>(kMaxRank)) return format_msg("more than %d sizes", kMaxRank);
  int inferred = -1;
  bool zero = false;
  // The product of the given sizes, saturated just past INT64_MAX (>= numel anyway).
  unsigned __int128 known = 1;
  const unsigned __int128 saturated = static_cast<unsigned __int128>(INT64_MAX) + 1;
  for (size_t i = 0; i < nsizes; ++i) {
    if (sizes[i] == -1) {
      if (inferred >= 0) return "only one size may be -1";
      inferred = static_cast<int>(i);
      continue;
    }
    if (sizes[i] < -1) return format_msg("size %lld is negative", static_cast<long long>(sizes[i]));
    zero = zero || sizes[i] == 0;
    known = std::min(known * static_cast<uint64_t>(sizes[i]), saturated);
    target[i] = sizes[i];
  }
  if (inferred >= 0) {
    if (zero) return "a -1 cannot be inferred beside a size of 0";
    // known >= 1 here (no size 0).
    const bool fits = known > static_cast<unsigned __int128>(numel)
                          ? numel == 0
                          : numel % static_cast<int64_t>(known) == 0;
    if (!fits)
      return format_msg("%lld elements cannot be viewed with the other sizes", static_cast<long long>(numel));
    target[inferred] = numel == 0 ? 0 : numel / static_cast<int64_t>(known);
    return {};
  }
  if (known != static_cast<unsigned __int128>(numel))
    return format_msg("the sizes do not hold the input's %lld elements", static_cast<long long>(numel));
  return {};
}

ResultLayout view_result(const int64_t* target, int rank) {
  ResultLayout r;
  r.rank = rank;
  for (int i = 0; i < rank; ++i) r.sizes[i] = target[i];
  identity_dim_order(rank, r.dim_order);
  return r;
}

std::string check_view_copy_args(const Tensor& in, const int64_t* sizes, size_t nsizes,
                                 const Tensor& out) {
  int64_t target[kMaxRank];
  std::string why = view_target_sizes(in.numel(), sizes, nsizes, target);
  if (!why.empty()) return "view_copy: " + why;
  return out_layout_error("view_copy", out, in.dtype, view_result(target, static_cast<int>(nsizes)));
}

// ---- clone(dim_order=) ------------------------------------------------------------

std::string check_clone_dim_order_args(const Tensor& in, const int64_t* dim_order, size_t n,
                                       const Tensor& out) {
  ResultLayout want = layout_of(in);
  if (dim_order != nullptr) {
    bool ok = n == static_cast<size_t>(in.rank);
    for (size_t i = 0; ok && i < n; ++i) {
      ok = dim_order[i] >= 0 && dim_order[i] < in.rank;
      if (ok) want.dim_order[i] = static_cast<uint8_t>(dim_order[i]);
    }
    if (!ok || !is_valid_dim_order(want.dim_order, in.rank))
      return format_msg("clone: dim_order must be a permutation of 0..%d", in.rank - 1);
  } else {
    std::copy(out.dim_order, out.dim_order + std::min(out.rank, kMaxRank), want.dim_order);
  }
  return out_layout_error("clone", out, in.dtype, want);
}

}  // namespace slicefuzz
