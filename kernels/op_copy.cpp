#include "kernels/kernels.h"
#include "kernels/util/strided_copy.h"

namespace slicefuzz {

Tensor& copy_(KernelRuntimeContext& ctx, Tensor& self, const Tensor& src, bool non_blocking) {
  (void)non_blocking;
  SF_KERNEL_CHECK_MSG(ctx, self.dtype == src.dtype, InvalidArgument, self,
                      "copy_: src dtype %s differs from self dtype %s",
                      scalar_type_name(src.dtype).data(), scalar_type_name(self.dtype).data());
  SF_KERNEL_CHECK_MSG(ctx, same_sizes(self, src), InvalidArgument, self,
                      "copy_: src sizes differ from self sizes (slicefuzz programs do not broadcast)");
  if (self.data == src.data) return self;  // copy_(x, x)
  // Dim orders may differ: strided_copy walks both by their own strides.
  strided_copy(self.bytes(), self.strides, src.bytes(), src.strides, self.sizes, self.rank,
               self.element_size());
  return self;
}

}  // namespace slicefuzz
