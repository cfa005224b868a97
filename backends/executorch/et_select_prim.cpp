#include "backends/executorch/et_select_prim.h"

#include <executorch/kernels/portable/cpu/util/copy_ops_util.h>
#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>

namespace slicefuzz::et_prim {

using executorch::aten::SizesType;
using executorch::aten::StridesType;
using executorch::aten::Tensor;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::KernelRuntimeContext;
using executorch::runtime::Span;
using executorch::runtime::kTensorDimensionLimit;

namespace {

// Dense in out's dim order: every result dim of size > 1 has, in self, the
// stride a fresh tensor of the result sizes has in out's dim order (the view's
// strides are self's without dim). An empty result is trivially dense.
bool select_is_dense_in_dim_order(const Tensor& self, int64_t dim, const SizesType* sizes,
                                  size_t ndim, const Tensor& out) {
  StridesType canonical[kTensorDimensionLimit];
  if (ndim > 0 && executorch::runtime::dim_order_to_stride(sizes, out.dim_order().data(), ndim,
                                                           canonical) != Error::Ok)
    return false;
  for (size_t j = 0; j < ndim; ++j)
    if (sizes[j] == 0) return true;
  for (size_t j = 0; j < ndim; ++j) {
    const size_t in_dim = static_cast<int64_t>(j) < dim ? j : j + 1;
    if (sizes[j] > 1 && self.strides()[in_dim] != canonical[j]) return false;
  }
  return true;
}

}  // namespace

void et_select(KernelRuntimeContext& context, Span<EValue*> stack) {
  ET_KERNEL_CHECK_MSG(context, stack.size() == 4, InvalidProgram, /* void */,
                      "Expected %zu args, got %zu", (size_t)4, stack.size());
  const Tensor self = stack[0]->toTensor();
  int64_t dim = stack[1]->toInt();
  int64_t index = stack[2]->toInt();
  Tensor out = stack[3]->toTensor();

  ET_KERNEL_CHECK(context, torch::executor::check_select_copy_out_args(self, dim, index, out),
                  InvalidArgument, );
  if (dim < 0) dim += self.dim();
  if (index < 0) index += self.size(dim);

  SizesType target_sizes[kTensorDimensionLimit];
  size_t target_ndim = 0;
  torch::executor::get_select_copy_out_target_size(self, dim, target_sizes, &target_ndim);
  ET_KERNEL_CHECK_MSG(context, static_cast<ssize_t>(target_ndim) == out.dim(), InvalidArgument, ,
                      "out has rank %zd, the selection %zu", static_cast<ssize_t>(out.dim()),
                      target_ndim);
  ET_KERNEL_CHECK_MSG(context,
                      select_is_dense_in_dim_order(self, dim, target_sizes, target_ndim, out),
                      InvalidArgument, ,
                      "select of dim %" PRId64 " is not dense in out's dim order", dim);
  ET_KERNEL_CHECK_MSG(context,
                      torch::executor::resize_tensor(out, {target_sizes, target_ndim}) == Error::Ok,
                      Internal, , "Failed to resize output tensor.");

  // An empty selection aliases nothing: it points at self's start, inside its bytes.
  const size_t offset = out.numel() == 0
                            ? 0
                            : static_cast<size_t>(index) * self.strides()[dim] * self.element_size();
  ET_KERNEL_CHECK_MSG(
      context,
      torch::executor::internal::set_tensor_data(
          out, static_cast<char*>(self.mutable_data_ptr()) + offset, out.nbytes()) == Error::Ok,
      Internal, , "Failed to set data_ptr for out to self.");
}

}  // namespace slicefuzz::et_prim
