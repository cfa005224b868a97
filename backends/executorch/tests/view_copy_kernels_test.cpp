// The executorch-portable backend's view-copy calls and alias prim ops, called
// directly on slicefuzz tensors: each reaches the real ExecuTorch kernel, passes
// its result (values, sizes, or an alias's pointer) back, and maps an ExecuTorch
// refusal to a failed context with ExecuTorch's logged reason.
#include "backends/executorch/view_copy_kernels.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace slicefuzz {
namespace {

// A float tensor over an owned buffer; values are the row-major index + 0.5.
struct Owned {
  std::vector<float> bytes;
  Tensor t;
  Owned(std::vector<int64_t> sizes, std::vector<uint8_t> order = {}, bool fill = true) {
    if (order.empty())
      for (size_t i = 0; i < sizes.size(); ++i) order.push_back(static_cast<uint8_t>(i));
    EXPECT_TRUE(make_tensor_meta(ScalarType::Float, static_cast<int>(sizes.size()), sizes.data(),
                                 order.data(), t));
    bytes.assign(std::max<int64_t>(t.numel(), 1), -1.f);
    t.data = bytes.data();
    t.capacity_nbytes = t.nbytes();
    if (!fill) return;
    std::vector<int64_t> idx(sizes.size());
    for (int64_t k = 0; k < t.numel(); ++k) {
      int64_t rest = k, off = 0;
      for (int d = t.rank; d-- > 0;) {
        off += (rest % sizes[d]) * t.strides[d];
        rest /= sizes[d];
      }
      bytes[off] = k + 0.5f;
    }
  }
  // Logical element at a row-major index.
  float at(int64_t k) const {
    int64_t off = 0;
    for (int d = t.rank; d-- > 0;) {
      off += (k % t.sizes[d]) * t.strides[d];
      k /= t.sizes[d];
    }
    return static_cast<const float*>(t.data)[off];
  }
};

std::vector<float> logical(const Owned& o) {
  std::vector<float> v;
  for (int64_t k = 0; k < o.t.numel(); ++k) v.push_back(o.at(k));
  return v;
}

// Runs the boxed kernel the backend registers for `kind` (what the op table runs)
// on ExecuTorch's stack order: [in, the schema's arguments, out].
void run_boxed(OpKind kind, KernelRuntimeContext& ctx, Owned& in, std::vector<EValue> args, Owned& out) {
  std::vector<EValue> values{EValue::from_tensor(&in.t)};
  values.insert(values.end(), args.begin(), args.end());
  values.push_back(EValue::from_tensor(&out.t));
  std::vector<EValue*> stack;
  for (EValue& v : values) stack.push_back(&v);
  const BoxedKernel fn = et_kernels::boxed_kernel(kind);
  ASSERT_NE(fn, nullptr) << op_kind_info(kind).name;
  fn(ctx, stack.data());
}

TEST(ExecutorchViewCopy, SelectCopyNegativeIndex) {
  Owned x({2, 3}), y({2}, {}, false);
  KernelRuntimeContext ctx;
  run_boxed(OpKind::SelectCopy, ctx, x, {EValue::from_int(1), EValue::from_int(-1)}, y);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(logical(y), (std::vector<float>{2.5f, 5.5f}));
}

TEST(ExecutorchViewCopy, SelectCopyRefusalCarriesExecutorchsReason) {
  Owned x({2, 3}), y({2}, {}, false);
  KernelRuntimeContext ctx;
  run_boxed(OpKind::SelectCopy, ctx, x, {EValue::from_int(1), EValue::from_int(3)}, y);
  ASSERT_FALSE(ctx.ok());
  EXPECT_NE(ctx.message().find("ExecuTorch: "), std::string::npos) << ctx.message();
  EXPECT_EQ(y.bytes, std::vector<float>(2, -1.f));
}

// The boxed kernels derived from SLICEFUZZ_ET_PORTABLE_OPS: permute_copy's
// (the first op added by its row alone) reaches ExecuTorch's kernel, and expand's
// gets its `implicit` argument, past the op table's, at its default False.
TEST(ExecutorchViewCopy, DerivedPermuteCopyTransposes) {
  Owned x({2, 3}), y({3, 2}, {}, false);
  KernelRuntimeContext ctx;
  const int64_t dims[] = {1, 0};
  run_boxed(OpKind::PermuteCopy, ctx, x, {EValue::from_int_list(dims, 2)}, y);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(logical(y), (std::vector<float>{0.5f, 3.5f, 1.5f, 4.5f, 2.5f, 5.5f}));
}

TEST(ExecutorchViewCopy, DerivedExpandCopyTakesImplicitFalse) {
  Owned x({1, 2}), y({3, 2}, {}, false);
  KernelRuntimeContext ctx;
  const int64_t sizes[] = {3, -1};
  run_boxed(OpKind::ExpandCopy, ctx, x, {EValue::from_int_list(sizes, 2)}, y);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(logical(y), (std::vector<float>{0.5f, 1.5f, 0.5f, 1.5f, 0.5f, 1.5f}));
}

// A stack of the wrong kinds is refused before ExecuTorch is called: out untouched.
TEST(ExecutorchViewCopy, DerivedBoxedKernelRefusesAWrongStack) {
  Owned x({2, 3}), y({3, 2}, {}, false);
  KernelRuntimeContext ctx;
  run_boxed(OpKind::PermuteCopy, ctx, x, {EValue::from_int(1)}, y);
  ASSERT_FALSE(ctx.ok());
  // The binding's own refusal, not ExecuTorch's (which would start "ExecuTorch: ").
  EXPECT_NE(ctx.message().find("permute_copy: a boxed kernel's stack has the wrong kinds"), std::string::npos)
      << ctx.message();
  EXPECT_EQ(y.bytes, std::vector<float>(6, -1.f));
}

TEST(ExecutorchViewCopy, SqueezeOneDimAndSeveral) {
  Owned x({1, 3, 1}), one({3, 1}, {}, false), both({3}, {}, false);
  KernelRuntimeContext a, b;
  const int64_t d0[] = {0}, d02[] = {0, -1};
  run_boxed(OpKind::SqueezeCopy, a, x, {EValue::from_int_list(d0, 1)}, one);
  run_boxed(OpKind::SqueezeCopy, b, x, {EValue::from_int_list(d02, 2)}, both);
  ASSERT_TRUE(a.ok()) << a.message();
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_EQ(logical(one), (std::vector<float>{0.5f, 1.5f, 2.5f}));
  EXPECT_EQ(logical(both), (std::vector<float>{0.5f, 1.5f, 2.5f}));
}

TEST(ExecutorchViewCopy, SqueezeRefusesChannelsLastInput) {
  Owned x({1, 2, 1, 2}, {0, 2, 3, 1}), y({2, 1, 2}, {1, 2, 0}, false);
  KernelRuntimeContext ctx;
  const int64_t d0[] = {0};
  run_boxed(OpKind::SqueezeCopy, ctx, x, {EValue::from_int_list(d0, 1)}, y);
  EXPECT_FALSE(ctx.ok());
}

TEST(ExecutorchViewCopy, UnsqueezeKeepsAChannelsLastLayout) {
  // The result's dim order inserts the new dim just outside the one it precedes.
  Owned x({1, 2, 1, 2}, {0, 2, 3, 1}), y({1, 1, 2, 1, 2}, {0, 1, 3, 4, 2}, false);
  KernelRuntimeContext ctx;
  run_boxed(OpKind::UnsqueezeCopy, ctx, x, {EValue::from_int(-5)}, y);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(logical(y), logical(x));
}

TEST(ExecutorchViewCopy, ViewCopyInfersMinusOne) {
  Owned x({2, 3}), y({3, 2}, {}, false);
  KernelRuntimeContext ctx;
  const int64_t sizes[] = {-1, 2};
  run_boxed(OpKind::ViewCopy, ctx, x, {EValue::from_int_list(sizes, 2)}, y);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(y.t.sizes[0], 3);
  EXPECT_EQ(logical(y), logical(x));
}

TEST(ExecutorchViewCopy, CloneDimOrderToChannelsLastAndBack) {
  Owned x({2, 3, 2, 2}), cl({2, 3, 2, 2}, {0, 2, 3, 1}, false), back({2, 3, 2, 2}, {}, false);
  KernelRuntimeContext a, b;
  const int64_t to_cl[] = {0, 2, 3, 1}, to_default[] = {0, 1, 2, 3};
  et_kernels::clone_dim_order(a, x.t, to_cl, 4, cl.t);
  et_kernels::clone_dim_order(b, cl.t, to_default, 4, back.t);
  ASSERT_TRUE(a.ok()) << a.message();
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_EQ(logical(cl), logical(x));
  EXPECT_EQ(back.bytes, x.bytes);
}

TEST(ExecutorchViewCopy, CloneDimOrderRefusesAnOrderOtherThanContiguousOrChannelsLast) {
  Owned x({2, 3}), y({2, 3}, {1, 0}, false);
  KernelRuntimeContext ctx;
  const int64_t order[] = {1, 0};
  et_kernels::clone_dim_order(ctx, x.t, order, 2, y.t);
  EXPECT_FALSE(ctx.ok());
}

// An alias out as the arena executor hands it over: metadata only, no bytes.
Tensor alias_out(std::vector<int64_t> sizes, std::vector<uint8_t> order = {}) {
  if (order.empty())
    for (size_t i = 0; i < sizes.size(); ++i) order.push_back(static_cast<uint8_t>(i));
  Tensor t;
  EXPECT_TRUE(make_tensor_meta(ScalarType::Float, static_cast<int>(sizes.size()), sizes.data(),
                               order.data(), t));
  return t;
}

TEST(ExecutorchAliasPrim, EtViewPointsAtTheInputsBytes) {
  Owned x({2, 3});
  Tensor out = alias_out({3, 2});
  const int64_t sizes[] = {3, 2};
  EValue in = EValue::from_tensor(&x.t), list = EValue::from_int_list(sizes, 2),
         o = EValue::from_tensor(&out);
  EValue* stack[3] = {&in, &list, &o};
  KernelRuntimeContext ctx;
  et_kernels::et_view(ctx, stack);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(out.data, x.t.data);
  EXPECT_EQ(out.nbytes(), x.t.nbytes());
  EXPECT_EQ(out.sizes[0], 3);
}

TEST(ExecutorchAliasPrim, EtViewToRankZero) {
  Owned x({1, 1});
  Tensor out = alias_out({});
  EValue in = EValue::from_tensor(&x.t), list = EValue::from_int_list(nullptr, 0),
         o = EValue::from_tensor(&out);
  EValue* stack[3] = {&in, &list, &o};
  KernelRuntimeContext ctx;
  et_kernels::et_view(ctx, stack);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(out.data, x.t.data);
}

void run_et_select(Owned& x, int64_t dim, int64_t index, Tensor& out, KernelRuntimeContext& ctx) {
  EValue in = EValue::from_tensor(&x.t), d = EValue::from_int(dim), i = EValue::from_int(index),
         o = EValue::from_tensor(&out);
  EValue* stack[4] = {&in, &d, &i, &o};
  et_kernels::et_select(ctx, stack);
}

TEST(ExecutorchAliasPrim, EtSelectAliasesADenseRow) {
  Owned x({3, 4});
  Tensor out = alias_out({4});
  KernelRuntimeContext ctx;
  run_et_select(x, 0, -1, out, ctx);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(static_cast<float*>(out.data), x.bytes.data() + 8);
  EXPECT_EQ(out.nbytes(), 16u);
}

TEST(ExecutorchAliasPrim, EtSelectRefusesAStridedColumn) {
  Owned x({3, 4});
  Tensor out = alias_out({3});
  KernelRuntimeContext ctx;
  run_et_select(x, 1, 0, out, ctx);
  ASSERT_FALSE(ctx.ok());
  EXPECT_NE(ctx.message().find("not dense"), std::string::npos) << ctx.message();
  EXPECT_EQ(out.data, nullptr);
}

TEST(ExecutorchAliasPrim, EtSelectDenseThroughSizeOneDims) {
  // Selecting along a size-1 dim keeps every element: the whole of x.
  Owned x({1, 3, 2});
  Tensor out = alias_out({3, 2});
  KernelRuntimeContext ctx;
  run_et_select(x, 0, 0, out, ctx);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(out.data, x.t.data);
}

TEST(ExecutorchAliasPrim, EtSelectInChannelsLast) {
  // x [2, 3, 2, 2] channels-last: x[1] (dim 0) is one block of 12 elements, dense
  // in the result's order (1, 2, 0) (channels-last without N, renumbered).
  Owned x({2, 3, 2, 2}, {0, 2, 3, 1});
  Tensor out = alias_out({3, 2, 2}, {1, 2, 0});
  KernelRuntimeContext ctx;
  run_et_select(x, 0, 1, out, ctx);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(static_cast<float*>(out.data), x.bytes.data() + 12);
}

}  // namespace
}  // namespace slicefuzz
