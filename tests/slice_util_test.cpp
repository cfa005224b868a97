// The shared slicing facts (kernels/util): normalize_slice, normalize_dim and the
// argument checks against a 128-bit reference; slice_is_dense against brute force
// over every small shape and dim order; strided_copy; add_ per dtype; and the
// oracle-domain adapter on its own. Runs under UBSan: any overflow aborts.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "kernels/kernels.h"
#include "kernels/util/element_ops.h"
#include "kernels/util/reduced_float.h"
#include "kernels/util/slice_util.h"
#include "kernels/util/strided_copy.h"
#include "oracles/domain_adapter.h"
#include "tests/test_tensors.h"

namespace slicefuzz {
namespace {

using namespace slicefuzz::testing;

// start/end values worth trying for a dim of size n: everything near 0 and n, and
// the int64 extremes and 2^62 boundaries.
std::vector<OptInt> interesting_bounds(int64_t n) {
  std::vector<OptInt> v{std::nullopt, kI64Min, kI64Min + 1, -k2p62 - 1, -k2p62, -k2p62 + 1,
                        k2p62 - 1,    k2p62,   k2p62 + 1,   kI64Max - 1, kI64Max};
  for (int64_t i = -3; i <= 3; ++i) {
    v.push_back(i);
    if (n < k2p62) {
      v.push_back(n + i);
      v.push_back(-n + i);
    }
  }
  return v;
}
std::vector<int64_t> interesting_steps(int64_t n) {
  std::vector<int64_t> v{k2p62 - 1, k2p62, k2p62 + 1, kI64Max - 1, kI64Max, int64_t{1} << 32};
  for (int64_t i = 1; i <= std::min<int64_t>(n + 2, 9); ++i) v.push_back(i);
  if (n > 1 && n < k2p62) v.insert(v.end(), {n - 1, n, n + 1});
  return v;
}
const int64_t kSizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, int64_t{1} << 40, k2p62 - 1, k2p62};

TEST(NormalizeSlice, MatchesReferenceForAllInterestingValues) {
  int64_t checked = 0;
  for (int64_t n : kSizes)
    for (OptInt s : interesting_bounds(n))
      for (OptInt e : interesting_bounds(n))
        for (int64_t step : interesting_steps(n)) {
          const SliceRange r = normalize_slice(n, s, e, step);
          const RefSlice want = ref_normalize(n, s, e, step);
          ASSERT_EQ(r.start, want.start) << n << " " << opt_str(s) << " " << opt_str(e) << " " << step;
          ASSERT_EQ(r.length, want.length) << n << " " << opt_str(s) << " " << opt_str(e) << " " << step;
          ASSERT_EQ(r.step, step);
          ASSERT_TRUE(r.start >= 0 && r.start <= n);
          if (r.length > 0)  // the last element is in range
            ASSERT_LT(__int128(r.start) + __int128(r.length - 1) * step, __int128(n));
          ++checked;
        }
  EXPECT_GT(checked, 100000);
}

TEST(NormalizeSlice, DesignRules) {
  struct Row {
    int64_t n;
    OptInt s, e;
    int64_t step, start, len;
  };
  const Row rows[] = {
      {5, {}, {}, 1, 0, 5},            // missing start = 0, end = size
      {5, -2, {}, 1, 3, 2},            // negative + size
      {5, -7, 3, 1, 0, 3},             // clamp low
      {5, 2, 9, 1, 2, 3},              // clamp high
      {5, 3, 1, 1, 3, 0},              // end < start: empty
      {5, 0, 5, 2, 0, 3},              // ceil(5 / 2)
      {5, 1, 5, 3, 1, 2},              // ceil(4 / 3)
      {5, kI64Min, kI64Max, kI64Max, 0, 1},
      {5, kI64Max, kI64Min, 1, 5, 0},
      {5, -k2p62, k2p62, k2p62, 0, 1},
      {0, {}, {}, 1, 0, 0},
      {0, kI64Min, kI64Max, 1, 0, 0},
      {k2p62, -1, {}, 1, k2p62 - 1, 1},
      {k2p62, kI64Min, kI64Max, 1, 0, k2p62},
      {k2p62, 1, kI64Max, 2, 1, k2p62 / 2},
      {k2p62, 0, {}, kI64Max, 0, 1},
  };
  for (const Row& r : rows) {
    SliceRange got = normalize_slice(r.n, r.s, r.e, r.step);
    EXPECT_EQ(got.start, r.start) << r.n << " " << opt_str(r.s) << " " << opt_str(r.e);
    EXPECT_EQ(got.length, r.len) << r.n << " " << opt_str(r.s) << " " << opt_str(r.e);
  }
}

TEST(NormalizeDim, RangeAndRankZero) {
  for (int64_t dim : {int64_t{0}, int64_t{-1}, int64_t{1}, kI64Min, kI64Max})
    EXPECT_FALSE(normalize_dim(dim, 0).has_value());
  for (int rank = 1; rank <= kMaxRank; ++rank) {
    for (int64_t dim = -rank; dim < rank; ++dim)
      EXPECT_EQ(normalize_dim(dim, rank), std::optional<int>(dim < 0 ? dim + rank : dim));
    for (int64_t dim : {int64_t{rank}, int64_t{-rank - 1}, kI64Min, kI64Max, kI64Min + 1,
                        int64_t{1} << 32, -(int64_t{1} << 32)})
      EXPECT_FALSE(normalize_dim(dim, rank).has_value()) << dim << " rank " << rank;
  }
}

TEST(SliceArgsError, EachRule) {
  OwnedTensor scalar(ScalarType::Float, {}), t(ScalarType::Float, {3, 4});
  EXPECT_NE(slice_args_error(scalar.t, 0, 1), "");
  EXPECT_EQ(slice_args_error(t.t, 1, 1), "");
  EXPECT_EQ(slice_args_error(t.t, -2, kI64Max), "");
  for (int64_t dim : {int64_t{2}, int64_t{-3}, kI64Min, kI64Max}) EXPECT_NE(slice_args_error(t.t, dim, 1), "");
  for (int64_t step : {int64_t{0}, int64_t{-1}, kI64Min}) EXPECT_NE(slice_args_error(t.t, 0, step), "");
}

// Brute force, from the definition: the view (offset start*stride[d], strides
// with stride[d]*step) addresses element idx at view_base + canonical(idx) for
// every idx of the result, i.e. it is laid out exactly like a fresh tensor.
bool brute_force_dense(const Sizes& sizes, const Order& order, int d, const SliceRange& r) {
  Sizes res = sizes;
  res[d] = r.length;
  if (ref_numel(res) == 0) return true;
  const Sizes st = ref_strides(sizes, order), canon = ref_strides(res, order);
  Sizes view = st;
  view[d] = st[d] * (r.length > 1 ? r.step : 1);
  bool dense = true;
  for_each_index(res, [&](const Sizes& idx) {
    if (offset_of(idx, view) != offset_of(idx, canon)) dense = false;
  });
  return dense;
}

TEST(SliceIsDense, ClosedFormEqualsBruteForceExhaustively) {
  int64_t dense = 0, not_dense = 0;
  for (int rank = 1; rank <= 4; ++rank) {
    const int64_t max_size = rank == 4 ? 3 : 4;
    Sizes sizes(rank, 0);
    for (;;) {
      Order order = identity_order(rank);
      do {
        for (int d = 0; d < rank; ++d) {
          const int64_t n = sizes[d];
          for (int64_t s = 0; s <= n; ++s)
            for (int64_t e = s; e <= n; ++e)
              for (int64_t step = 1; step <= n + 1; ++step) {
                SliceRange r;
                r.start = s;
                r.step = step;
                r.length = e > s ? (e - s + step - 1) / step : 0;
                const bool want = brute_force_dense(sizes, order, d, r);
                ASSERT_EQ(slice_is_dense(sizes.data(), order.data(), rank, d, r), want)
                    << sizes_str(sizes) << order_str(order) << " d=" << d << " start=" << s
                    << " len=" << r.length << " step=" << step;
                (want ? dense : not_dense)++;
              }
        }
      } while (std::next_permutation(order.begin(), order.end()));
      int k = 0;  // next shape
      while (k < rank && ++sizes[k] > max_size) sizes[k++] = 0;
      if (k == rank) break;
    }
  }
  EXPECT_GT(dense, 10000);
  EXPECT_GT(not_dense, 10000);
}

TEST(SliceIsDense, AliasOffset) {
  OwnedTensor t(ScalarType::Float, {3, 4, 5}, {2, 0, 1});  // strides {4, 1, 12}
  ASSERT_EQ(ref_strides(t.sizes(), t.order()), (Sizes{4, 1, 12}));
  EXPECT_EQ(slice_alias_offset_elems(t.t, 2, SliceRange{3, 2, 1}), 36);
  EXPECT_EQ(slice_alias_offset_elems(t.t, 0, SliceRange{2, 1, 1}), 8);
  EXPECT_EQ(slice_alias_offset_elems(t.t, 2, SliceRange{5, 0, 1}), 0);  // empty
  EXPECT_EQ(slice_alias_offset_elems(t.t, 1, SliceRange{4, 0, 1}), 0);
  OwnedTensor e(ScalarType::Float, {3, 0, 5});
  EXPECT_EQ(slice_alias_offset_elems(e.t, 0, SliceRange{2, 1, 1}), 0);  // another dim empty
}

// strided_copy between two layouts of the same logical tensor, every element size.
void check_copy(const Sizes& sizes, const Order& src_order, const Order& dst_order, ScalarType dt) {
  OwnedTensor src(dt, sizes, src_order), dst(dt, sizes, dst_order);
  src.fill_pattern(3);
  const Sizes ss = ref_strides(sizes, src_order), ds = ref_strides(sizes, dst_order);
  strided_copy(dst.buffer(), ds.data(), src.buffer(), ss.data(), sizes.data(),
               static_cast<int>(sizes.size()), element_size(dt));
  const size_t es = element_size(dt);
  if (ref_numel(sizes) == 0) EXPECT_TRUE(dst.untouched());
  for_each_index(sizes, [&](const Sizes& idx) {
    ASSERT_EQ(std::memcmp(dst.elem(idx), src.elem(idx), es), 0)
        << sizes_str(sizes) << order_str(src_order) << "->" << order_str(dst_order) << " at "
        << sizes_str(idx);
  });
}

TEST(StridedCopy, EveryPairOfDimOrders) {
  for (const Sizes& sizes : {Sizes{2, 3, 4}, Sizes{1, 3, 1}, Sizes{3, 1, 5}, Sizes{2, 0, 3}, Sizes{4, 4, 4}}) {
    Order a = identity_order(3);
    do {
      Order b = identity_order(3);
      do {
        for (ScalarType dt : {ScalarType::Bool, ScalarType::Short, ScalarType::Float, ScalarType::Long})
          check_copy(sizes, a, b, dt);
      } while (std::next_permutation(b.begin(), b.end()));
    } while (std::next_permutation(a.begin(), a.end()));
  }
  check_copy({}, {}, {}, ScalarType::Double);  // rank 0: one element
  check_copy({2, 3, 2, 3}, {0, 2, 3, 1}, {3, 1, 0, 2}, ScalarType::Half);
}

TEST(StridedCopy, StridedSourceAndGappedDestination) {
  // Source: every 3rd column of a [4, 10] int32; destination: the odd rows of an
  // [8, 4] buffer. Elements outside the destination region stay untouched.
  OwnedTensor src(ScalarType::Int, {4, 10}), dst(ScalarType::Int, {8, 4});
  src.fill_pattern();
  const int64_t sizes[] = {4, 4}, ss[] = {10, 3}, ds[] = {8, 1};
  strided_copy(dst.buffer() + 4 * 4, ds, src.buffer(), ss, sizes, 2, 4);
  for (int64_t r = 0; r < 8; ++r)
    for (int64_t c = 0; c < 4; ++c) {
      const uint8_t* got = dst.elem({r, c});
      if (r % 2 == 0) {
        EXPECT_EQ(got[0], OwnedTensor::kSentinel) << r << "," << c;
      } else {
        EXPECT_EQ(std::memcmp(got, src.elem({r / 2, 3 * c}), 4), 0) << r << "," << c;
      }
    }
}

TEST(StridedCopy, SizeOneDimsIgnoreTheirStrides) {
  // A size-1 dim's stride may be anything (a huge step): it must never be used.
  OwnedTensor src(ScalarType::Long, {3, 4}), dst(ScalarType::Long, {3, 1, 4});
  src.fill_pattern();
  const int64_t sizes[] = {3, 1, 4}, ss[] = {4, kI64Max, 1}, ds[] = {4, -(int64_t{1} << 50), 1};
  strided_copy(dst.buffer(), ds, src.buffer(), ss, sizes, 3, 8);
  EXPECT_EQ(std::memcmp(dst.buffer(), src.buffer(), 12 * 8), 0);
}

// add_: the expected results are written out by hand (bit patterns for the
// reduced floats), not computed with the kernel's own helpers.
template <typename T>
T add_one(ScalarType dt, T x, int64_t k) {
  uint8_t buf[sizeof(T)];
  std::memcpy(buf, &x, sizeof(T));
  add_scalar_element(dt, buf, k);
  T r;
  std::memcpy(&r, buf, sizeof(T));
  return r;
}

TEST(AddScalar, IntegersWrapAndConvertKFirst) {
  EXPECT_EQ(add_one<uint8_t>(ScalarType::Byte, 250, 10), 4);
  EXPECT_EQ(add_one<uint8_t>(ScalarType::Byte, 0, -1), 255);
  EXPECT_EQ(add_one<uint8_t>(ScalarType::Byte, 7, 256), 7);
  EXPECT_EQ(add_one<uint8_t>(ScalarType::Byte, 7, kI64Min), 7);
  EXPECT_EQ(add_one<uint8_t>(ScalarType::Byte, 7, kI64Max), 6);
  EXPECT_EQ(add_one<int8_t>(ScalarType::Char, 127, 1), -128);
  EXPECT_EQ(add_one<int8_t>(ScalarType::Char, -128, -1), 127);
  EXPECT_EQ(add_one<int8_t>(ScalarType::Char, 5, 128), -123);
  EXPECT_EQ(add_one<int16_t>(ScalarType::Short, 32767, 1), -32768);
  EXPECT_EQ(add_one<int16_t>(ScalarType::Short, 9, 65536 * 3 + 2), 11);
  EXPECT_EQ(add_one<int32_t>(ScalarType::Int, INT32_MAX, 1), INT32_MIN);
  EXPECT_EQ(add_one<int32_t>(ScalarType::Int, 1, (int64_t{1} << 32) + 5), 6);
  EXPECT_EQ(add_one<int64_t>(ScalarType::Long, kI64Max, 1), kI64Min);
  EXPECT_EQ(add_one<int64_t>(ScalarType::Long, kI64Min, kI64Min), 0);
  EXPECT_EQ(add_one<int64_t>(ScalarType::Long, -1, kI64Max), kI64Max - 1);
}

TEST(AddScalar, BoolAddsModuloTwo) {
  for (uint8_t x : {0, 1}) {
    EXPECT_EQ(add_one<uint8_t>(ScalarType::Bool, x, 1), 1 - x);
    EXPECT_EQ(add_one<uint8_t>(ScalarType::Bool, x, -1), 1 - x);
    EXPECT_EQ(add_one<uint8_t>(ScalarType::Bool, x, 2), x);
    EXPECT_EQ(add_one<uint8_t>(ScalarType::Bool, x, kI64Min), x);
    EXPECT_EQ(add_one<uint8_t>(ScalarType::Bool, x, kI64Max), 1 - x);
    EXPECT_EQ(add_one<uint8_t>(ScalarType::Bool, x, 0), x);
  }
}

TEST(AddScalar, ReducedFloatsRoundLikeTorch) {
  // float16: 0.5 + 1 = 1.5; 2048 + 1 ties to even 2048; 2048 + 3 ties to 2052;
  // k is rounded to half first: 1 + half(2049) = 1 + 2048 -> 2048 (not 2050);
  // 65504 + 16 -> inf; k = 70000 -> inf.
  EXPECT_EQ(add_one<uint16_t>(ScalarType::Half, 0x3800, 1), 0x3E00);
  EXPECT_EQ(add_one<uint16_t>(ScalarType::Half, 0x6800, 1), 0x6800);
  EXPECT_EQ(add_one<uint16_t>(ScalarType::Half, 0x6800, 3), 0x6802);
  EXPECT_EQ(add_one<uint16_t>(ScalarType::Half, 0x3C00, 2049), 0x6800);
  EXPECT_EQ(add_one<uint16_t>(ScalarType::Half, 0x7BFF, 16), 0x7C00);
  EXPECT_EQ(add_one<uint16_t>(ScalarType::Half, 0x0000, 70000), 0x7C00);
  EXPECT_EQ(add_one<uint16_t>(ScalarType::Half, 0x3C00, -3), 0xC000);  // 1 - 3 = -2
  // bfloat16: 1 + 256 = 257 ties to 256; 256 + 2 = 258; 0.5 + 1000 -> 1000; 1 + 3 = 4.
  EXPECT_EQ(add_one<uint16_t>(ScalarType::BFloat16, 0x3F80, 256), 0x4380);
  EXPECT_EQ(add_one<uint16_t>(ScalarType::BFloat16, 0x4380, 2), 0x4381);
  EXPECT_EQ(add_one<uint16_t>(ScalarType::BFloat16, 0x3F00, 1000), 0x447A);
  EXPECT_EQ(add_one<uint16_t>(ScalarType::BFloat16, 0x3F80, 3), 0x4080);
  EXPECT_EQ(add_one<uint16_t>(ScalarType::BFloat16, 0x0000, 257), 0x4380);  // k rounds first
  // float32 / float64.
  EXPECT_EQ(add_one<float>(ScalarType::Float, 16777216.0f, 1), 16777216.0f);
  EXPECT_EQ(add_one<float>(ScalarType::Float, 0.5f, -1), -0.5f);
  EXPECT_EQ(add_one<double>(ScalarType::Double, 9007199254740992.0, 1), 9007199254740992.0);
  EXPECT_EQ(add_one<double>(ScalarType::Double, 0.25, kI64Min), -9223372036854775808.0);
  EXPECT_TRUE(std::isnan(add_one<float>(ScalarType::Float, NAN, 1)));
}

TEST(ReducedFloat, ConversionsAreRoundToNearestEven) {
  const std::pair<float, uint16_t> half[] = {
      {1.0f, 0x3C00},   {1.5f, 0x3E00},   {2049.0f, 0x6800}, {2051.0f, 0x6802},
      {65504.f, 0x7BFF}, {65519.f, 0x7BFF}, {65520.f, 0x7C00}, {0x1p-24f, 0x0001},
      {0x1p-25f, 0x0000}, {3 * 0x1p-26f, 0x0001}, {0x1p-14f, 0x0400}, {-2.0f, 0xC000}};
  for (auto [f, h] : half) EXPECT_EQ(float_to_half(f), h) << f;
  EXPECT_EQ(float_to_half(NAN) & 0x7C00, 0x7C00);
  EXPECT_NE(float_to_half(NAN) & 0x03FF, 0);
  const std::pair<float, uint16_t> bf[] = {{1.0f, 0x3F80}, {257.f, 0x4380}, {259.f, 0x4382},
                                           {1002.f, 0x447A}, {-125.f, 0xC2FA}, {3e38f, 0x7F62}};
  for (auto [f, b] : bf) EXPECT_EQ(float_to_bfloat16(f), b) << f;
  for (uint32_t h = 0; h < 0x7C00; h += 7)  // every finite half round-trips
    EXPECT_EQ(float_to_half(half_to_float(static_cast<uint16_t>(h))), h);
}

TEST(AddScalar, OpChangesEveryElementOnceInAnyDimOrder) {
  for (const Order& o : {Order{0, 1, 2}, Order{2, 0, 1}, Order{1, 2, 0}}) {
    OwnedTensor t(ScalarType::Int, {2, 3, 4}, o);
    for (int32_t i = 0; i < 24; ++i) std::memcpy(t.buffer() + 4 * i, &i, 4);
    KernelRuntimeContext ctx;
    add_scalar_(ctx, t.t, -5);
    EXPECT_TRUE(ctx.ok());
    for (int32_t i = 0; i < 24; ++i) {
      int32_t v;
      std::memcpy(&v, t.buffer() + 4 * i, 4);
      EXPECT_EQ(v, i - 5);
    }
  }
  OwnedTensor empty(ScalarType::Double, {3, 0});
  KernelRuntimeContext ctx;
  add_scalar_(ctx, empty.t, 1);
  EXPECT_TRUE(ctx.ok());
  OwnedTensor scalar(ScalarType::Bool, {});
  scalar.buffer()[0] = 1;
  add_scalar_(ctx, scalar.t, 3);
  EXPECT_EQ(scalar.buffer()[0], 0);
}

// The adapter: adapted arguments select exactly the same elements, and lie in
// libtorch 1.13's safe domain.
TEST(DomainAdapter, AdaptedArgsAreEquivalentAndSafe) {
  int64_t checked = 0;
  for (int64_t n : kSizes)
    for (OptInt s : interesting_bounds(n))
      for (OptInt e : interesting_bounds(n))
        for (int64_t step : interesting_steps(n)) {
          const TorchSliceArgs a = adapt_slice_args_for_torch(n, s, e, step);
          const std::string desc = std::to_string(n) + " " + opt_str(s) + " " + opt_str(e) + " " +
                                   std::to_string(step);
          const RefSlice raw = ref_normalize(n, s, e, step), got = ref_normalize(n, a.start, a.end, a.step);
          ASSERT_EQ(got.start, raw.start) << desc;
          ASSERT_EQ(got.length, raw.length) << desc;
          if (raw.length > 1) ASSERT_EQ(a.step, step) << desc;
          ASSERT_EQ(a.start.has_value(), s.has_value()) << desc;
          ASSERT_EQ(a.end.has_value(), e.has_value()) << desc;
          for (OptInt v : {a.start, a.end})
            if (v) ASSERT_TRUE(*v >= -(n + 1) && *v <= n + 1) << desc;
          ASSERT_TRUE(a.step >= 1 && a.step <= std::max<int64_t>(n, 1)) << desc;
          // Values already in the safe range are left alone.
          if (s && *s >= -(n + 1) && *s <= n + 1) ASSERT_EQ(a.start, s) << desc;
          if (step <= std::max<int64_t>(n, 1)) ASSERT_EQ(a.step, step) << desc;
          ++checked;
        }
  EXPECT_GT(checked, 100000);
}

TEST(DomainAdapter, NonPositiveStepsPassThrough) {
  for (int64_t n : {0, 1, 5})
    for (int64_t step : {int64_t{0}, int64_t{-1}, int64_t{-7}, kI64Min})
      EXPECT_EQ(adapt_slice_args_for_torch(n, 1, kI64Max, step).step, step);
  const TorchSliceArgs a = adapt_slice_args_for_torch(5, kI64Min, std::nullopt, kI64Max);
  EXPECT_EQ(a.start, OptInt{-6});
  EXPECT_EQ(a.end, std::nullopt);
  EXPECT_EQ(a.step, 5);
}

}  // namespace
}  // namespace slicefuzz
