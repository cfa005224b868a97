// slice_copy_Tensor_out against an independent reference (tests/test_tensors.h):
// the categories of ExecuTorch's kernels/test/op_slice_copy_test.cpp, plus dim
// orders, size-1 dims, extreme int64 arguments, rank 0 and rank 16.
#include <gtest/gtest.h>

#include "kernels/kernels.h"
#include "tests/test_tensors.h"

namespace slicefuzz {
namespace {

using namespace slicefuzz::testing;

enum class OutKind { ExactStatic, DynamicFromInput };

// Runs slice_copy and checks the result against the reference. ExactStatic: out
// is a STATIC tensor of exactly the expected sizes (ASan guards its edges);
// DynamicFromInput: out starts with in's sizes, DYNAMIC_BOUND, in's capacity.
void expect_slice(const OwnedTensor& in, int64_t dim, OptInt start, OptInt end, int64_t step,
                  OutKind kind = OutKind::ExactStatic) {
  const int d = static_cast<int>(dim < 0 ? dim + in.t.rank : dim);
  const RefSlice r = ref_normalize(in.t.sizes[d], start, end, step);
  Sizes want = in.sizes();
  want[d] = r.length;
  const std::string desc = slice_desc(in, dim, start, end, step);
  std::unique_ptr<OwnedTensor> out;
  if (kind == OutKind::ExactStatic)
    out = std::make_unique<OwnedTensor>(in.t.dtype, want, in.order());
  else
    out = std::make_unique<OwnedTensor>(in.t.dtype, in.sizes(), in.order(),
                                        ShapeDynamism::DYNAMIC_BOUND, in.t.nbytes());
  ASSERT_TRUE(out->ok());
  KernelRuntimeContext ctx;
  Tensor& ret = slice_copy_Tensor_out(ctx, in.t, dim, start, end, step, out->t);
  ASSERT_TRUE(ctx.ok()) << desc << ": " << ctx.message();
  EXPECT_EQ(&ret, &out->t);
  EXPECT_EQ(out->t.data, out->buffer()) << desc;
  EXPECT_EQ(check_slice_result(in, d, start, end, step, out->t, out->buffer()), "") << desc;
}

// Runs slice_copy with arguments that must be refused: InvalidArgument, a
// message, and out's sizes and bytes untouched.
void expect_refused(const OwnedTensor& in, int64_t dim, OptInt start, OptInt end, int64_t step,
                    OwnedTensor& out) {
  const Sizes sizes_before = out.sizes();
  KernelRuntimeContext ctx;
  slice_copy_Tensor_out(ctx, in.t, dim, start, end, step, out.t);
  const std::string desc = slice_desc(in, dim, start, end, step);
  EXPECT_EQ(ctx.failure_state(), Error::InvalidArgument) << desc;
  EXPECT_FALSE(ctx.message().empty()) << desc;
  EXPECT_EQ(out.sizes(), sizes_before) << desc;
  EXPECT_EQ(out.t.data, out.buffer()) << desc;
  EXPECT_TRUE(out.untouched()) << desc << ": out was written on error";
}

OwnedTensor& filled(OwnedTensor& t, int64_t seed = 0) {
  t.fill_pattern(seed);
  return t;
}

TEST(SliceCopy, MetadataStridesFollowTheDimOrder) {
  for (const Order& o : {Order{0, 1, 2, 3}, Order{0, 2, 3, 1}, Order{3, 2, 1, 0}, Order{1, 3, 0, 2}}) {
    for (const Sizes& s : {Sizes{2, 3, 4, 5}, Sizes{2, 0, 4, 1}, Sizes{1, 1, 0, 0}}) {
      OwnedTensor t(ScalarType::Float, s, o);
      ASSERT_TRUE(t.ok());
      EXPECT_EQ(Sizes(t.t.strides, t.t.strides + 4), ref_strides(s, o))
          << sizes_str(s) << order_str(o);
    }
  }
}

TEST(SliceCopy, EveryStartValue) {
  for (int64_t n = 0; n <= 7; ++n) {
    OwnedTensor in(ScalarType::Int, {2, n, 3});
    filled(in);
    for (int64_t s = -n - 2; s <= n + 2; ++s) {
      expect_slice(in, 1, s, std::nullopt, 1);
      expect_slice(in, 1, s, n, 1);
    }
  }
}

TEST(SliceCopy, EveryEndValue) {
  for (int64_t n = 0; n <= 7; ++n) {
    OwnedTensor in(ScalarType::Int, {n, 3});
    filled(in);
    for (int64_t e = -n - 2; e <= n + 2; ++e) {
      expect_slice(in, 0, std::nullopt, e, 1);
      expect_slice(in, 0, 1, e, 1);
    }
  }
}

TEST(SliceCopy, LegalSteps) {
  for (int64_t n = 1; n <= 9; ++n) {
    OwnedTensor in(ScalarType::Long, {3, n});
    filled(in);
    for (int64_t step = 1; step <= n + 1; ++step) {
      expect_slice(in, 1, std::nullopt, std::nullopt, step);
      expect_slice(in, -1, 1, n - 1, step);
      expect_slice(in, 0, 0, 3, step);
    }
  }
}

TEST(SliceCopy, ExhaustiveSmallStartEndStep) {
  for (int64_t n = 0; n <= 5; ++n) {
    OwnedTensor in(ScalarType::Short, {2, n, 2}, {2, 0, 1});
    filled(in);
    for (int64_t s = -n - 2; s <= n + 2; ++s)
      for (int64_t e = -n - 2; e <= n + 2; ++e)
        for (int64_t step = 1; step <= n + 2; ++step) expect_slice(in, 1, s, e, step);
  }
}

TEST(SliceCopy, AllDtypes) {
  for (ScalarType dt : kAllDtypes) {
    OwnedTensor in(dt, {2, 5, 3, 4}, {0, 2, 3, 1});
    filled(in, 7);
    for (int64_t dim = -4; dim < 4; ++dim) {
      expect_slice(in, dim, 1, std::nullopt, 2);
      expect_slice(in, dim, std::nullopt, -1, 1);
      expect_slice(in, dim, 0, 1, 1, OutKind::DynamicFromInput);
    }
  }
}

TEST(SliceCopy, AllDtypesDistinctValuesLandInPlace) {
  // An explicit value check, not only the reference: slicing [0..9] with step 3
  // gives elements 1, 4, 7 of the pattern.
  for (ScalarType dt : kAllDtypes) {
    OwnedTensor in(dt, {10});
    filled(in);
    OwnedTensor out(dt, {3});
    KernelRuntimeContext ctx;
    slice_copy_Tensor_out(ctx, in.t, 0, 1, std::nullopt, 3, out.t);
    ASSERT_TRUE(ctx.ok()) << ctx.message();
    const size_t es = element_size(dt);
    for (int64_t i = 0; i < 3; ++i) {
      uint8_t want[8];
      pattern_bytes(dt, 1 + 3 * i, want);
      EXPECT_EQ(std::memcmp(out.buffer() + i * es, want, es), 0) << scalar_type_name(dt) << " " << i;
    }
  }
}

TEST(SliceCopy, EmptyInput) {
  for (const Sizes& s : {Sizes{0}, Sizes{0, 4}, Sizes{3, 0, 5}, Sizes{2, 3, 0}, Sizes{0, 0}}) {
    OwnedTensor in(ScalarType::Float, s);
    for (int64_t dim = 0; dim < static_cast<int64_t>(s.size()); ++dim) {
      expect_slice(in, dim, std::nullopt, std::nullopt, 1);
      expect_slice(in, dim, 1, 2, 1);
      expect_slice(in, dim, -1, kI64Max, 3);
      expect_slice(in, dim, 0, 1, 1, OutKind::DynamicFromInput);
    }
  }
}

TEST(SliceCopy, ZeroLengthResult) {
  OwnedTensor in(ScalarType::Double, {4, 6, 2});
  filled(in);
  const std::vector<std::pair<int64_t, int64_t>> ranges = {
      {3, 3}, {5, 2}, {6, 10}, {-1, -2}, {10, 20}, {-20, -10}, {kI64Max, kI64Min}};
  for (auto [s, e] : ranges) {
    expect_slice(in, 1, s, e, 1);
    expect_slice(in, 1, s, e, 4, OutKind::DynamicFromInput);
  }
  // The out of a zero-length result has a 0 in its sizes and 0 bytes.
  OwnedTensor out(ScalarType::Double, {4, 6, 2}, {}, ShapeDynamism::DYNAMIC_BOUND, in.t.nbytes());
  KernelRuntimeContext ctx;
  slice_copy_Tensor_out(ctx, in.t, 1, 4, 4, 1, out.t);
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(out.sizes(), (Sizes{4, 0, 2}));
  EXPECT_EQ(out.t.nbytes(), 0u);
  EXPECT_TRUE(out.untouched());
}

TEST(SliceCopy, NonPositiveStepIsRefused) {
  OwnedTensor in(ScalarType::Float, {4, 5});
  filled(in);
  for (int64_t step : {int64_t{0}, int64_t{-1}, int64_t{-2}, int64_t{-5}, kI64Min, kI64Min + 1}) {
    OwnedTensor out(ScalarType::Float, {4, 5});
    expect_refused(in, 1, std::nullopt, std::nullopt, step, out);
    OwnedTensor dyn(ScalarType::Float, {4, 5}, {}, ShapeDynamism::DYNAMIC_BOUND);
    expect_refused(in, 0, 1, 3, step, dyn);
  }
}

TEST(SliceCopy, DimOutOfBoundsIsRefused) {
  for (int rank = 1; rank <= 4; ++rank) {
    OwnedTensor in(ScalarType::Int, Sizes(rank, 2));
    filled(in);
    for (int64_t dim : {int64_t{rank}, int64_t{rank + 1}, int64_t{-rank - 1}, int64_t{-rank - 2},
                        kI64Min, kI64Max, int64_t{255}, int64_t{256}, int64_t{-256}}) {
      OwnedTensor out(ScalarType::Int, Sizes(rank, 2), {}, ShapeDynamism::DYNAMIC_BOUND);
      expect_refused(in, dim, 0, 1, 1, out);
    }
    // Every valid negative dim equals its positive twin.
    for (int64_t dim = -rank; dim < rank; ++dim) expect_slice(in, dim, 1, 2, 1);
  }
}

TEST(SliceCopy, RankZeroIsRefused) {
  OwnedTensor in(ScalarType::Float, {});
  filled(in);
  ASSERT_EQ(in.t.rank, 0);
  for (int64_t dim : {int64_t{0}, int64_t{-1}, int64_t{1}}) {
    OwnedTensor out(ScalarType::Float, {});
    expect_refused(in, dim, std::nullopt, std::nullopt, 1, out);
  }
}

TEST(SliceCopy, DtypeMismatchIsRefused) {
  for (ScalarType a : kAllDtypes)
    for (ScalarType b : kAllDtypes) {
      if (a == b) continue;
      OwnedTensor in(a, {3, 4});
      filled(in);
      OwnedTensor out(b, {3, 2});
      expect_refused(in, 1, 0, 2, 1, out);
    }
}

TEST(SliceCopy, DimOrderOrRankMismatchIsRefused) {
  OwnedTensor in(ScalarType::Float, {2, 3, 4, 5}, {0, 2, 3, 1});
  filled(in);
  OwnedTensor identity(ScalarType::Float, {2, 3, 4, 5});
  expect_refused(in, 0, 0, 2, 1, identity);  // identical sizes: only the order differs
  OwnedTensor other(ScalarType::Float, {2, 3, 4, 5}, {0, 3, 2, 1}, ShapeDynamism::DYNAMIC_BOUND);
  expect_refused(in, 0, 0, 2, 1, other);
  OwnedTensor rank3(ScalarType::Float, {2, 3, 20}, {}, ShapeDynamism::DYNAMIC_BOUND);
  expect_refused(in, 0, 0, 2, 1, rank3);
}

TEST(SliceCopy, OutSizeMismatch) {
  OwnedTensor in(ScalarType::Float, {4, 6});
  filled(in);
  // STATIC out with the wrong sizes (too big, too small, same numel) must fail.
  for (const Sizes& s : {Sizes{4, 6}, Sizes{4, 2}, Sizes{2, 6}, Sizes{6, 2}, Sizes{4, 4}}) {
    OwnedTensor out(ScalarType::Float, s);
    expect_refused(in, 1, 1, 4, 1, out);  // result is [4, 3]
  }
  // DYNAMIC_BOUND without enough capacity must fail too.
  OwnedTensor small(ScalarType::Float, {4, 2}, {}, ShapeDynamism::DYNAMIC_BOUND);
  expect_refused(in, 1, 1, 4, 1, small);
  // STATIC with exactly the result sizes works.
  expect_slice(in, 1, 1, 4, 1, OutKind::ExactStatic);
  // DYNAMIC_BOUND with enough capacity is resized (down, and up from smaller sizes).
  expect_slice(in, 1, 1, 4, 1, OutKind::DynamicFromInput);
  OwnedTensor grow(ScalarType::Float, {1, 1}, {}, ShapeDynamism::DYNAMIC_BOUND, 12 * sizeof(float));
  KernelRuntimeContext ctx;
  slice_copy_Tensor_out(ctx, in.t, 1, 1, 4, 1, grow.t);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(check_slice_result(in, 1, 1, 4, 1, grow.t, grow.buffer()), "");
}

TEST(SliceCopy, DefaultStartAndEnd) {
  OwnedTensor in(ScalarType::Long, {3, 5, 2}, {1, 2, 0});
  filled(in);
  for (int64_t dim = 0; dim < 3; ++dim) {
    expect_slice(in, dim, std::nullopt, std::nullopt, 1);
    expect_slice(in, dim, std::nullopt, std::nullopt, 2);
    expect_slice(in, dim, std::nullopt, 2, 1);
    expect_slice(in, dim, 1, std::nullopt, 1);
  }
  // A full-range slice equals the input.
  OwnedTensor out(ScalarType::Long, {3, 5, 2}, {1, 2, 0});
  KernelRuntimeContext ctx;
  slice_copy_Tensor_out(ctx, in.t, 1, std::nullopt, std::nullopt, 1, out.t);
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(std::memcmp(out.buffer(), in.buffer(), in.t.nbytes()), 0);
}

TEST(SliceCopy, NonDefaultDimOrdersEveryDim) {
  struct Layout {
    Sizes sizes;
    Order order;
  };
  const Layout layouts[] = {
      {{2, 3, 4, 5}, {0, 2, 3, 1}},  // channels-last
      {{3, 4, 5}, {2, 0, 1}},        {{3, 4, 5}, {1, 2, 0}},
      {{2, 3, 4, 5}, {3, 2, 1, 0}},  // reversed
      {{4, 3, 2}, {2, 1, 0}},        {{2, 3, 2, 3, 2}, {4, 3, 2, 1, 0}},
      {{3, 1, 4, 2}, {1, 3, 0, 2}},
  };
  for (const Layout& l : layouts) {
    OwnedTensor in(ScalarType::Int, l.sizes, l.order);
    filled(in);
    for (int64_t dim = 0; dim < static_cast<int64_t>(l.sizes.size()); ++dim) {
      const int64_t n = l.sizes[dim];
      for (int64_t s = -1; s <= n; ++s)
        for (int64_t step = 1; step <= 3; ++step) {
          expect_slice(in, dim, s, std::nullopt, step);
          expect_slice(in, dim - static_cast<int64_t>(l.sizes.size()), 0, s, step);
        }
    }
  }
}

TEST(SliceCopy, SizeOneDimsWithDifferentOrders) {
  // Orders that differ only in where the size-1 dims sit give the same strides for
  // every dim of size > 1; slicing must give the same logical values whatever the
  // order, and out must carry in's order.
  const Sizes sizes{1, 3, 1, 4};
  const Order orders[] = {{0, 1, 2, 3}, {1, 0, 2, 3}, {1, 2, 0, 3}, {2, 0, 1, 3},
                          {0, 1, 3, 2}, {1, 3, 2, 0}, {2, 1, 0, 3}};
  for (const Order& o : orders) {
    OwnedTensor in(ScalarType::Char, sizes, o);
    filled(in);
    for (int64_t dim = 0; dim < 4; ++dim)
      for (int64_t s = -2; s <= 2; ++s)
        for (int64_t e : {int64_t{-1}, int64_t{1}, int64_t{3}, kI64Max}) {
          expect_slice(in, dim, s, e, 1);
          expect_slice(in, dim, s, e, 2);
        }
  }
}

TEST(SliceCopy, ExtremeStartAndEnd) {
  const int64_t extremes[] = {kI64Min, kI64Min + 1, -k2p62 - 1, -k2p62, -k2p62 + 1, -7, -6, -1,
                              0,       1,           5,          6,      7,          k2p62 - 1,
                              k2p62,   k2p62 + 1,   kI64Max - 1, kI64Max};
  // Dim 0 has stride 2 in the first layout and 1 in the second: a huge step
  // times a stride > 1 must never be computed.
  for (const Order& o : {Order{0, 1}, Order{1, 0}}) {
    OwnedTensor in(ScalarType::Float, {6, 2}, o);
    filled(in);
    for (int64_t s : extremes)
      for (int64_t e : extremes)
        for (int64_t step : {int64_t{1}, int64_t{2}, int64_t{5}, k2p62, kI64Max}) {
          expect_slice(in, 0, s, e, step);
          expect_slice(in, 0, std::nullopt, e, step);
          expect_slice(in, 0, s, std::nullopt, step);
        }
  }
}

TEST(SliceCopy, HugeSteps) {
  // The sliced dim has stride 1 (inner), 3 (outer of [n, 3]) and 3 again with a
  // transposed order ([3, n] with order (1, 0)).
  for (int64_t n : {0, 1, 2, 5, 17}) {
    struct Layout {
      Sizes sizes;
      Order order;
      int64_t dim;
    };
    for (const Layout& l : {Layout{{2, n}, {0, 1}, 1}, Layout{{n, 3}, {0, 1}, 0},
                            Layout{{3, n}, {1, 0}, 1}}) {
      OwnedTensor in(ScalarType::Short, l.sizes, l.order);
      filled(in);
      for (int64_t step : {kI64Max, kI64Max - 1, k2p62, k2p62 + 1, k2p62 - 1, int64_t{1} << 32,
                           n, n + 1}) {
        if (step <= 0) continue;
        for (int64_t s : {int64_t{0}, int64_t{1}, n - 1, kI64Min})
          for (OptInt e : {OptInt{}, OptInt{kI64Max}, OptInt{n - 1}})
            expect_slice(in, l.dim, s, e, step);
      }
    }
  }
  // One element for a non-empty range, whatever the step.
  OwnedTensor in(ScalarType::Int, {5});
  filled(in);
  OwnedTensor out(ScalarType::Int, {1});
  KernelRuntimeContext ctx;
  slice_copy_Tensor_out(ctx, in.t, 0, 3, std::nullopt, kI64Max, out.t);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_EQ(std::memcmp(out.buffer(), in.elem({3}), 4), 0);
}

TEST(SliceCopy, Rank16) {
  Sizes sizes(16, 2);
  sizes[3] = 1;
  sizes[9] = 3;
  sizes[15] = 1;
  Order reversed(16);
  for (int i = 0; i < 16; ++i) reversed[i] = static_cast<uint8_t>(15 - i);
  Order shuffled{5, 0, 11, 3, 14, 9, 1, 7, 15, 2, 12, 4, 8, 13, 6, 10};
  for (const Order& o : {identity_order(16), reversed, shuffled}) {
    OwnedTensor in(ScalarType::Byte, sizes, o);
    ASSERT_TRUE(in.ok());
    filled(in);
    for (int64_t dim = 0; dim < 16; ++dim) {
      expect_slice(in, dim, 1, std::nullopt, 1);
      expect_slice(in, dim, 0, std::nullopt, 2);
      expect_slice(in, dim - 16, -1, kI64Max, 1, OutKind::DynamicFromInput);
    }
    OwnedTensor out(ScalarType::Byte, sizes, o, ShapeDynamism::DYNAMIC_BOUND);
    expect_refused(in, 16, 0, 1, 1, out);
    expect_refused(in, -17, 0, 1, 1, out);
  }
}

TEST(SliceCopy, LargerDimWithManySteps) {
  OwnedTensor in(ScalarType::Half, {3, 300}, {1, 0});
  filled(in);
  for (int64_t step : {1, 2, 7, 64, 299, 300, 301})
    for (int64_t s : {0, 1, 150, 299, -300, -1}) expect_slice(in, 1, s, std::nullopt, step);
}

TEST(SliceCopy, InputIsNotModified) {
  OwnedTensor in(ScalarType::Double, {3, 4}, {1, 0});
  filled(in);
  std::vector<uint8_t> before(in.buffer(), in.buffer() + in.t.nbytes());
  expect_slice(in, 1, 1, 3, 1);
  expect_slice(in, 0, 0, 3, 2);
  EXPECT_EQ(std::memcmp(before.data(), in.buffer(), before.size()), 0);
}

}  // namespace
}  // namespace slicefuzz
