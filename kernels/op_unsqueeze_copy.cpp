#include "kernels/boxing.h"
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
  boxed_int_arg<&unsqueeze_copy_out>(ctx, stack);
}

}  // namespace slicefuzz
