#include "kernels/kernels.h"
#include "kernels/util/shape_util.h"
#include "kernels/util/strided_copy.h"
#include "kernels/util/view_util.h"

namespace slicefuzz {

Tensor& unsqueeze_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, Tensor& out) {
  const std::string why = check_unsqueeze_copy_args(in, dim, out);
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, out, "%s", why.c_str());

  const int d = normalize_unsqueeze_dim(in, dim);
  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(out, unsqueeze_result(in, d).sizes), InvalidArgument, out,
                      "unsqueeze_copy: out cannot be resized to the result");
  if (out.numel() == 0) return out;
  const ViewLayout v = unsqueeze_view(tensor_view(in), d);
  strided_copy(out.bytes(), out.strides, in.bytes(), v.strides, out.sizes, out.rank,
               in.element_size());
  return out;
}

// stack = [in, dim, out] (the op's schema order).
void unsqueeze_copy_out_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  if (!stack[0]->is_tensor() || !stack[1]->is_int() || !stack[2]->is_tensor())
    return ctx.fail(Error::InvalidArgument, "unsqueeze_copy: stack must be [in, dim, out]");
  unsqueeze_copy_out(ctx, *stack[0]->tensor, stack[1]->int_value, *stack[2]->tensor);
}

}  // namespace slicefuzz
