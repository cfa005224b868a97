#include "kernels/kernels.h"
#include "kernels/util/shape_util.h"
#include "kernels/util/strided_copy.h"

namespace slicefuzz {

Tensor& clone_dim_order_out(KernelRuntimeContext& ctx, const Tensor& in, const int64_t* dim_order,
                            size_t ndim_order, Tensor& out) {
  const std::string why = check_clone_dim_order_args(in, dim_order, ndim_order, out);
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, out, "%s", why.c_str());

  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(out, in.sizes), InvalidArgument, out,
                      "clone: out cannot be resized to in's sizes");
  // Each side walked by its own strides: the copy changes the layout.
  strided_copy(out.bytes(), out.strides, in.bytes(), in.strides, in.sizes, in.rank,
               in.element_size());
  return out;
}

}  // namespace slicefuzz
