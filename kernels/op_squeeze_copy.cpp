#include "kernels/boxing.h"
#include "kernels/kernels.h"
#include "kernels/util/shape_util.h"
#include "kernels/util/strided_copy.h"
#include "kernels/util/view_util.h"

namespace slicefuzz {

Tensor& squeeze_copy_dims_out(KernelRuntimeContext& ctx, const Tensor& in, const int64_t* dims,
                              size_t ndims, Tensor& out) {
  const std::string why = check_squeeze_copy_args(in, dims, ndims, out);
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, out, "%s", why.c_str());

  bool drop[kMaxRank];
  squeeze_drop_mask(in, dims, ndims, drop);
  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(out, squeeze_result(in, drop).sizes), InvalidArgument, out,
                      "squeeze_copy: out cannot be resized to the result");
  if (out.numel() == 0) return out;
  // in's elements seen without the dropped dims, copied by logical index (the dim
  // orders of in and out agree, but in's order may be any).
  const ViewLayout v = squeeze_view(tensor_view(in), drop);
  strided_copy(out.bytes(), out.strides, in.bytes(), v.strides, out.sizes, out.rank,
               in.element_size());
  return out;
}

// stack = [in, dims, out] (the op's schema order).
void squeeze_copy_dims_out_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  boxed_int_list_arg<&squeeze_copy_dims_out>(ctx, stack);
}

}  // namespace slicefuzz
