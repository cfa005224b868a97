// Standalone reproducers of the defects slicefuzz found in ExecuTorch's portable
// kernels: ExecuTorch's own types and kernels only, no slicefuzz code in the
// loop. Each prints "REPRODUCES: ..." while the defect is there and "FIXED: ..."
// once upstream fixes it (the undefined-behaviour ones abort under UBSan with
// "runtime error" instead). Expected values are eager PyTorch's (docs/executorch.md
// gives the Python line for each). Build: see backends/executorch/CMakeLists.txt;
// run: et_known_defects NAME.
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>
#include <executorch/runtime/platform/runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace torch::executor::native {
using executorch::aten::Scalar;
using executorch::aten::Tensor;
using executorch::runtime::KernelRuntimeContext;
Tensor& slice_copy_Tensor_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                              std::optional<int64_t> start_val, std::optional<int64_t> end_val,
                              int64_t step, Tensor& out);
Tensor& add_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                       const Scalar& alpha, Tensor& out);
Tensor& select_copy_int_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                            int64_t index, Tensor& out);
Tensor& unsqueeze_copy_out(KernelRuntimeContext& ctx, const Tensor& self, int64_t dim,
                           Tensor& out);
Tensor& view_copy_out(KernelRuntimeContext& ctx, const Tensor& self,
                      executorch::aten::ArrayRef<int64_t> size_int64_t, Tensor& out);
Tensor& squeeze_copy_dims_out(KernelRuntimeContext& ctx, const Tensor& in,
                              executorch::aten::ArrayRef<int64_t> dims, Tensor& out);
Tensor& copy_(KernelRuntimeContext& ctx, Tensor& in, const Tensor& src, bool non_blocking);
Tensor& narrow_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, int64_t start,
                        int64_t length, Tensor& out);
Tensor& permute_copy_out(KernelRuntimeContext& ctx, const Tensor& in,
                         executorch::aten::ArrayRef<int64_t> dims, Tensor& out);
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
    // A valid dim order by construction; the reproducer checks the kernels, not this.
    (void)executorch::runtime::dim_order_to_stride(sizes.data(), order.data(), sizes.size(),
                                                   strides.data());
  }
  et::Tensor tensor() { return et::Tensor(&impl); }
};

// Runs `body` in a child process (a defect that traps or aborts would end this
// one); true when the child died by a signal or exited non-zero.
template <class Body>
bool dies_in_child(const char* what, Body body) {
  const pid_t child = fork();
  if (child == 0) {
    body();
    std::fflush(stdout);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFSIGNALED(status)) std::printf("%s killed by signal %d\n", what, WTERMSIG(status));
  return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int verdict(bool reproduces, const char* what) {
  std::printf("%s: %s\n", reproduces ? "REPRODUCES" : "FIXED", what);
  return 0;
}

// slice_copy of a channels-last 4-D tensor along C with step 2: x = [[0.5, 1.5]]
// in NCHW [1, 2, 1, 2] (memory, channels last: 0.5 2.5 1.5 3.5); x[:, ::2] holds
// 0.5 and 1.5. compute_slice (kernels/portable/cpu/util/slice_util.cpp) walks
// leading/trailing dims by index as if the tensor were contiguous.
// x [1, 2, 1, 2] with logical (row-major NCHW) values i + 0.5 for i = 0..3,
// stored channels-last; `kernel(ctx, in, out)` takes channel 0 into a
// [1, 1, 1, 2] channels-last out (memory order equals logical order there).
// True when ExecuTorch accepts it and the values are not torch's [0.5, 1.5].
template <class Kernel>
bool channels_last_first_channel_wrong(Kernel kernel) {
  float in_data[4] = {0.5f, 2.5f, 1.5f, 3.5f};
  float out_data[2] = {-1, -1};
  Owned in(et::ScalarType::Float, {1, 2, 1, 2}, {0, 2, 3, 1}, in_data);
  Owned out(et::ScalarType::Float, {1, 1, 1, 2}, {0, 2, 3, 1}, out_data);
  KernelRuntimeContext ctx;
  et::Tensor a = in.tensor(), o = out.tensor();
  kernel(ctx, a, o);
  std::printf("expected [0.5, 1.5] (torch), ExecuTorch gives [%g, %g], error %d\n", out_data[0],
              out_data[1], static_cast<int>(ctx.failure_state()));
  return ctx.failure_state() == executorch::runtime::Error::Ok &&
         (out_data[0] != 0.5f || out_data[1] != 1.5f);
}

int channels_last_slice() {
  const bool wrong = channels_last_first_channel_wrong([](auto& ctx, auto& a, auto& o) {
    torch::executor::native::slice_copy_Tensor_out(ctx, a, 1, std::nullopt, std::nullopt, 2, o);
  });
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


// select_copy of a channels-last 5-D tensor along D: x [1, 2, 2, 1, 1] (N, C, D, H,
// W) holds x[0, c, d] = 2c + d + 0.5, stored channels-last (memory N D H W C:
// 0.5 2.5 1.5 3.5); x[:, :, 1] is [1.5, 3.5] and its out, 4-D channels-last, holds
// them in that order. tensors_have_same_dim_order accepts "both channels-last",
// then select_copy_util (kernels/portable/cpu/util/select_copy_util.cpp:57-80)
// copies getLeadingDims/getTrailingDims blocks by dim index, as if row-major.
int channels_last_select() {
  float in_data[4] = {0.5f, 2.5f, 1.5f, 3.5f};
  float out_data[2] = {-1, -1};
  Owned in(et::ScalarType::Float, {1, 2, 2, 1, 1}, {0, 2, 3, 4, 1}, in_data);
  Owned out(et::ScalarType::Float, {1, 2, 1, 1}, {0, 2, 3, 1}, out_data);
  KernelRuntimeContext ctx;
  et::Tensor a = in.tensor(), o = out.tensor();
  torch::executor::native::select_copy_int_out(ctx, a, 2, 1, o);
  std::printf("expected [1.5, 3.5] (torch), ExecuTorch gives [%g, %g], error %d\n", out_data[0],
              out_data[1], static_cast<int>(ctx.failure_state()));
  const bool wrong = ctx.failure_state() == executorch::runtime::Error::Ok &&
                     (out_data[0] != 1.5f || out_data[1] != 3.5f);
  return verdict(wrong, "select_copy returns wrong values for a channels-last 5-D input, no error");
}

// unsqueeze_copy(x, 0) of a channels-last x [1, 2, 1, 2] (x[0, c, 0, w] = 2c + w +
// 0.5; memory N H W C: 0.5 2.5 1.5 3.5) into a contiguous out [1, 1, 2, 1, 2] (the
// layout PyTorch 2's unsqueeze_copy returns: clone(memory_format=contiguous)).
// op_unsqueeze_copy.cpp:67 memcpys in's bytes whatever out's dim order is; it has
// none of the dim-order checks squeeze_copy and view_copy make.
int channels_last_unsqueeze() {
  float in_data[4] = {0.5f, 2.5f, 1.5f, 3.5f};
  float out_data[4] = {-1, -1, -1, -1};
  Owned in(et::ScalarType::Float, {1, 2, 1, 2}, {0, 2, 3, 1}, in_data);
  Owned out(et::ScalarType::Float, {1, 1, 2, 1, 2}, {0, 1, 2, 3, 4}, out_data);
  KernelRuntimeContext ctx;
  et::Tensor a = in.tensor(), o = out.tensor();
  torch::executor::native::unsqueeze_copy_out(ctx, a, 0, o);
  std::printf("expected [0.5, 1.5, 2.5, 3.5] (torch), ExecuTorch gives [%g, %g, %g, %g], error %d\n",
              out_data[0], out_data[1], out_data[2], out_data[3],
              static_cast<int>(ctx.failure_state()));
  const float want[4] = {0.5f, 1.5f, 2.5f, 3.5f};
  const bool wrong = ctx.failure_state() == executorch::runtime::Error::Ok &&
                     std::memcmp(out_data, want, sizeof want) != 0;
  return verdict(wrong,
                 "unsqueeze_copy copies a channels-last input into a contiguous out unpermuted, "
                 "no error");
}

// view_copy(x [2, 3], [0, -1]): get_view_copy_target_size
// (kernels/portable/cpu/util/copy_ops_util.cpp:920) divides numel by the product
// of the other sizes, 0, before any check (UBSan: division by zero; then SIGFPE).
// torch refuses: "cannot reshape tensor of 6 elements into shape [0, -1]".
int view_copy_zero_and_inferred() {
  // In a child process: the division traps (SIGFPE, or the sanitizer's report of it).
  const bool crashed = dies_in_child("view_copy", [] {
    float in_data[6] = {0, 1, 2, 3, 4, 5}, out_data[6] = {};
    Owned in(et::ScalarType::Float, {2, 3}, {0, 1}, in_data);
    Owned out(et::ScalarType::Float, {2, 3}, {0, 1}, out_data);
    KernelRuntimeContext ctx;
    et::Tensor a = in.tensor(), o = out.tensor();
    const int64_t sizes[2] = {0, -1};
    torch::executor::native::view_copy_out(ctx, a, {sizes, 2}, o);
    std::printf("view_copy returned, error %d\n", static_cast<int>(ctx.failure_state()));
  });
  return verdict(crashed, "view_copy sizes [0, -1] divide by zero (crash) instead of an error");
}

// view_copy of an empty x [0] to [0, 65536, 32768]: ExecuTorch resizes out and
// derives its int32 strides with dim_order_to_stride_nocheck
// (runtime/core/exec_aten/util/dim_order_util.h:147), 65536 * 32768 overflows
// (UB; in practice stride[0] wraps to INT32_MIN). torch's strides are int64:
// (2147483648, 32768, 1). The program loader (tensor_parser_portable.cpp:144)
// runs the same code for such a tensor in a .pte.
int empty_tensor_stride_overflow() {
  float in_data[1] = {0}, out_data[1] = {0};
  Owned in(et::ScalarType::Float, {0}, {0}, in_data);
  Owned out(et::ScalarType::Float, {0, 1, 1}, {0, 1, 2}, out_data);
  KernelRuntimeContext ctx;
  et::Tensor a = in.tensor(), o = out.tensor();
  const int64_t sizes[3] = {0, 65536, 32768};
  torch::executor::native::view_copy_out(ctx, a, {sizes, 3}, o);
  const long long stride0 = o.strides()[0];
  std::printf("view_copy to [0, 65536, 32768]: error %d, stride[0] %lld (torch: 2147483648)\n",
              static_cast<int>(ctx.failure_state()), stride0);
  return verdict(ctx.failure_state() == executorch::runtime::Error::Ok && stride0 != 2147483648LL,
                 "an empty tensor's int32 stride overflows (dim_order_to_stride)");
}

// squeeze_copy.dims with a dim in [-2r, -r-1]: check_squeeze_copy_dims_args
// (kernels/portable/cpu/util/copy_ops_util.cpp:522-523) adds the rank to a
// negative dim and then hands the result to tensor_has_dim, which takes a
// negative dim as counted from the end again: -7 on rank 4 becomes -3 and passes.
// On rank >= 1, get_squeeze_copy_dims_out_target_size (copy_ops_util.cpp:555-556)
// then calls in.size(-3): ET_CHECK, the process aborts. On rank 0 (dims [0, -2])
// nothing else looks at the dim: the op succeeds. torch: "Dimension out of range".
int squeeze_dims_out_of_range() {
  bool rank0_accepted = false;
  {
    float in_data[1] = {0.5f}, out_data[1] = {-1};
    Owned in(et::ScalarType::Float, {}, {}, in_data);
    Owned out(et::ScalarType::Float, {}, {}, out_data);
    KernelRuntimeContext ctx;
    et::Tensor a = in.tensor(), o = out.tensor();
    const int64_t dims[2] = {0, -2};
    torch::executor::native::squeeze_copy_dims_out(ctx, a, {dims, 2}, o);
    rank0_accepted = ctx.failure_state() == executorch::runtime::Error::Ok;
    std::printf("rank 0, dims [0, -2]: error %d (torch: Dimension out of range)\n",
                static_cast<int>(ctx.failure_state()));
  }
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    float in_data[1] = {0.5f}, out_data[1] = {-1};
    Owned in(et::ScalarType::Float, {1, 1, 1, 1}, {0, 1, 2, 3}, in_data);
    Owned out(et::ScalarType::Float, {1, 1, 1}, {0, 1, 2}, out_data);
    KernelRuntimeContext ctx;
    et::Tensor a = in.tensor(), o = out.tensor();
    const int64_t dims[2] = {3, -7};
    torch::executor::native::squeeze_copy_dims_out(ctx, a, {dims, 2}, o);
    std::printf("rank 4, dims [3, -7]: returned, error %d\n", static_cast<int>(ctx.failure_state()));
    std::fflush(stdout);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  const bool aborted = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  if (aborted) std::printf("rank 4, dims [3, -7]: the process died (%s)\n",
                           WIFSIGNALED(status) ? "signal" : "exit status");
  return verdict(rank0_accepted || aborted,
                 "squeeze_copy.dims takes a dim in [-2r, -r-1] as valid (accepted on rank 0, "
                 "abort on rank >= 1)");
}

// copy_ of float64 [256.25, -1.5] into uint8: ExecuTorch's copy_ (op_copy.cpp)
// converts each element with a plain static_cast (load_and_convert,
// kernels/portable/cpu/util/dtype_util.h:21): a float outside uint8's range is
// undefined behaviour (UBSan: "outside the range of representable values"); in
// practice x86 wraps and ARM saturates (-1.5 gives 0). PyTorch defines it:
// c10's static_cast_with_inter_type<uint8_t> (c10/util/TypeCast.h) converts
// through int64, so torch gives [0, 255] on every platform.
int copy_cast_out_of_range() {
  double in_data[2] = {256.25, -1.5};
  uint8_t self_data[2] = {7, 7};
  Owned src(et::ScalarType::Double, {2}, {0}, in_data);
  Owned self(et::ScalarType::Byte, {2}, {0}, self_data);
  KernelRuntimeContext ctx;
  et::Tensor s = src.tensor(), o = self.tensor();
  torch::executor::native::copy_(ctx, o, s, false);
  std::printf("copy_ float64 [256.25, -1.5] into uint8: error %d, [%d, %d] (torch: [0, 255])\n",
              static_cast<int>(ctx.failure_state()), self_data[0], self_data[1]);
  // x86 happens to wrap like torch, so the values cannot tell: the defect is the
  // undefined conversion itself, which UBSan (float-cast-overflow) reports above.
  std::printf("UNDEFINED: copy_ converts an out-of-range float to uint8 with a plain "
              "static_cast (the runtime error above, under UBSan)%s\n",
              self_data[0] != 0 || self_data[1] != 255 ? "; values differ from torch's here" : "");
  return 0;
}

}  // namespace

// narrow_copy of a channels-last 4-D tensor along C: x [1, 2, 1, 2] holds
// x[0, c, 0, w] = 2c + w + 0.5 stored channels-last (memory 0.5 2.5 1.5 3.5);
// x.narrow(1, 0, 1) is [0.5, 1.5]. narrow_copy_out checks no dim order at all and
// compute_slice (kernels/portable/cpu/util/slice_util.cpp) walks the tensor as if
// it were contiguous, as for slice_copy (channels_last_slice).
int channels_last_narrow() {
  const bool wrong = channels_last_first_channel_wrong([](auto& ctx, auto& a, auto& o) {
    torch::executor::native::narrow_copy_out(ctx, a, 1, 0, 1, o);
  });
  return verdict(wrong, "narrow_copy returns wrong values for a channels-last input, no error");
}

// narrow_copy(x [5], dim 0, start -3, length 2): aten gives x[2:4] (a negative
// start counts from the end). check_narrow_copy_args (kernels/portable/cpu/util/
// slice_util.cpp:33-35) normalises its own copy of start; narrow_copy_out
// (kernels/portable/cpu/op_narrow_copy.cpp:49) passes the negative start on to
// compute_slice, which refuses it ("Input args should be >= 0").
int narrow_negative_start() {
  float in_data[5] = {0, 1, 2, 3, 4}, out_data[2] = {-1, -1};
  Owned in(et::ScalarType::Float, {5}, {0}, in_data);
  Owned out(et::ScalarType::Float, {2}, {0}, out_data);
  KernelRuntimeContext ctx;
  et::Tensor a = in.tensor(), o = out.tensor();
  torch::executor::native::narrow_copy_out(ctx, a, 0, -3, 2, o);
  std::printf("expected [2, 3] (torch), ExecuTorch gives error %d, out [%g, %g]\n",
              static_cast<int>(ctx.failure_state()), out_data[0], out_data[1]);
  return verdict(ctx.failure_state() != executorch::runtime::Error::Ok,
                 "narrow_copy refuses a valid negative start");
}

// narrow_copy(x [0], dim 0, start -1, length 0): aten wraps a negative start as
// it wraps a dim (maybe_wrap_dim: a dim of size 0 takes -1 as 0) and returns an
// empty tensor; check_narrow_copy_args (slice_util.cpp:31) asks start >= -size.
int narrow_empty_dim_start_minus_one() {
  float in_data[1] = {0}, out_data[1] = {-1};
  Owned in(et::ScalarType::Float, {0}, {0}, in_data);
  Owned out(et::ScalarType::Float, {0}, {0}, out_data);
  KernelRuntimeContext ctx;
  et::Tensor a = in.tensor(), o = out.tensor();
  torch::executor::native::narrow_copy_out(ctx, a, 0, -1, 0, o);
  std::printf("expected an empty result (torch), ExecuTorch gives error %d\n",
              static_cast<int>(ctx.failure_state()));
  return verdict(ctx.failure_state() != executorch::runtime::Error::Ok,
                 "narrow_copy refuses start -1 on a dim of size 0");
}

// narrow_copy(x [2, 3], dim -1, start 0, length 3): tensor_has_dim accepts dim -1,
// then check_narrow_copy_args (slice_util.cpp:31) calls in.size(-1), which
// ET_CHECKs its index and aborts the process (torch: the whole tensor).
int narrow_negative_dim_abort() {
  const bool crashed = dies_in_child("narrow_copy", [] {
    float in_data[6] = {0, 1, 2, 3, 4, 5}, out_data[6] = {};
    Owned in(et::ScalarType::Float, {2, 3}, {0, 1}, in_data);
    Owned out(et::ScalarType::Float, {2, 3}, {0, 1}, out_data);
    KernelRuntimeContext ctx;
    et::Tensor a = in.tensor(), o = out.tensor();
    torch::executor::native::narrow_copy_out(ctx, a, -1, 0, 3, o);
    std::printf("narrow_copy returned, error %d\n", static_cast<int>(ctx.failure_state()));
  });
  return verdict(crashed, "narrow_copy with a negative dim aborts the process");
}

// narrow_copy(x [4], dim 0, start 1, length INT64_MAX): start + length
// (slice_util.cpp:36) overflows int64 (UB; UBSan reports it), wraps negative and
// passes the bound check; torch compares start <= size - length and raises.
int narrow_huge_length() {
  float in_data[4] = {0, 1, 2, 3}, out_data[4] = {};
  Owned in(et::ScalarType::Float, {4}, {0}, in_data);
  Owned out(et::ScalarType::Float, {4}, {0}, out_data);
  KernelRuntimeContext ctx;
  et::Tensor a = in.tensor(), o = out.tensor();
  torch::executor::native::narrow_copy_out(ctx, a, 0, 1, INT64_MAX, o);
  std::printf("narrow_copy returned error %d\n", static_cast<int>(ctx.failure_state()));
  return verdict(false, "no undefined behaviour reported for start + length past int64");
}

// pytorch/executorch issue 20546: Method::set_input resizes a DYNAMIC_BOUND
// input with resize_tensor (runtime/executor/method.cpp), and TensorImpl's
// internal_resize_contiguous (runtime/core/portable_type/tensor_impl.cpp:156-158)
// checks only the new element count against the bound's, not each dim, though
// program.fbs states the per-dim rule: [2, 8] into an input planned at [4, 4].
int resize_checks_numel_only() {
  float data[16] = {};
  Owned in(et::ScalarType::Float, {4, 4}, {0, 1}, data);
  const et::SizesType actual[2] = {2, 8};
  const executorch::runtime::Error e = executorch::runtime::resize_tensor(in.tensor(), {actual, 2});
  std::printf("resize_tensor [4, 4] (DYNAMIC_BOUND) to [2, 8]: error %d, sizes now [%d, %d]\n",
              static_cast<int>(e), static_cast<int>(in.tensor().size(0)), static_cast<int>(in.tensor().size(1)));
  return verdict(e == executorch::runtime::Error::Ok,
                 "a dynamic input resized past its bound in one dim (numel checked only; issue 20546)");
}

// permute_copy of a channels-last 4-D tensor: x [1, 1, 2, 2] holds x[0, 0, h, w] =
// 2h + w + 0.5 (channels-last memory, C = 1: 0.5 1.5 2.5 3.5); x.permute(0, 2, 1,
// 3) is [1, 2, 1, 2], channels-last like its input (tensors_have_same_dim_order),
// so its memory (N H W C) is p[0, c, 0, w] at 2w + c: 0.5 2.5 1.5 3.5.
// permute_copy_out (kernels/portable/cpu/op_permute_copy.cpp) reads in through
// memoizeTrailingDims, row-major strides from the sizes, and writes out in linear
// order, as if both were contiguous (pytorch/executorch PR 21828, open, names it).
int channels_last_permute() {
  float in_data[4] = {0.5f, 1.5f, 2.5f, 3.5f};
  float out_data[4] = {-1, -1, -1, -1};
  Owned in(et::ScalarType::Float, {1, 1, 2, 2}, {0, 2, 3, 1}, in_data);
  Owned out(et::ScalarType::Float, {1, 2, 1, 2}, {0, 2, 3, 1}, out_data);
  KernelRuntimeContext ctx;
  et::Tensor a = in.tensor(), o = out.tensor();
  const int64_t dims[4] = {0, 2, 1, 3};
  torch::executor::native::permute_copy_out(ctx, a, executorch::aten::ArrayRef<int64_t>(dims, 4), o);
  std::printf("expected memory [0.5, 2.5, 1.5, 3.5] (torch: p[0, 1, 0, 0] = 2.5), ExecuTorch gives "
              "[%g, %g, %g, %g], error %d\n", out_data[0], out_data[1], out_data[2], out_data[3],
              static_cast<int>(ctx.failure_state()));
  return verdict(ctx.failure_state() == executorch::runtime::Error::Ok && out_data[1] != 2.5f,
                 "permute_copy returns wrong values for a channels-last input, no error");
}

int main(int argc, char** argv) {
  executorch::runtime::runtime_init();
  const char* name = argc > 1 ? argv[1] : "";
  if (!std::strcmp(name, "channels_last_slice")) return channels_last_slice();
  if (!std::strcmp(name, "huge_step")) return huge_step();
  if (!std::strcmp(name, "reduced_float_add_scalar")) return reduced_float_add_scalar();
  if (!std::strcmp(name, "int64_add_overflow")) return int64_add_overflow();
  if (!std::strcmp(name, "channels_last_select")) return channels_last_select();
  if (!std::strcmp(name, "channels_last_unsqueeze")) return channels_last_unsqueeze();
  if (!std::strcmp(name, "view_copy_zero_and_inferred")) return view_copy_zero_and_inferred();
  if (!std::strcmp(name, "empty_tensor_stride_overflow")) return empty_tensor_stride_overflow();
  if (!std::strcmp(name, "squeeze_dims_out_of_range")) return squeeze_dims_out_of_range();
  if (!std::strcmp(name, "copy_cast_out_of_range")) return copy_cast_out_of_range();
  if (!std::strcmp(name, "narrow_negative_start")) return narrow_negative_start();
  if (!std::strcmp(name, "channels_last_narrow")) return channels_last_narrow();
  if (!std::strcmp(name, "narrow_empty_dim_start_minus_one")) return narrow_empty_dim_start_minus_one();
  if (!std::strcmp(name, "narrow_negative_dim_abort")) return narrow_negative_dim_abort();
  if (!std::strcmp(name, "narrow_huge_length")) return narrow_huge_length();
  if (!std::strcmp(name, "resize_checks_numel_only")) return resize_checks_numel_only();
  if (!std::strcmp(name, "channels_last_permute")) return channels_last_permute();
  std::fprintf(stderr,
               "usage: et_known_defects channels_last_slice|huge_step|"
               "reduced_float_add_scalar|int64_add_overflow|channels_last_select|"
               "channels_last_unsqueeze|view_copy_zero_and_inferred|"
               "empty_tensor_stride_overflow|squeeze_dims_out_of_range|copy_cast_out_of_range|"
               "channels_last_permute\n");
  return 2;
}
