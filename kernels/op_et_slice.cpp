#include "kernels/kernels.h"
#include "kernels/util/slice_util.h"

namespace slicefuzz {

namespace {
bool as_optional_int(const EValue* v, std::optional<int64_t>& out) {
  if (v == nullptr) return false;
  if (v->is_none()) {
    out = std::nullopt;
    return true;
  }
  if (!v->is_int()) return false;
  out = v->int_value;
  return true;
}
}  // namespace

void et_slice(KernelRuntimeContext& ctx, EValue** stack) {
  SF_KERNEL_CHECK_MSG(ctx, stack != nullptr, InvalidArgument, ,
                      "et_slice: expected a stack of 6 values");
  for (int i = 0; i < 6; ++i)
    SF_KERNEL_CHECK_MSG(ctx, stack[i] != nullptr, InvalidArgument, ,
                        "et_slice: stack value %d is missing", i);
  SF_KERNEL_CHECK_MSG(ctx, stack[0]->is_tensor() && stack[5]->is_tensor(), InvalidArgument, ,
                      "et_slice: stack[0] (in) and stack[5] (out) must be tensors");
  SF_KERNEL_CHECK_MSG(ctx, stack[1]->is_int() && stack[4]->is_int(), InvalidArgument, ,
                      "et_slice: dim and step must be ints");
  std::optional<int64_t> start, end;
  SF_KERNEL_CHECK_MSG(ctx, as_optional_int(stack[2], start) && as_optional_int(stack[3], end),
                      InvalidArgument, , "et_slice: start and end must be ints or None");
  const Tensor& in = *stack[0]->tensor;
  Tensor& out = *stack[5]->tensor;
  const int64_t dim = stack[1]->int_value, step = stack[4]->int_value;

  std::string why = slice_args_error(in, dim, step);
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, , "et_slice: %s", why.c_str());
  SF_KERNEL_CHECK_MSG(ctx, in.dtype == out.dtype, InvalidArgument, ,
                      "et_slice: out dtype %s differs from in dtype %s",
                      scalar_type_name(out.dtype).data(), scalar_type_name(in.dtype).data());
  SF_KERNEL_CHECK_MSG(ctx, same_dim_order(in, out), InvalidArgument, ,
                      "et_slice: out must have in's rank (%d) and dim order", in.rank);

  const int d = *normalize_dim(dim, in.rank);
  const SliceRange r = normalize_slice(in.sizes[d], start, end, step);
  // The runtime guard: an alias of a non-dense slice would read the wrong elements.
  SF_KERNEL_CHECK_MSG(ctx, slice_is_dense(in.sizes, in.dim_order, in.rank, d, r),
                      InvalidArgument, ,
                      "et_slice: slice along dim %d (start %lld, length %lld, step %lld) is not "
                      "dense in the input's dim order; it must stay a slice_copy",
                      d, static_cast<long long>(r.start), static_cast<long long>(r.length),
                      static_cast<long long>(r.step));

  int64_t out_sizes[kMaxRank];
  for (int i = 0; i < in.rank; ++i) out_sizes[i] = i == d ? r.length : in.sizes[i];
  Tensor resized = out;
  resized.dynamism = ShapeDynamism::DYNAMIC_BOUND;  // an alias owns no bytes to bound it
  resized.capacity_nbytes = SIZE_MAX;
  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(resized, out_sizes), InvalidArgument, ,
                      "et_slice: out cannot be resized to the result");
  const size_t offset = static_cast<size_t>(slice_alias_offset_elems(in, d, r)) * in.element_size();
  SF_KERNEL_CHECK_MSG(ctx, offset + resized.nbytes() <= in.nbytes(), InvalidArgument, ,
                      "et_slice: alias [%zu, %zu) leaves the input's %zu bytes", offset,
                      offset + resized.nbytes(), in.nbytes());
  resized.data = in.bytes() + offset;
  resized.capacity_nbytes = resized.nbytes();
  resized.dynamism = out.dynamism;
  out = resized;
}

}  // namespace slicefuzz
