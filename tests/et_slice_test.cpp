// The et_slice prim op: dense slices become aliases (pointer, sizes, strides,
// values, write-through), everything else is refused with out untouched, and a
// malformed stack is an error, never a crash. Density is checked against a
// brute-force stride comparison written here, not the kernel's closed form.
#include <gtest/gtest.h>

#include "kernels/evalue.h"
#include "kernels/kernels.h"
#include "tests/test_tensors.h"

namespace slicefuzz {
namespace {

using namespace slicefuzz::testing;

// A stack [in, dim, start, end, step, out] as ExecuTorch's interpreter passes it.
struct Stack {
  EValue v[6];
  EValue* p[6];
  Stack(Tensor* in, int64_t dim, OptInt start, OptInt end, int64_t step, Tensor* out) {
    v[0] = EValue::from_tensor(in);
    v[1] = EValue::from_int(dim);
    v[2] = start ? EValue::from_int(*start) : EValue::none();
    v[3] = end ? EValue::from_int(*end) : EValue::none();
    v[4] = EValue::from_int(step);
    v[5] = EValue::from_tensor(out);
    for (int i = 0; i < 6; ++i) p[i] = &v[i];
  }
};

// An out tensor as the planner leaves it for an alias: metadata only, its data
// pointing at a marker that must survive a refusal.
uint8_t g_marker[1];
Tensor alias_out(ScalarType dt, const Sizes& sizes, Order order = {}) {
  if (order.empty()) order = identity_order(sizes.size());
  Tensor t;
  EXPECT_TRUE(make_tensor_meta(dt, static_cast<int>(sizes.size()), sizes.data(), order.data(), t));
  t.data = g_marker;
  return t;
}

// Brute force: the view's strides (stride[d] * step) equal the canonical strides
// of the result in every dim of result size > 1; an empty result is dense.
bool brute_force_dense(const Sizes& sizes, const Order& order, int d, const RefSlice& r,
                       int64_t step) {
  Sizes res = sizes;
  res[d] = r.length;
  if (ref_numel(res) == 0) return true;
  const Sizes st = ref_strides(sizes, order), canon = ref_strides(res, order);
  for (size_t j = 0; j < res.size(); ++j) {
    if (res[j] <= 1) continue;
    const int64_t view = static_cast<int>(j) == d ? st[j] * step : st[j];  // L > 1: step < size
    if (view != canon[j]) return false;
  }
  return true;
}

void expect_refused(const OwnedTensor& in, Tensor& out, const Tensor& before, EValue** stack,
                    const std::string& desc) {
  KernelRuntimeContext ctx;
  et_slice(ctx, stack);
  EXPECT_EQ(ctx.failure_state(), Error::InvalidArgument) << desc;
  EXPECT_FALSE(ctx.message().empty()) << desc;
  EXPECT_EQ(out.data, before.data) << desc;
  EXPECT_EQ(out.rank, before.rank) << desc;
  EXPECT_EQ(Sizes(out.sizes, out.sizes + out.rank), Sizes(before.sizes, before.sizes + before.rank))
      << desc;
  EXPECT_EQ(Sizes(out.strides, out.strides + out.rank),
            Sizes(before.strides, before.strides + before.rank))
      << desc;
  EXPECT_EQ(out.dtype, before.dtype) << desc;
  EXPECT_EQ(out.capacity_nbytes, before.capacity_nbytes) << desc;
  EXPECT_EQ(out.dynamism, before.dynamism) << desc;
  (void)in;
}

// Runs et_slice and checks it against the brute-force density: dense -> a correct
// alias, not dense -> refused with out untouched. Returns whether it aliased.
bool check_et_slice(const OwnedTensor& in, int64_t dim, OptInt start, OptInt end, int64_t step) {
  const int d = static_cast<int>(dim < 0 ? dim + in.t.rank : dim);
  const std::string desc = slice_desc(in, dim, start, end, step);
  const RefSlice r = ref_normalize(in.t.sizes[d], start, end, step);
  Tensor out = alias_out(in.t.dtype, in.sizes(), in.order());
  const Tensor before = out;
  Tensor in_t = in.t;
  Stack s(&in_t, dim, start, end, step, &out);
  if (!brute_force_dense(in.sizes(), in.order(), d, r, step)) {
    expect_refused(in, out, before, s.p, desc);
    return false;
  }
  KernelRuntimeContext ctx;
  et_slice(ctx, s.p);
  EXPECT_TRUE(ctx.ok()) << desc << ": " << ctx.message();
  if (!ctx.ok()) return false;
  const size_t es = element_size(in.t.dtype);
  const uint8_t* base = in.buffer();
  const uint8_t* p = static_cast<const uint8_t*>(out.data);
  EXPECT_EQ(out.dtype, in.t.dtype) << desc;
  EXPECT_EQ(out.nbytes(), static_cast<size_t>(ref_numel(Sizes(out.sizes, out.sizes + out.rank))) * es) << desc;
  if (out.numel() == 0) {
    EXPECT_EQ(out.nbytes(), 0u) << desc;
    EXPECT_TRUE(p >= base && p <= base + in.t.nbytes()) << desc << ": empty alias outside in";
  } else {
    const int64_t st = ref_strides(in.sizes(), in.order())[d];
    EXPECT_EQ(p, base + r.start * st * static_cast<int64_t>(es)) << desc;
    EXPECT_LE(p + out.nbytes(), base + in.t.nbytes()) << desc;
  }
  EXPECT_EQ(check_slice_result(in, d, start, end, step, out, p), "") << desc;
  return true;
}

TEST(EtSlice, DenseSliceAliasesTheInput) {
  OwnedTensor in(ScalarType::Float, {4, 3, 5});
  in.fill_pattern();
  Tensor out = alias_out(ScalarType::Float, {4, 3, 5});
  Stack s(&in.t, 0, 1, 3, 1, &out);
  KernelRuntimeContext ctx;
  et_slice(ctx, s.p);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(out.data, in.buffer() + 1 * 15 * sizeof(float));
  EXPECT_EQ(out.nbytes(), 2u * 15 * sizeof(float));
  EXPECT_EQ(out.sizes[0], 2);
  EXPECT_EQ(out.strides[0], 15);
  EXPECT_EQ(check_slice_result(in, 0, 1, 3, 1, out, static_cast<uint8_t*>(out.data)), "");
  // No copy: a write through the alias is a write into the input, and back.
  float v = 1234.5f;
  std::memcpy(static_cast<uint8_t*>(out.data) + 7 * sizeof(float), &v, sizeof v);
  float got;
  std::memcpy(&got, in.elem({1, 1, 2}), sizeof got);  // out[0][1][2] is in[1][1][2]
  EXPECT_EQ(got, v);
  float w = -9.0f;
  std::memcpy(in.buffer() + (2 * 15 + 14) * sizeof(float), &w, sizeof w);  // in[2][2][4]
  std::memcpy(&got, static_cast<uint8_t*>(out.data) + (15 + 14) * sizeof(float), sizeof got);
  EXPECT_EQ(got, w);
}

TEST(EtSlice, ChannelsLastOuterSliceAliases) {
  OwnedTensor in(ScalarType::Half, {4, 3, 2, 5}, {0, 2, 3, 1});
  in.fill_pattern();
  EXPECT_TRUE(check_et_slice(in, 0, 1, 3, 1));
  EXPECT_TRUE(check_et_slice(in, -4, -1, std::nullopt, 1));
  EXPECT_TRUE(check_et_slice(in, 1, std::nullopt, std::nullopt, 1));  // full C
  EXPECT_TRUE(check_et_slice(in, 3, 0, kI64Max, 1));                  // full W
}

TEST(EtSlice, ExhaustiveAgreesWithBruteForceDensity) {
  struct Layout {
    Sizes sizes;
    Order order;
  };
  const Layout layouts[] = {
      {{5}, {0}},
      {{3, 4}, {0, 1}},
      {{3, 4}, {1, 0}},
      {{1, 4}, {0, 1}},
      {{4, 1}, {1, 0}},
      {{2, 3, 4}, {0, 1, 2}},
      {{2, 3, 4}, {2, 0, 1}},
      {{2, 3, 4}, {2, 1, 0}},
      {{1, 3, 1, 4}, {0, 1, 2, 3}},
      {{1, 3, 1, 4}, {2, 0, 1, 3}},
      {{1, 3, 1, 4}, {1, 3, 2, 0}},
      {{2, 3, 2, 3}, {0, 2, 3, 1}},  // channels-last
      {{1, 3, 2, 3}, {0, 2, 3, 1}},
      {{1, 3, 1, 3}, {0, 2, 3, 1}},
      {{2, 0, 3}, {0, 1, 2}},
      {{0, 3}, {1, 0}},
  };
  int aliased = 0, refused = 0;
  for (const Layout& l : layouts) {
    OwnedTensor in(ScalarType::Int, l.sizes, l.order);
    in.fill_pattern();
    for (int64_t dim = 0; dim < static_cast<int64_t>(l.sizes.size()); ++dim) {
      const int64_t n = l.sizes[dim];
      std::vector<OptInt> bounds{std::nullopt, kI64Min, kI64Max};
      for (int64_t v = -n - 1; v <= n + 1; ++v) bounds.push_back(v);
      for (OptInt s : bounds)
        for (OptInt e : bounds)
          for (int64_t step : {int64_t{1}, int64_t{2}, int64_t{3}, kI64Max})
            (check_et_slice(in, dim, s, e, step) ? aliased : refused)++;
    }
  }
  // Both outcomes are exercised heavily.
  EXPECT_GT(aliased, 1000);
  EXPECT_GT(refused, 1000);
}

TEST(EtSlice, NonDenseSlicesAreRefused) {
  struct NonDense {
    Sizes sizes;
    Order order;
    int64_t dim;
    OptInt start, end;
    int64_t step;
  };
  const NonDense cases[] = {
      {{4, 6}, {0, 1}, 1, 0, std::nullopt, 2},        // step 2 on the inner dim
      {{4, 6}, {0, 1}, 0, 0, std::nullopt, 2},        // step 2 on the outer dim
      {{3, 4, 5}, {0, 1, 2}, 1, 1, 3, 1},             // partial non-outermost dim
      {{3, 4, 5}, {0, 1, 2}, 2, 0, 4, 1},             // partial innermost dim
      {{2, 3, 4, 5}, {0, 2, 3, 1}, 1, 0, 2, 1},       // channels-last: partial C
      {{2, 3, 4, 5}, {0, 2, 3, 1}, 2, 1, 3, 1},       // channels-last: partial H, N > 1
      {{2, 3, 4, 5}, {0, 2, 3, 1}, 3, 0, 1, 1},       // channels-last: one W column
      {{1, 3, 4, 5}, {0, 2, 3, 1}, 1, 0, 2, 1},       // N = 1 does not make C dense
      {{3, 4}, {1, 0}, 0, 0, 2, 1},                   // transposed: dim 0 is inner
      {{3, 4}, {0, 1}, 1, 2, 3, kI64Max},             // L == 1 but rows before it
  };
  for (const NonDense& c : cases) {
    OwnedTensor in(ScalarType::Float, c.sizes, c.order);
    in.fill_pattern();
    const std::vector<uint8_t> bytes(in.buffer(), in.buffer() + in.t.nbytes());
    EXPECT_FALSE(check_et_slice(in, c.dim, c.start, c.end, c.step))
        << slice_desc(in, c.dim, c.start, c.end, c.step);
    EXPECT_EQ(std::memcmp(bytes.data(), in.buffer(), bytes.size()), 0);
  }
}

TEST(EtSlice, DenseOnlyBecauseOfSizeOneDims) {
  struct Dense {
    Sizes sizes;
    Order order;
    int64_t dim;
    OptInt start, end;
    int64_t step;
  };
  const Dense cases[] = {
      {{1, 1, 6, 4}, {0, 1, 2, 3}, 2, 1, 4, 1},
      {{1, 3, 1, 5}, {0, 2, 3, 1}, 3, 1, 3, 1},  // channels-last, N = H = 1: partial W
      {{1, 3, 4, 5}, {0, 2, 3, 1}, 2, 1, 3, 1},  // channels-last, N = 1: partial H
      {{1, 4}, {0, 1}, 1, 2, std::nullopt, 7},   // inner dim, L == 1 with a big step
      {{4, 5}, {0, 1}, 0, 1, 4, 3},              // outer dim, step 3 but L == 1
      {{6, 1}, {1, 0}, 0, 2, 5, 1},              // size-1 dim is outermost in memory
      {{3, 1, 2}, {1, 0, 2}, 0, 1, 2, 1},
  };
  for (const Dense& c : cases) {
    OwnedTensor in(ScalarType::Double, c.sizes, c.order);
    in.fill_pattern();
    EXPECT_TRUE(check_et_slice(in, c.dim, c.start, c.end, c.step))
        << slice_desc(in, c.dim, c.start, c.end, c.step);
  }
}

TEST(EtSlice, EmptySlicesStayInsideTheInput) {
  for (const Sizes& sz : {Sizes{4, 5}, Sizes{0, 5}, Sizes{3, 0}, Sizes{2, 3, 4}}) {
    OwnedTensor in(ScalarType::Long, sz);
    in.fill_pattern();
    for (int64_t dim = 0; dim < static_cast<int64_t>(sz.size()); ++dim)
      for (auto [s, e] : std::vector<std::pair<OptInt, OptInt>>{
               {2, 2}, {3, 1}, {sz[dim], std::nullopt}, {kI64Max, kI64Max}, {kI64Min, kI64Min},
               {-1, 0}, {std::nullopt, 0}}) {
        EXPECT_TRUE(check_et_slice(in, dim, s, e, 1));
        EXPECT_TRUE(check_et_slice(in, dim, s, e, 2));
      }
  }
}

TEST(EtSlice, ExtremeArguments) {
  OwnedTensor in(ScalarType::BFloat16, {5, 3});
  in.fill_pattern();
  for (OptInt s : {OptInt{kI64Min}, OptInt{-k2p62 - 1}, OptInt{-k2p62}, OptInt{k2p62},
                   OptInt{kI64Max}, OptInt{2}, OptInt{-2}})
    for (OptInt e : {OptInt{kI64Min}, OptInt{-k2p62}, OptInt{k2p62 + 1}, OptInt{kI64Max}, OptInt{}})
      for (int64_t step : {int64_t{1}, k2p62, kI64Max - 1, kI64Max}) check_et_slice(in, 0, s, e, step);
}

TEST(EtSlice, InvalidArgumentsAreRefused) {
  OwnedTensor in(ScalarType::Float, {4, 6});
  in.fill_pattern();
  struct Bad {
    int64_t dim;
    int64_t step;
  };
  for (Bad b : {Bad{0, 0}, Bad{0, -1}, Bad{0, kI64Min}, Bad{2, 1}, Bad{-3, 1}, Bad{kI64Max, 1},
                Bad{kI64Min, 1}}) {
    Tensor out = alias_out(ScalarType::Float, {4, 6});
    const Tensor before = out;
    Stack s(&in.t, b.dim, 0, 1, b.step, &out);
    expect_refused(in, out, before, s.p, "dim " + std::to_string(b.dim));
  }
  OwnedTensor scalar(ScalarType::Float, {});
  Tensor out = alias_out(ScalarType::Float, {});
  const Tensor before = out;
  Stack s(&scalar.t, 0, 0, 1, 1, &out);
  expect_refused(scalar, out, before, s.p, "rank 0");
}

TEST(EtSlice, DtypeDimOrderAndRankMismatchAreRefused) {
  OwnedTensor in(ScalarType::Float, {4, 3, 2, 5}, {0, 2, 3, 1});
  in.fill_pattern();
  const Tensor outs[] = {
      alias_out(ScalarType::Double, {4, 3, 2, 5}, {0, 2, 3, 1}),
      alias_out(ScalarType::Int, {4, 3, 2, 5}, {0, 2, 3, 1}),
      alias_out(ScalarType::Float, {4, 3, 2, 5}),
      alias_out(ScalarType::Float, {4, 3, 2, 5}, {0, 3, 2, 1}),
      alias_out(ScalarType::Float, {4, 30}),
  };
  for (const Tensor& o : outs) {
    Tensor out = o;
    Stack s(&in.t, 0, 0, 2, 1, &out);  // a dense slice: only the out is wrong
    expect_refused(in, out, o, s.p, "mismatched out");
  }
}

TEST(EtSlice, MalformedStackIsAnErrorNotACrash) {
  OwnedTensor in(ScalarType::Float, {4, 6});
  in.fill_pattern();
  {
    KernelRuntimeContext ctx;
    et_slice(ctx, nullptr);
    EXPECT_FALSE(ctx.ok());
  }
  for (int missing = 0; missing < 6; ++missing) {
    Tensor out = alias_out(ScalarType::Float, {4, 6});
    Stack s(&in.t, 0, 0, 2, 1, &out);
    s.p[missing] = nullptr;
    KernelRuntimeContext ctx;
    et_slice(ctx, s.p);
    EXPECT_FALSE(ctx.ok()) << "missing " << missing;
    EXPECT_EQ(out.data, g_marker);
  }
  Tensor dummy = alias_out(ScalarType::Float, {4, 6});
  const EValue wrong[] = {EValue::none(), EValue::from_int(3), EValue::from_tensor(&dummy),
                          EValue::from_tensor(nullptr), EValue{EValue::Tag::Int, 0, &dummy}};
  // Position -> which of `wrong` are wrong there (start/end accept None and Int).
  for (int pos = 0; pos < 6; ++pos)
    for (const EValue& w : wrong) {
      const bool tensor_pos = pos == 0 || pos == 5;
      const bool optional_pos = pos == 2 || pos == 3;
      if (tensor_pos && w.is_tensor()) continue;
      if (!tensor_pos && w.is_int()) continue;
      if (optional_pos && w.is_none()) continue;
      Tensor out = alias_out(ScalarType::Float, {4, 6});
      Stack s(&in.t, 0, 0, 2, 1, &out);
      s.v[pos] = w;
      KernelRuntimeContext ctx;
      et_slice(ctx, s.p);
      EXPECT_EQ(ctx.failure_state(), Error::InvalidArgument)
          << "pos " << pos << " tag " << static_cast<int>(w.tag);
      EXPECT_EQ(out.data, g_marker);
      EXPECT_EQ(dummy.data, g_marker);
    }
}

TEST(EtSlice, ChainOfAliasesSumsOffsets) {
  OwnedTensor in(ScalarType::Short, {6, 4, 3});
  in.fill_pattern();
  Tensor a = alias_out(ScalarType::Short, {6, 4, 3});
  Stack s1(&in.t, 0, 1, 5, 1, &a);  // rows 1..4
  KernelRuntimeContext ctx;
  et_slice(ctx, s1.p);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  Tensor b = alias_out(ScalarType::Short, {6, 4, 3});
  Stack s2(&a, 0, 2, 3, 1, &b);  // row 2 of a == row 3 of in
  et_slice(ctx, s2.p);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  Tensor c = alias_out(ScalarType::Short, {6, 4, 3});
  Stack s3(&b, 1, 1, 3, 1, &c);  // b has size 1 on dim 0, so dim 1 is dense too
  et_slice(ctx, s3.p);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(c.data, in.buffer() + (3 * 12 + 1 * 3) * 2);
  EXPECT_EQ(c.nbytes(), 2u * 3 * 2);
  EXPECT_EQ(std::memcmp(c.data, in.elem({3, 1, 0}), 12), 0);
  // A partial inner slice of `a` (4 rows) is not dense.
  Tensor d = alias_out(ScalarType::Short, {6, 4, 3});
  Stack s4(&a, 1, 1, 3, 1, &d);
  KernelRuntimeContext ctx2;
  et_slice(ctx2, s4.p);
  EXPECT_FALSE(ctx2.ok());
  EXPECT_EQ(d.data, g_marker);
}

}  // namespace
}  // namespace slicefuzz
