#include "kernels/boxing.h"
#include "kernels/kernels.h"
#include "kernels/dim_order.h"
#include "kernels/util/shape_util.h"
#include "kernels/util/strided_copy.h"

namespace slicefuzz {

Tensor& view_copy_out(KernelRuntimeContext& ctx, const Tensor& in, const int64_t* sizes,
                      size_t nsizes, Tensor& out) {
  const std::string why = check_view_copy_args(in, sizes, nsizes, out);
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, out, "%s", why.c_str());

  int64_t target[kMaxRank];
  view_target_sizes(in.numel(), sizes, nsizes, target);
  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(out, target), InvalidArgument, out,
                      "view_copy: out cannot be resized to the result");
  if (out.numel() == 0) return out;
  // out is row-major (identity dim order), so its bytes are in's elements in
  // row-major index order: walk in by its own strides, write row-major over in's sizes.
  uint8_t row_major[kMaxRank];
  int64_t in_row_major_strides[kMaxRank];
  identity_dim_order(in.rank, row_major);
  dim_order_to_strides(in.sizes, row_major, in.rank, in_row_major_strides);
  strided_copy(out.bytes(), in_row_major_strides, in.bytes(), in.strides, in.sizes, in.rank,
               in.element_size());
  return out;
}

// stack = [in, sizes, out] (the op's schema order).
void view_copy_out_boxed(KernelRuntimeContext& ctx, EValue** stack) {
  boxed_int_list_arg<&view_copy_out>(ctx, stack);
}

}  // namespace slicefuzz
