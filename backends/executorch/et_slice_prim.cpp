#include "backends/executorch/et_slice_prim.h"

#include <executorch/kernels/portable/cpu/util/slice_util.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>

namespace slicefuzz::et_prim {

using executorch::aten::SizesType;
using executorch::aten::Tensor;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::KernelRuntimeContext;
using executorch::runtime::Span;

namespace {

// Dense in the dim order: the slice's elements form one block laid out like a
// fresh tensor of the result sizes. For a non-empty result: (step == 1 or one
// element) and (the whole dim, or every dim before it in the dim order has
// size 1). An empty result is trivially dense.
bool slice_is_dense_in_dim_order(const Tensor& in, int64_t dim, int64_t length, int64_t step) {
  if (length == 0 || in.numel() == 0) return true;
  if (step != 1 && length != 1) return false;
  if (length == in.size(dim)) return true;
  for (size_t i = 0; i < static_cast<size_t>(in.dim()) && in.dim_order()[i] != dim; ++i)
    if (in.size(in.dim_order()[i]) != 1) return false;
  return true;
}

}  // namespace

void et_slice(KernelRuntimeContext& context, Span<EValue*> stack) {
  ET_KERNEL_CHECK_MSG(context, stack.size() == 6, InvalidProgram, /* void */,
                      "Expected %zu args, got %zu", (size_t)6, stack.size());
  const Tensor self = stack[0]->toTensor();
  int64_t dim = stack[1]->toInt();
  const bool has_start = !stack[2]->isNone(), has_end = !stack[3]->isNone();
  const int64_t step = stack[4]->toInt();
  Tensor out = stack[5]->toTensor();

  ET_KERNEL_CHECK(context, torch::executor::check_slice_copy_args(self, dim, step, out),
                  InvalidArgument, );
  if (dim < 0) dim += self.dim();
  ET_KERNEL_CHECK(context, torch::executor::tensors_have_same_dim_order(self, out),
                  InvalidArgument, );

  int64_t start = has_start ? stack[2]->toInt() : 0;
  int64_t end = has_end ? stack[3]->toInt() : self.size(dim);
  const int64_t length = torch::executor::adjust_slice_indices(self.size(dim), &start, &end, step);

  ET_KERNEL_CHECK_MSG(context, slice_is_dense_in_dim_order(self, dim, length, step),
                      InvalidArgument, , "slice of dim %" PRId64 " is not dense in the dim order",
                      dim);

  SizesType target_sizes[executorch::runtime::kTensorDimensionLimit];
  size_t target_ndim = 0;
  torch::executor::get_slice_copy_out_target_size(self, dim, length, target_sizes, &target_ndim);
  ET_KERNEL_CHECK_MSG(context,
                      torch::executor::resize_tensor(out, {target_sizes, target_ndim}) == Error::Ok,
                      Internal, , "Failed to resize output tensor.");

  // An empty slice aliases nothing: it points at self's start, inside its bytes.
  const size_t offset = out.numel() == 0
                            ? 0
                            : static_cast<size_t>(start) * self.strides()[dim] * self.element_size();
  ET_KERNEL_CHECK_MSG(
      context,
      torch::executor::internal::set_tensor_data(
          out, static_cast<char*>(self.mutable_data_ptr()) + offset, out.nbytes()) == Error::Ok,
      Internal, , "Failed to set data_ptr for out to self.");
}

}  // namespace slicefuzz::et_prim
