#include "kernels/kernels.h"
#include "kernels/util/shape_util.h"
#include "kernels/util/view_util.h"

namespace slicefuzz {

void et_select(KernelRuntimeContext& ctx, EValue** stack) {
  SF_KERNEL_CHECK_MSG(ctx, stack != nullptr, InvalidArgument, ,
                      "et_select: expected a stack of 4 values");
  for (int i = 0; i < 4; ++i)
    SF_KERNEL_CHECK_MSG(ctx, stack[i] != nullptr, InvalidArgument, ,
                        "et_select: stack value %d is missing", i);
  SF_KERNEL_CHECK_MSG(ctx, stack[0]->is_tensor() && stack[3]->is_tensor(), InvalidArgument, ,
                      "et_select: stack[0] (in) and stack[3] (out) must be tensors");
  SF_KERNEL_CHECK_MSG(ctx, stack[1]->is_int() && stack[2]->is_int(), InvalidArgument, ,
                      "et_select: dim and index must be ints");
  const Tensor& in = *stack[0]->tensor;
  Tensor& out = *stack[3]->tensor;
  const int64_t dim = stack[1]->int_value, index = stack[2]->int_value;

  const std::string why = select_args_error(in, dim, index);
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, , "et_select: %s", why.c_str());
  SF_KERNEL_CHECK_MSG(ctx, in.dtype == out.dtype, InvalidArgument, ,
                      "et_select: out dtype %s differs from in dtype %s",
                      scalar_type_name(out.dtype).data(), scalar_type_name(in.dtype).data());
  SF_KERNEL_CHECK_MSG(ctx, out.rank == in.rank - 1, InvalidArgument, ,
                      "et_select: out has rank %d, the result has rank %d", out.rank, in.rank - 1);

  const SelectArgs a = normalize_select(in, dim, index);
  const ViewLayout v = select_view(tensor_view(in), a.dim, a.index);
  Tensor resized = out;
  resized.dynamism = ShapeDynamism::DYNAMIC_BOUND;  // an alias owns no bytes to bound it
  resized.capacity_nbytes = SIZE_MAX;
  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(resized, v.sizes), InvalidArgument, ,
                      "et_select: out cannot be resized to the result");
  // The runtime guard: out's strides must reach exactly the selected elements.
  SF_KERNEL_CHECK_MSG(ctx, view_is_dense(v, out.dim_order), InvalidArgument, ,
                      "et_select: index %lld of dim %d is not dense in out's dim order; it must "
                      "stay a copy",
                      static_cast<long long>(a.index), a.dim);
  const size_t offset = static_cast<size_t>(alias_offset_elems(v)) * in.element_size();
  SF_KERNEL_CHECK_MSG(ctx, offset + resized.nbytes() <= in.nbytes(), InvalidArgument, ,
                      "et_select: alias [%zu, %zu) leaves the input's %zu bytes", offset,
                      offset + resized.nbytes(), in.nbytes());
  resized.data = in.bytes() + offset;
  resized.capacity_nbytes = resized.nbytes();
  resized.dynamism = out.dynamism;
  out = resized;
}

}  // namespace slicefuzz
