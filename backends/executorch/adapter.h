// The adapter between slicefuzz's tensors and ExecuTorch's own types: the
// reusable piece for testing any ExecuTorch kernel. A backend over another
// kernel writes only the call:
//
//   Tensor& my_op(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
//     return et_adapter::call(ctx, out, [&](auto& et_ctx) {
//       EtTensor a(in), o(out, et_adapter::kOut);
//       torch::executor::native::my_op_out(et_ctx, a.get(), o.get());
//       return o.sizes_back(out);
//     });
//   }
//
// EtTensor wraps the same bytes in an ExecuTorch TensorImpl (sizes as int32,
// the dim order, strides from ExecuTorch's own dim_order_to_stride); call() runs
// the kernel with a fresh ExecuTorch context, captures what ExecuTorch logged
// (its context's fail() carries no message) and maps a failure onto slicefuzz's
// context with that reason. Include only from translation units compiled with
// ExecuTorch's include paths (backends/executorch/CMakeLists.txt).
#pragma once
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>

#include <string>

#include "kernels/kernel_runtime_context.h"
#include "kernels/tensor.h"

namespace slicefuzz::et_adapter {

namespace et = executorch::aten;
using EtContext = executorch::runtime::KernelRuntimeContext;

enum Role { kIn, kOut };

// An ExecuTorch tensor over a slicefuzz tensor's bytes. An out tensor is
// DYNAMIC_BOUND, so a kernel may resize it within the bytes it was given.
class EtTensor {
 public:
  EtTensor(const Tensor& t, Role role = kIn);
  EtTensor(const EtTensor&) = delete;
  EtTensor& operator=(const EtTensor&) = delete;
  // False when the tensor cannot be expressed in ExecuTorch (a size past int32).
  bool ok() const { return ok_; }
  et::Tensor& get() { return tensor_; }
  // Copies the kernel's sizes (and, for an alias, its data pointer) back into `t`.
  bool sizes_back(Tensor& t) const;
  bool data_back(Tensor& t) const;

 private:
  bool ok_ = true;
  et::SizesType sizes_[kMaxRank] = {};
  et::DimOrderType dim_order_[kMaxRank] = {};
  et::StridesType strides_[kMaxRank] = {};
  et::TensorImpl impl_;
  et::Tensor tensor_;
};

// ExecuTorch's scalar type for slicefuzz's (the same names and numbering).
et::ScalarType to_et(ScalarType t);

// What ExecuTorch logged since the last call of take_log() (its kernels report
// the reason for a failure only through ET_LOG).
std::string take_log();

// Runs `body(et_ctx)` (which returns false when the results cannot be copied
// back) and maps an ExecuTorch failure onto `ctx`. Returns `result`.
template <typename R, typename Body>
R& call(KernelRuntimeContext& ctx, R& result, Body body) {
  take_log();
  EtContext et_ctx;
  const bool copied = body(et_ctx);
  const std::string log = take_log();
  if (et_ctx.failure_state() != executorch::runtime::Error::Ok)
    ctx.fail(Error::InvalidArgument,
             "ExecuTorch: " + (log.empty() ? std::string("the kernel failed with no log") : log));
  else if (!copied)
    ctx.fail(Error::InvalidArgument, "ExecuTorch's result does not fit the out tensor");
  return result;
}

}  // namespace slicefuzz::et_adapter
