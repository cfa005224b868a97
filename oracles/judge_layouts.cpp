#include "oracles/judge_layouts.h"

#include "oracles/domain_adapter.h"

#include <algorithm>
#include <cstdio>

namespace slicefuzz::judge {

namespace {

using i128 = __int128;

std::string printf_string(const char* fmt, long long a, long long b = 0, long long c = 0) {
  char buf[200];
  std::snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

std::string dim_range_error(const char* op, int64_t dim, int lo, int hi) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s: dim %lld is outside [%d, %d]", op, (long long)dim, lo, hi);
  return buf;
}

// `order` without the dims in `removed` (sorted, distinct), later dims renumbered.
std::vector<int> order_without(const std::vector<int>& order, const std::vector<int>& removed) {
  std::vector<int> out;
  for (int d : order) {
    if (std::find(removed.begin(), removed.end(), d) != removed.end()) continue;
    int below = 0;
    for (int r : removed) below += r < d;
    out.push_back(d - below);
  }
  return out;
}

// `dst = src` that keeps dst's buffer (a move-assign would take src's, or none
// when src is empty): the into-variants below fill vectors kept across cases
// (LayoutQuery, the naive reference's scratch views), whose heap blocks then stay
// the same from case to case and libFuzzer's malloc/free balance after a run sees
// no possible leak to execute again (issue 11).
template <class T>
void keep_capacity_assign(std::vector<T>& dst, const std::vector<T>& src) {
  dst.assign(src.begin(), src.end());
}

int64_t numel_of(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;  // callers hold sizes whose bytes fit the budget
  return n;
}

// torch's rule for viewing a strided tensor (old sizes and strides) with new
// sizes of the same element count, written from its definition (ATen's
// computeStride, TensorUtils.cpp, torch 1.13): the old dims are cut into chunks
// that are contiguous in memory (each dim's stride is the next one's size *
// stride, dims of size 1 join any chunk); the new dims must split the chunks
// without straddling two. nullopt when they would: torch cannot view it.
std::optional<std::vector<int64_t>> view_strides(const std::vector<int64_t>& old_sizes,
                                                 const std::vector<int64_t>& old_strides,
                                                 const std::vector<int64_t>& sizes) {
  const size_t rank = sizes.size();
  std::vector<int64_t> strides(rank, 1);
  if (old_sizes.empty()) return strides;  // one element: any strides
  const int64_t n = numel_of(old_sizes);
  if (n == 0 && old_sizes == sizes) return old_strides;
  if (n == 0) {  // row-major strides, a size 0 counted as 1
    for (size_t d = rank; d-- > 0;)
      strides[d] = d + 1 == rank ? 1 : std::max<int64_t>(sizes[d + 1], 1) * strides[d + 1];
    return strides;
  }
  int view_d = static_cast<int>(rank) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (size_t tensor_d = old_sizes.size(); tensor_d-- > 0;) {
    tensor_numel *= old_sizes[tensor_d];
    // A chunk ends at dim 0, or where the next outer dim is not contiguous with it.
    if (tensor_d == 0 ||
        (old_sizes[tensor_d - 1] != 1 && old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || sizes[view_d] == 1)) {
        strides[view_d] = view_numel * chunk_base_stride;
        view_numel *= sizes[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = old_strides[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return strides;
}

}  // namespace

std::vector<int> identity_order(int rank) {
  std::vector<int> id(static_cast<size_t>(std::max(rank, 0)));
  for (int i = 0; i < rank; ++i) id[i] = i;
  return id;
}

// aten::expand's sizes (implicit=False): aligned with the trailing dims, -1 keeps
// a dim, only a size-1 dim changes, new leading dims take sizes >= 0; at most 16.
std::optional<std::vector<int64_t>> expand_sizes(const std::vector<int64_t>& in,
                                                 const std::vector<int64_t>& sizes, std::string& why) {
  const int rank = static_cast<int>(in.size()), n = static_cast<int>(sizes.size());
  if (n < rank)
    return why = printf_string("expand_copy: %lld sizes for a tensor of rank %lld", n, rank), std::nullopt;
  if (n > kMaxCaseRank) return why = "expand_copy: more than 16 sizes", std::nullopt;
  std::vector<int64_t> out(sizes);
  for (int j = 0; j < n; ++j) {
    const int i = j - (n - rank);
    if (i < 0) {
      if (sizes[j] < 0)
        return why = printf_string("expand_copy: size %lld in a new leading dim", sizes[j]), std::nullopt;
      continue;
    }
    if (sizes[j] == -1) {
      out[j] = in[i];
    } else if (in[i] != 1 && sizes[j] != in[i]) {
      return why = printf_string("expand_copy: size %lld for dim %lld of size %lld", sizes[j], i, in[i]),
             std::nullopt;
    } else if (sizes[j] < 0) {
      return why = printf_string("expand_copy: size %lld is negative", sizes[j]), std::nullopt;
    }
  }
  return out;
}

// aten::narrow_copy's checks, in its order: rank > 0, dim in range, length >= 0,
// start in [-size, size] (a negative start wraps as a dim does: a dim of size 0
// takes -1 as 0), start + length <= size (in 128 bits: no sum overflows).
std::string narrow_error(const std::vector<int64_t>& sizes, int64_t dim, int64_t start,
                         int64_t length) {
  const int rank = static_cast<int>(sizes.size());
  if (rank == 0) return "narrow_copy of a 0-dim tensor";
  const int d = dim_index(rank, dim);
  if (d < 0) return dim_range_error("narrow_copy", dim, -rank, rank - 1);
  if (length < 0) return printf_string("narrow_copy: length %lld is negative", length);
  const i128 size = sizes[d];
  const i128 wrap = size > 0 ? size : 1;  // torch's maybe_wrap_dim of the start
  if (start < -wrap || start > size)
    return printf_string("narrow_copy: start %lld is outside [-%lld, %lld]", start,
                         static_cast<long long>(wrap), sizes[d]);
  const i128 first = start < 0 ? start + wrap : start;
  if (first + length > size)
    return printf_string("narrow_copy: start %lld + length %lld exceeds the size %lld",
                         static_cast<long long>(first), length, sizes[d]);
  return {};
}

std::string dim_order_error(int rank, const std::vector<int>& order) {
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  bool ok = static_cast<int>(sorted.size()) == rank;
  for (int i = 0; ok && i < rank; ++i) ok = sorted[i] == i;
  return ok ? "" : printf_string("dim_order must be a permutation of 0..%lld", rank - 1);
}

std::optional<std::vector<int64_t>> view_sizes(int64_t numel, const std::vector<int64_t>& sizes,
                                               std::string& why) {
  if (sizes.size() > 16) {
    why = "view_copy: more than 16 sizes";
    return std::nullopt;
  }
  int inferred = -1;
  bool zero = false;
  i128 known = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      if (inferred >= 0) return why = "view_copy: only one size may be -1", std::nullopt;
      inferred = static_cast<int>(i);
      continue;
    }
    if (sizes[i] < -1)
      return why = printf_string("view_copy: size %lld is negative", sizes[i]), std::nullopt;
    zero = zero || sizes[i] == 0;
    // Saturate: anything past numel (< 2^63) is already a mismatch.
    known = std::min<i128>(known * sizes[i], i128{1} << 64);
  }
  std::vector<int64_t> out = sizes;
  if (inferred >= 0) {
    if (zero)
      return why = "view_copy: -1 cannot be inferred next to a size of 0", std::nullopt;
    // `known` >= 1 here, and may be saturated at 2^64: it is narrowed to int64
    // only once it is known to be at most numel. Every product divides 0 elements
    // (the inferred size is then 0).
    if (numel > 0 && (known > numel || numel % static_cast<int64_t>(known) != 0))
      return why = printf_string("view_copy: %lld elements cannot be viewed with the other "
                                 "sizes' product %lld",
                                 numel, static_cast<long long>(std::min<i128>(known, INT64_MAX))),
             std::nullopt;
    out[inferred] = numel > 0 ? numel / static_cast<int64_t>(known) : 0;
  } else if (known != numel) {
    return why = printf_string("view_copy: the sizes hold %lld elements, the input %lld",
                               static_cast<long long>(std::min<i128>(known, INT64_MAX)), numel),
           std::nullopt;
  }
  return out;
}

OpOutcome op_result(const Op& op, const Layout& in) {
  OpOutcome r;
  op_result_into(op, in, r);
  return r;
}

void op_result_into(const Op& op, const Layout& in, OpOutcome& r) {
  const int rank = static_cast<int>(in.sizes.size());
  r.error.clear();
  r.layout.sizes.assign(in.sizes.begin(), in.sizes.end());
  r.layout.dim_order.assign(in.dim_order.begin(), in.dim_order.end());
  switch (op.kind) {
    case OpKind::SliceCopy:
    case OpKind::Slice: {
      r.error = slice_error(rank, op.dim, op.step);
      if (!r.error.empty()) return;
      const SliceSpan span = normalize_slice_args(in.sizes, op.dim, op.start, op.end, op.step);
      r.layout.sizes[span.dim] = span.length;
      return;
    }
    case OpKind::ExpandCopy: {
      auto sizes = expand_sizes(in.sizes, op.ints, r.error);
      if (!sizes) return;
      r.layout.sizes = *sizes;
      keep_capacity_assign(r.layout.dim_order, identity_order(static_cast<int>(sizes->size())));
      return;
    }
    case OpKind::NarrowCopy: {
      r.error = narrow_error(in.sizes, op.dim, op.index, op.length);
      if (!r.error.empty()) return;
      r.layout.sizes[dim_index(rank, op.dim)] = op.length;
      return;
    }
    case OpKind::Clone:
      if (op.dim_order) {
        r.error = dim_order_error(rank, *op.dim_order);
        if (!r.error.empty()) r.error = "clone: " + r.error;
        r.layout.dim_order = *op.dim_order;
      }
      return;
    case OpKind::AddOut:
    case OpKind::MulOut:
    case OpKind::Relu:
    case OpKind::Sigmoid:
    case OpKind::Gelu:
    case OpKind::AddTensor:
    case OpKind::MulTensor: return;
    case OpKind::IndexCopy: {
      // torch 1.13's index_copy allocates a contiguous result, whatever self's
      // layout (measured: a transposed self gives row-major strides). Its source
      // and index are judged with the source (judge_index_copy.h).
      const int span = std::max(rank, 1);
      if (dim_index(span, op.dim) < 0)
        return void(r.error = dim_range_error("index_copy", op.dim, -span, span - 1));
      keep_capacity_assign(r.layout.dim_order, identity_order(rank));
      return;
    }
    case OpKind::IndexPut:
      // torch clones self keeping its layout (measured: a permuted self keeps its
      // strides); its index and values are judged with the values (judge_index_put.h).
      if (rank == 0) return void(r.error = "index_put: too many indices for a tensor of dimension 0");
      if (dim_index(rank, op.dim) < 0)
        return void(r.error = dim_range_error("index_put", op.dim, -rank, rank - 1));
      return;
    case OpKind::Select:
    case OpKind::SelectCopy: {
      r.error = select_error(in.sizes, op.dim, op.index);
      if (!r.error.empty()) return;
      const int d = dim_index(rank, op.dim);
      r.layout.sizes.erase(r.layout.sizes.begin() + d);
      keep_capacity_assign(r.layout.dim_order, order_without(in.dim_order, {d}));
      return;
    }
    case OpKind::SqueezeCopy: {
      // A 0-dim tensor takes dim 0 or -1 (ExecuTorch's nonzero_dim) and stays 0-dim.
      const int span = std::max(rank, 1);
      std::vector<int> listed, removed;
      for (int64_t dim : op.ints) {
        const int d = dim_index(span, dim);
        if (d < 0) return void(r.error = dim_range_error("squeeze_copy", dim, -span, span - 1));
        if (std::find(listed.begin(), listed.end(), d) != listed.end())
          return void(r.error = printf_string("squeeze_copy: dim %lld appears more than once", d));
        listed.push_back(d);
        if (rank > 0 && in.sizes[d] == 1) removed.push_back(d);
      }
      std::sort(removed.begin(), removed.end());
      for (size_t k = removed.size(); k-- > 0;)
        r.layout.sizes.erase(r.layout.sizes.begin() + removed[k]);
      keep_capacity_assign(r.layout.dim_order, order_without(in.dim_order, removed));
      return;
    }
    case OpKind::UnsqueezeCopy: {
      if (rank + 1 > kMaxCaseRank)
        return void(r.error = printf_string("unsqueeze_copy: the result's rank %lld exceeds 16", rank + 1));
      const int d = dim_index(rank + 1, op.dim);
      if (d < 0) return void(r.error = dim_range_error("unsqueeze_copy", op.dim, -(rank + 1), rank));
      r.layout.sizes.insert(r.layout.sizes.begin() + d, 1);
      std::vector<int> order;
      for (int o : in.dim_order) {
        if (o == d) order.push_back(d);  // the new dim sits just outside the one it precedes
        order.push_back(o >= d ? o + 1 : o);
      }
      if (d == rank) order.push_back(d);
      r.layout.dim_order = order;
      return;
    }
    case OpKind::PermuteCopy: {
      // Every dim once (torch's permute and ExecuTorch's check_permute_copy_args);
      // the result keeps the source's dim order (tensors_have_same_dim_order).
      if (op.ints.size() != static_cast<size_t>(rank))
        return void(r.error = printf_string("permute_copy: %lld dims for a tensor of rank %lld",
                                            static_cast<long long>(op.ints.size()), rank));
      std::vector<bool> listed(rank, false);
      for (size_t j = 0; j < op.ints.size(); ++j) {
        const int d = dim_index(rank, op.ints[j]);
        if (d < 0) return void(r.error = dim_range_error("permute_copy", op.ints[j], -rank, rank - 1));
        if (listed[d]) return void(r.error = printf_string("permute_copy: dim %lld appears more than once", d));
        listed[d] = true;
        r.layout.sizes[j] = in.sizes[d];
      }
      return;
    }
    case OpKind::ViewCopy: {
      auto sizes = view_sizes(numel_of(in.sizes), op.ints, r.error);
      if (!sizes) return;
      r.layout.sizes = *sizes;
      keep_capacity_assign(r.layout.dim_order, identity_order(static_cast<int>(sizes->size())));
      return;
    }
    case OpKind::Add:
    case OpKind::Copy: break;
  }
}

std::optional<StridedView> op_view(const Op& op, const StridedView& src) {
  StridedView v;
  if (!op_view_into(op, src, v)) return std::nullopt;
  return v;
}

bool op_view_into(const Op& op, const StridedView& src, StridedView& v) {
  v.sizes.assign(src.sizes.begin(), src.sizes.end());
  v.strides.assign(src.strides.begin(), src.strides.end());
  v.offset = src.offset;
  const int rank = static_cast<int>(src.sizes.size());
  switch (op.kind) {
    case OpKind::SliceCopy:
    case OpKind::Slice: {
      const SliceSpan span = normalize_slice_args(src.sizes, op.dim, op.start, op.end, op.step);
      v.sizes[span.dim] = span.length;
      // An empty view reads nothing; torch still offsets it, but never past the end.
      if (span.length > 0) v.offset += span.start * src.strides[span.dim];
      // torch multiplies the stride whatever the length (a size-1 dim keeps the
      // factor, and copy_'s overlap check compares it), by the step it is given.
      v.strides[span.dim] *= torch_slice_step(src.sizes[span.dim], span.step);
      return true;
    }
    case OpKind::ExpandCopy: {
      // torch's expand (infer_expand_geometry, from the innermost dim out): stride
      // 0 on a broadcast dim and on a new dim of size != 1; a new size-1 dim takes
      // the next dim's size x stride; a 0-dim source gives every dim stride 0.
      // Size-1 dims' strides count: copy_'s overlap check compares them. Whether
      // et_view can alias it is eligibility's question (torch_oracle.cpp, schema_op).
      std::string why;
      const std::vector<int64_t> sizes = *expand_sizes(src.sizes, op.ints, why);
      const int n = static_cast<int>(sizes.size());
      v.sizes = sizes;
      v.strides.assign(n, 0);
      for (int j = n - 1; rank > 0 && j >= 0; --j) {
        const int i = j - (n - rank);  // >= 0 at j = n - 1 when rank > 0
        const int64_t size = i >= 0 ? src.sizes[i] : 1;
        const int64_t stride = i >= 0 ? src.strides[i] : sizes[j + 1] * v.strides[j + 1];
        v.strides[j] = size == sizes[j] ? stride : 0;
      }
      return true;
    }
    case OpKind::NarrowCopy: {
      // torch's narrow: a slice [start, start + length) with the strides kept.
      const int d = dim_index(rank, op.dim);
      const int64_t start = op.index < 0 ? op.index + std::max<int64_t>(src.sizes[d], 1) : op.index;
      v.sizes[d] = op.length;
      if (op.length > 0) v.offset += start * src.strides[d];
      return true;
    }
    case OpKind::Select:
    case OpKind::SelectCopy: {
      const int d = dim_index(rank, op.dim);
      const int64_t index = op.index < 0 ? op.index + src.sizes[d] : op.index;
      v.offset += index * src.strides[d];
      v.sizes.erase(v.sizes.begin() + d);
      v.strides.erase(v.strides.begin() + d);
      return true;
    }
    case OpKind::SqueezeCopy: {
      // Keep the strides of the dims that stay (the removed ones have size 1).
      v.sizes.clear();
      v.strides.clear();
      std::vector<bool> gone(rank, false);
      const int span = std::max(rank, 1);
      for (int64_t dim : op.ints) {
        const int d = dim_index(span, dim);
        if (rank > 0 && src.sizes[d] == 1) gone[d] = true;
      }
      for (int i = 0; i < rank; ++i)
        if (!gone[i]) v.sizes.push_back(src.sizes[i]), v.strides.push_back(src.strides[i]);
      return true;
    }
    case OpKind::UnsqueezeCopy: {
      const int d = dim_index(rank + 1, op.dim);
      // torch: the new dim's stride is size*stride of the dim it precedes, 1 at the end.
      const int64_t stride = d < rank ? src.sizes[d] * src.strides[d] : 1;
      v.sizes.insert(v.sizes.begin() + d, 1);
      v.strides.insert(v.strides.begin() + d, stride);
      return true;
    }
    case OpKind::PermuteCopy:
      // torch's permute: the offset kept, sizes and strides in the listed order.
      for (size_t j = 0; j < op.ints.size(); ++j) {
        const int d = dim_index(rank, op.ints[j]);
        v.sizes[j] = src.sizes[d];
        v.strides[j] = src.strides[d];
      }
      return true;
    case OpKind::ViewCopy: {
      std::string why;
      keep_capacity_assign(v.sizes, *view_sizes(numel_of(src.sizes), op.ints, why));
      std::optional<std::vector<int64_t>> strides = view_strides(src.sizes, src.strides, v.sizes);
      if (!strides) return false;
      keep_capacity_assign(v.strides, *strides);
      return true;
    }
    case OpKind::Clone:
    case OpKind::AddOut:
    case OpKind::MulOut:
    case OpKind::Relu:
    case OpKind::Sigmoid:
    case OpKind::Gelu:
    case OpKind::AddTensor:
    case OpKind::MulTensor:
    case OpKind::IndexCopy:
    case OpKind::IndexPut:
    case OpKind::Add:
    case OpKind::Copy: break;
  }
  return false;
}

bool op_keeps_element_order(const Op& op, const std::vector<int64_t>& src_sizes) {
  if (op.kind != OpKind::PermuteCopy) return true;
  const int rank = static_cast<int>(src_sizes.size());
  int last = -1;  // the source dims of size > 1, in the order the result lists them
  for (int64_t dim : op.ints) {
    const int d = dim_index(rank, dim);
    if (d < 0 || src_sizes[d] <= 1) continue;
    if (d < last) return false;
    last = d;
  }
  return true;
}

}  // namespace slicefuzz::judge
