#include "kernels/kernels.h"
#include "kernels/util/strided_copy.h"

namespace slicefuzz {

Tensor& clone_out(KernelRuntimeContext& ctx, const Tensor& in,
                  std::optional<MemoryFormat> memory_format, Tensor& out) {
  SF_KERNEL_CHECK_MSG(ctx, !memory_format || *memory_format == MemoryFormat::Preserve,
                      NotSupported, out, "clone: only memory_format=preserve is supported");
  SF_KERNEL_CHECK_MSG(ctx, in.dtype == out.dtype, InvalidArgument, out,
                      "clone: out dtype %s differs from in dtype %s",
                      scalar_type_name(out.dtype).data(), scalar_type_name(in.dtype).data());
  SF_KERNEL_CHECK_MSG(ctx, same_dim_order(in, out), InvalidArgument, out,
                      "clone: out must have in's rank (%d) and dim order", in.rank);
  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(out, in.sizes), InvalidArgument, out,
                      "clone: out cannot be resized to in's sizes");
  strided_copy(out.bytes(), out.strides, in.bytes(), in.strides, in.sizes, in.rank,
               in.element_size());
  return out;
}

}  // namespace slicefuzz
