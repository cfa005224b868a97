// Standalone reproducers of the defects slicefuzz found in ExecuTorch's portable
// kernels: ExecuTorch's own types and kernels only, no slicefuzz code in the
// loop. Each prints "REPRODUCES: ..." while the defect is there and "FIXED: ..."
// once upstream fixes it (the undefined-behaviour ones abort under UBSan with
// "runtime error" instead). Expected values are eager PyTorch's (docs/executorch.md
// gives the Python line for each). Build: see backends/executorch/CMakeLists.txt;
// run: et_known_defects NAME.
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>
#include <executorch/runtime/platform/runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

namespace torch::executor::native {
using executorch::aten::Scalar;
using executorch::aten::Tensor;
using executorch::runtime::KernelRuntimeContext;
Tensor& slice_copy_Tensor_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                              std::optional<int64_t> start_val, std::optional<int64_t> end_val,
                              int64_t step, Tensor& out);
Tensor& add_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                       const Scalar& alpha, Tensor& out);
}  // namespace torch::executor::native

namespace {

namespace et = executorch::aten;
using executorch::runtime::KernelRuntimeContext;

// A tensor over caller-owned bytes with ExecuTorch's own strides for its dim order.
struct Owned {
  std::vector<et::SizesType> sizes;
  std::vector<et::DimOrderType> order;
  std::vector<et::StridesType> strides;
  et::TensorImpl impl;
  Owned(et::ScalarType t, std::vector<et::SizesType> s, std::vector<et::DimOrderType> o, void* data,
        executorch::runtime::TensorShapeDynamism dyn =
            executorch::runtime::TensorShapeDynamism::DYNAMIC_BOUND)
      : sizes(s), order(o), strides(s.size()),
        impl(t, s.size(), sizes.data(), data, order.data(), strides.data(), dyn) {
    executorch::runtime::dim_order_to_stride(sizes.data(), order.data(), sizes.size(),
                                             strides.data());
  }
  et::Tensor tensor() { return et::Tensor(&impl); }
};

int verdict(bool reproduces, const char* what) {
  std::printf("%s: %s\n", reproduces ? "REPRODUCES" : "FIXED", what);
  return 0;
}

// slice_copy of a channels-last 4-D tensor along C with step 2: x = [[0.5, 1.5]]
// in NCHW [1, 2, 1, 2] (memory, channels last: 0.5 2.5 1.5 3.5); x[:, ::2] holds
// 0.5 and 1.5. compute_slice (kernels/portable/cpu/util/slice_util.cpp) walks
// leading/trailing dims by index as if the tensor were contiguous.
int channels_last_slice() {
  // Logical (row-major NCHW) values i + 0.5 for i = 0..3, stored channels-last.
  float in_data[4] = {0.5f, 2.5f, 1.5f, 3.5f};
  float out_data[2] = {-1, -1};
  Owned in(et::ScalarType::Float, {1, 2, 1, 2}, {0, 2, 3, 1}, in_data);
  Owned out(et::ScalarType::Float, {1, 1, 1, 2}, {0, 2, 3, 1}, out_data);
  KernelRuntimeContext ctx;
  et::Tensor a = in.tensor(), o = out.tensor();
  torch::executor::native::slice_copy_Tensor_out(ctx, a, 1, std::nullopt, std::nullopt, 2, o);
  // out is [1, 1, 1, 2] channels-last: memory order equals logical order here.
  std::printf("expected [0.5, 1.5] (torch), ExecuTorch gives [%g, %g], error %d\n", out_data[0],
              out_data[1], static_cast<int>(ctx.failure_state()));
  const bool wrong = ctx.failure_state() == executorch::runtime::Error::Ok &&
                     (out_data[0] != 0.5f || out_data[1] != 1.5f);
  return verdict(wrong, "slice_copy returns wrong values for a channels-last input, no error");
}

// slice_copy(x [1], dim 0, step 2^62 - 1): one element, but compute_slice advances
// the source pointer by step * stride once more after the last row (UBSan: pointer
// overflow at slice_util.cpp:268).
int huge_step() {
  float in_data[1] = {0.5f}, out_data[1] = {-1};
  Owned in(et::ScalarType::Float, {1}, {0}, in_data);
  Owned out(et::ScalarType::Float, {1}, {0}, out_data);
  KernelRuntimeContext ctx;
  et::Tensor a = in.tensor(), o = out.tensor();
  torch::executor::native::slice_copy_Tensor_out(ctx, a, 0, std::nullopt, std::nullopt,
                                                 int64_t{4611686018427387903}, o);
  return verdict(false, "no undefined behaviour reported for a huge step");
}

// add_(x, 257) on bfloat16 x = -125: torch rounds the scalar to bfloat16 first
// (257 -> 256) and gives 131; ExecuTorch's add.Scalar_out adds float(257) and
// gives 132. The same for float16 (0.5 + 2049: torch 2048, ExecuTorch 2050).
int reduced_float_add_scalar() {
  uint16_t bf = 0xC2FA;  // -125 in bfloat16
  Owned x(et::ScalarType::BFloat16, {1}, {0}, &bf);
  KernelRuntimeContext ctx;
  et::Tensor t = x.tensor();
  torch::executor::native::add_scalar_out(ctx, t, et::Scalar(int64_t{257}),
                                          et::Scalar(int64_t{1}), t);
  float got;
  const uint32_t bits = static_cast<uint32_t>(bf) << 16;
  std::memcpy(&got, &bits, 4);
  std::printf("bfloat16 -125 + 257: expected 131 (torch), ExecuTorch gives %g\n", got);
  return verdict(ctx.failure_state() == executorch::runtime::Error::Ok && got != 131.0f,
                 "add.Scalar_out on bfloat16 does not round the scalar to the dtype as ATen does");
}

// add_(x, 2) on int64 x = INT64_MAX: signed overflow inside add.Scalar_out
// (UBSan at op_add.cpp:129). torch wraps to INT64_MIN + 1.
int int64_add_overflow() {
  int64_t v = INT64_MAX;
  Owned x(et::ScalarType::Long, {1}, {0}, &v);
  KernelRuntimeContext ctx;
  et::Tensor t = x.tensor();
  torch::executor::native::add_scalar_out(ctx, t, et::Scalar(int64_t{2}), et::Scalar(int64_t{1}), t);
  std::printf("int64 INT64_MAX + 2 = %lld\n", static_cast<long long>(v));
  return verdict(false, "no undefined behaviour reported for an overflowing int64 add");
}

}  // namespace

int main(int argc, char** argv) {
  executorch::runtime::runtime_init();
  const char* name = argc > 1 ? argv[1] : "";
  if (!std::strcmp(name, "channels_last_slice")) return channels_last_slice();
  if (!std::strcmp(name, "huge_step")) return huge_step();
  if (!std::strcmp(name, "reduced_float_add_scalar")) return reduced_float_add_scalar();
  if (!std::strcmp(name, "int64_add_overflow")) return int64_add_overflow();
  std::fprintf(stderr,
               "usage: et_known_defects channels_last_slice|huge_step|"
               "reduced_float_add_scalar|int64_add_overflow\n");
  return 2;
}
