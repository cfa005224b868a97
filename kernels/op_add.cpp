#include "kernels/kernels.h"
#include "kernels/util/element_ops.h"

namespace slicefuzz {

Tensor& add_scalar_(KernelRuntimeContext& ctx, Tensor& self, int64_t other) {
  (void)ctx;  // every dtype and every int64 is a valid argument
  // A tensor's elements are dense (strides derived from the dim order), so each
  // element is visited once by walking its bytes in memory order.
  const size_t es = self.element_size();
  uint8_t* p = self.bytes();
  for (int64_t i = 0, n = self.numel(); i < n; ++i) add_scalar_element(self.dtype, p + i * es, other);
  return self;
}

}  // namespace slicefuzz
