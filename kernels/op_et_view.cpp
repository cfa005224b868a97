#include "kernels/kernels.h"
#include "kernels/util/shape_util.h"
#include "kernels/util/view_util.h"

namespace slicefuzz {

// Mirrors ExecuTorch's kernels/prim_ops/et_view.cpp (sizes from the list, -1
// inferred, out resized, out's data set to in's), plus a guard ExecuTorch's lacks:
// out's strides must reach in's elements in the same logical order.
void et_view(KernelRuntimeContext& ctx, EValue** stack) {
  SF_KERNEL_CHECK_MSG(ctx, stack != nullptr, InvalidArgument, ,
                      "et_view: expected a stack of 3 values");
  for (int i = 0; i < 3; ++i)
    SF_KERNEL_CHECK_MSG(ctx, stack[i] != nullptr, InvalidArgument, ,
                        "et_view: stack value %d is missing", i);
  SF_KERNEL_CHECK_MSG(ctx, stack[0]->is_tensor() && stack[2]->is_tensor(), InvalidArgument, ,
                      "et_view: stack[0] (in) and stack[2] (out) must be tensors");
  SF_KERNEL_CHECK_MSG(ctx, stack[1]->is_int_list(), InvalidArgument, ,
                      "et_view: stack[1] (sizes) must be an int list");
  const Tensor& in = *stack[0]->tensor;
  Tensor& out = *stack[2]->tensor;
  const int64_t* sizes = stack[1]->list;
  const size_t nsizes = stack[1]->list_size;

  SF_KERNEL_CHECK_MSG(ctx, in.dtype == out.dtype, InvalidArgument, ,
                      "et_view: out dtype %s differs from in dtype %s",
                      scalar_type_name(out.dtype).data(), scalar_type_name(in.dtype).data());
  SF_KERNEL_CHECK_MSG(ctx, nsizes == static_cast<size_t>(out.rank), InvalidArgument, ,
                      "et_view: %zu sizes for an out of rank %d", nsizes, out.rank);
  int64_t target[kMaxRank];
  const std::string why = view_target_sizes(in.numel(), sizes, nsizes, target);
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, , "et_view: %s", why.c_str());

  Tensor resized = out;
  resized.dynamism = ShapeDynamism::DYNAMIC_BOUND;  // an alias owns no bytes to bound it
  resized.capacity_nbytes = SIZE_MAX;
  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(resized, target), InvalidArgument, ,
                      "et_view: out cannot be resized to the result");
  SF_KERNEL_CHECK_MSG(ctx, resized.numel() == in.numel(), InvalidArgument, ,
                      "et_view: in has %lld elements, out %lld", static_cast<long long>(in.numel()),
                      static_cast<long long>(resized.numel()));
  // The runtime guard: in's bytes read through out's strides must be in's elements
  // in the same order (a view of a non-dense input would read the wrong ones).
  SF_KERNEL_CHECK_MSG(ctx, same_element_order(tensor_view(in), tensor_view(resized)),
                      InvalidArgument, ,
                      "et_view: out's dim order does not reach in's elements in their logical "
                      "order (in is not dense in out's layout); it must stay a copy");
  resized.data = in.data;
  resized.capacity_nbytes = resized.nbytes();
  resized.dynamism = out.dynamism;
  out = resized;
}

}  // namespace slicefuzz
