#include "program/op_layout_facts.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "kernels/dim_order.h"
#include "kernels/kernels.h"
#include "kernels/util/checked_math.h"
#include "kernels/util/slice_util.h"

namespace slicefuzz {

namespace {

// The facts of a slice along d over a normalised range: slice_copy's, and
// narrow_copy's (get_narrow_copy_out_target_size is the same fact upstream).
OpLayoutFacts slice_range_facts(const Tensor& src, int d, const SliceRange& r) {
  OpLayoutFacts f;
  f.result = layout_of(src);
  f.result.sizes[d] = r.length;
  f.view = slice_view(tensor_view(src), d, r);
  return f;
}

OpLayoutFacts slice_facts(const Op& op, const Tensor& src) {
  OpLayoutFacts f;
  f.error = slice_args_error(src, op.dim, op.step);
  if (!f.error.empty()) return f;
  const int d = *normalize_dim(op.dim, src.rank);
  return slice_range_facts(src, d, normalize_slice(src.sizes[d], op.start, op.end, op.step));
}

// narrow_copy: its own check, then slice_copy's facts over [start, start + length).
OpLayoutFacts narrow_facts(const Op& op, const Tensor& src) {
  OpLayoutFacts f;
  f.error = narrow_copy_args_error(src, op.dim, op.index, op.length);
  if (!f.error.empty()) return f;
  const int d = *normalize_dim(op.dim, src.rank);
  const int64_t first = narrow_first(src.sizes[d], op.index);
  return slice_range_facts(src, d, normalize_slice(src.sizes[d], first, first + op.length, 1));
}

// expand_copy: a row-major result; as a view, stride 0 on new and broadcast dims.
// A broadcast (more elements than the source) has no alias: et_view, the prim
// op it would become, keeps the element count.
OpLayoutFacts expand_facts(const Op& op, const Tensor& src) {
  OpLayoutFacts f;
  int64_t target[kMaxRank];
  f.error = expand_copy_target_sizes(src, op.ints.data(), op.ints.size(), target);
  if (!f.error.empty()) return f;
  const int rank = static_cast<int>(op.ints.size());
  f.result = view_result(target, rank);
  ViewLayout v;
  v.rank = rank;
  for (int j = 0; j < rank; ++j) v.sizes[j] = target[j];
  expand_view_strides(src, target, rank, v.strides);
  // The sizes passed expand_copy_target_sizes' overflow check: numel() is exact.
  if (v.numel() == src.numel()) f.view = v;
  return f;
}

OpLayoutFacts select_facts(const Op& op, const Tensor& src) {
  OpLayoutFacts f;
  f.error = select_args_error(src, op.dim, op.index);
  if (!f.error.empty()) return f;
  const SelectArgs a = normalize_select(src, op.dim, op.index);
  f.result = select_result(src, a.dim);
  f.view = select_view(tensor_view(src), a.dim, a.index);
  return f;
}

OpLayoutFacts squeeze_facts(const Op& op, const Tensor& src) {
  OpLayoutFacts f;
  f.error = squeeze_args_error(src, op.ints.data(), op.ints.size());
  if (!f.error.empty()) return f;
  bool drop[kMaxRank];
  squeeze_drop_mask(src, op.ints.data(), op.ints.size(), drop);
  f.result = squeeze_result(src, drop);
  f.view = squeeze_view(tensor_view(src), drop);
  return f;
}

OpLayoutFacts unsqueeze_facts(const Op& op, const Tensor& src) {
  OpLayoutFacts f;
  f.error = unsqueeze_args_error(src, op.dim);
  if (!f.error.empty()) return f;
  const int d = normalize_unsqueeze_dim(src, op.dim);
  f.result = unsqueeze_result(src, d);
  f.view = unsqueeze_view(tensor_view(src), d);
  return f;
}

OpLayoutFacts view_facts(const Op& op, const Tensor& src, ReshapeViewFn reshape) {
  OpLayoutFacts f;
  int64_t target[kMaxRank];
  f.error = view_target_sizes(src.numel(), op.ints.data(), op.ints.size(), target);
  if (!f.error.empty()) return f;
  const int rank = static_cast<int>(op.ints.size());
  f.result = view_result(target, rank);
  f.view = reshape(tensor_view(src), target, rank);
  return f;
}

// permute_copy: in's dim order, the sizes and strides permuted.
OpLayoutFacts permute_facts(const Op& op, const Tensor& src) {
  OpLayoutFacts f;
  int perm[kMaxRank];
  f.error = permute_copy_dims(src, op.ints.data(), op.ints.size(), perm);
  if (!f.error.empty()) return f;
  f.result = permute_result(src, perm);
  // et_view, its alias, re-reads in's elements in their order: a permute that
  // moves a dim of size > 1 past another has no alias, dense or not.
  for (int j = 0, last = -1; j < src.rank; ++j) {
    if (src.sizes[perm[j]] <= 1) continue;
    if (perm[j] < last) return f;
    last = perm[j];
  }
  f.view = permute_view(tensor_view(src), perm);
  return f;
}

OpLayoutFacts clone_facts(const Op& op, const Tensor& src) {
  OpLayoutFacts f;
  f.result = layout_of(src);
  if (!op.dim_order) return f;
  bool ok = op.dim_order->size() == static_cast<size_t>(src.rank);
  for (int i = 0; ok && i < src.rank; ++i) {
    ok = (*op.dim_order)[i] >= 0 && (*op.dim_order)[i] < src.rank;
    if (ok) f.result.dim_order[i] = static_cast<uint8_t>((*op.dim_order)[i]);
  }
  if (!ok || !is_valid_dim_order(f.result.dim_order, src.rank))
    f.error = "clone: dim_order must be a permutation of the source's dims";
  return f;
}

bool make_meta(ScalarType dtype, const ResultLayout& l, Tensor& t) {
  return make_tensor_meta(dtype, l.rank, l.sizes, l.dim_order, t);
}

}  // namespace

OpLayoutFacts op_layout_facts(const Op& op, const Tensor& src, ReshapeViewFn reshape) {
  switch (op.kind) {
    case OpKind::SliceCopy: return slice_facts(op, src);
    case OpKind::SelectCopy: return select_facts(op, src);
    case OpKind::SqueezeCopy: return squeeze_facts(op, src);
    case OpKind::UnsqueezeCopy: return unsqueeze_facts(op, src);
    case OpKind::ViewCopy: return view_facts(op, src, reshape);
    case OpKind::NarrowCopy: return narrow_facts(op, src);
    case OpKind::ExpandCopy: return expand_facts(op, src);
    case OpKind::PermuteCopy: return permute_facts(op, src);
    case OpKind::Clone: return clone_facts(op, src);
    case OpKind::Add:
    case OpKind::Copy:
    case OpKind::Slice:
    case OpKind::Select:
    case OpKind::AddOut:
    case OpKind::MulOut:
    case OpKind::Relu:
    case OpKind::Sigmoid:
    case OpKind::Gelu:
    case OpKind::AddTensor:
    case OpKind::MulTensor:
    case OpKind::IndexCopy:
    case OpKind::IndexPut: break;
  }
  OpLayoutFacts f;
  f.result = layout_of(src);
  return f;
}

Tensor value_meta(const ValueInfo& v) {
  Tensor t;
  uint8_t order[kMaxRank] = {};
  const bool fits = v.sizes.size() <= static_cast<size_t>(kMaxRank) && v.dim_order.size() == v.sizes.size();
  for (size_t i = 0; fits && i < v.dim_order.size(); ++i)
    order[i] = static_cast<uint8_t>(v.dim_order[i] >= 0 && v.dim_order[i] < kMaxRank ? v.dim_order[i] : 255);
  if (!v.known || !fits ||
      !make_tensor_meta(v.dtype, static_cast<int>(v.sizes.size()), v.sizes.data(), order, t)) {
    std::fprintf(stderr,
                 "slicefuzz: value '%s' has no valid tensor layout (known %d, rank %zu, dim order "
                 "of %zu entries): the program's metadata is inconsistent\n",
                 v.name.c_str(), v.known, v.sizes.size(), v.dim_order.size());
    std::abort();
  }
  return t;
}

Tensor bound_meta(const std::vector<std::vector<int64_t>>* bounds, int v, const ValueInfo& info) {
  Tensor t = value_meta(info);
  if (!bounds || v < 0 || static_cast<size_t>(v) >= bounds->size()) return t;
  const std::vector<int64_t>& b = (*bounds)[v];
  if (static_cast<int>(b.size()) != t.rank) return t;
  t.dynamism = ShapeDynamism::DYNAMIC_BOUND;
  t.capacity_nbytes = SIZE_MAX;
  if (!resize_tensor(t, b.data())) return value_meta(info);
  return t;
}

Tensor failing_out_meta(const Op& op, const Tensor& src) {
  Tensor base = src;  // the fallback: the source's layout, no bytes yet
  base.data = nullptr;
  base.capacity_nbytes = 0;
  base.dynamism = ShapeDynamism::STATIC;
  Tensor t;
  OpLayoutFacts f = op_layout_facts(op, src);
  ResultLayout l = f.error.empty() ? f.result : layout_of(src);
  if (f.error.empty()) return make_meta(src.dtype, l, t) ? t : base;
  switch (op.kind) {
    case OpKind::SelectCopy:
      // Without the dim (or the last one, when the dim is bad).
      if (src.rank > 0) l = select_result(src, normalize_dim(op.dim, src.rank).value_or(src.rank - 1));
      break;
    case OpKind::SqueezeCopy: {
      bool drop[kMaxRank] = {};
      for (int64_t dim : op.ints)
        if (auto d = normalize_dim(dim, src.rank)) drop[*d] = src.sizes[*d] == 1;
      l = squeeze_result(src, drop);
      break;
    }
    case OpKind::UnsqueezeCopy:
      if (src.rank < kMaxRank) l = unsqueeze_result(src, normalize_dim(op.dim, src.rank + 1).value_or(src.rank));
      break;
    case OpKind::ViewCopy: {
      if (op.ints.size() > static_cast<size_t>(kMaxRank)) break;
      // The sizes as written (negatives as 1), if they stay small; else the source's
      // elements along the first dim.
      int64_t sizes[kMaxRank];
      for (size_t i = 0; i < op.ints.size(); ++i) sizes[i] = op.ints[i] < 0 ? 1 : op.ints[i];
      const int rank = static_cast<int>(op.ints.size());
      auto bytes = checked_numel_bytes(sizes, rank, src.element_size());
      if (!bytes || static_cast<size_t>(*bytes) > src.nbytes() + 4096) {
        for (int i = 0; i < rank; ++i) sizes[i] = i == 0 ? src.numel() : 1;
        if (rank == 0 && src.numel() != 1) break;
      }
      l = view_result(sizes, rank);
      break;
    }
    default: break;
  }
  // Never much bigger than the source: dropping a bad dim of size 0 (a select
  // copy of dim 9 on [511, 65537, ..., 0]) would otherwise ask for gigabytes.
  auto bytes = checked_numel_bytes(l.sizes, l.rank, src.element_size());
  if (!bytes || static_cast<size_t>(*bytes) > src.nbytes() + 4096) return base;
  return make_meta(src.dtype, l, t) ? t : base;
}

}  // namespace slicefuzz
