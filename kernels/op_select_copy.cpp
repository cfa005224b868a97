#include "kernels/boxing.h"
#include "kernels/kernels.h"
#include "kernels/util/shape_util.h"
#include "kernels/util/strided_copy.h"
#include "kernels/util/view_util.h"

namespace slicefuzz {

Tensor& select_copy_int_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                            int64_t index, Tensor& out) {
  const std::string why = check_select_copy_args(in, dim, index, out);
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, out, "%s", why.c_str());

  const SelectArgs a = normalize_select(in, dim, index);
  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(out, select_result(in, a.dim).sizes), InvalidArgument, out,
                      "select_copy: out cannot be resized to the result");
  if (out.numel() == 0) return out;
  // The selected sub-tensor as a strided view of in, copied by logical index.
  const ViewLayout v = select_view(tensor_view(in), a.dim, a.index);
  strided_copy(out.bytes(), out.strides, in.bytes() + v.offset * in.element_size(), v.strides,
               out.sizes, out.rank, in.element_size());
  return out;
}

// stack = [in, dim, index, out] (the op's schema order).
void select_copy_int_out_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  boxed_two_int_args<&select_copy_int_out>(ctx, stack);
}

}  // namespace slicefuzz
