// The judge's float16 and bfloat16 facts (judge::encode16, decode16,
// add_to_elements) against the IEEE definition of round-to-nearest-even, checked
// at every value, every midpoint and the floats just beside each midpoint.
// Linked against sf_judge alone, like judge_facts_test. Known values are from
// torch 1.13 (c10::Half, c10::BFloat16).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "oracles/judge_facts.h"

namespace slicefuzz {
namespace {

using judge::decode16;
using judge::encode16;

struct Format16 {
  ScalarType dtype;
  const char* name;
  uint16_t inf;  // the +inf pattern: every pattern below it is a positive finite value
};
const Format16 kFormats[] = {{ScalarType::Half, "float16", 0x7C00},
                             {ScalarType::BFloat16, "bfloat16", 0x7F80}};

TEST(JudgeFloat16, KnownValues) {
  EXPECT_EQ(decode16(ScalarType::Half, 0x3C00), 1.0f);
  EXPECT_EQ(decode16(ScalarType::Half, 0x7BFF), 65504.0f);
  EXPECT_EQ(decode16(ScalarType::Half, 0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(decode16(ScalarType::Half, 0x0400), std::ldexp(1.0f, -14));  // smallest normal
  EXPECT_EQ(decode16(ScalarType::Half, 0xC000), -2.0f);
  EXPECT_TRUE(std::signbit(decode16(ScalarType::Half, 0x8000)));
  EXPECT_EQ(decode16(ScalarType::Half, 0xFC00), -INFINITY);
  EXPECT_TRUE(std::isnan(decode16(ScalarType::Half, 0x7E00)));
  EXPECT_TRUE(std::isnan(decode16(ScalarType::Half, 0xFC01)));
  EXPECT_EQ(decode16(ScalarType::BFloat16, 0x3F80), 1.0f);
  EXPECT_EQ(decode16(ScalarType::BFloat16, 0x4049), 3.140625f);
  EXPECT_EQ(decode16(ScalarType::BFloat16, 0x7F7F), 3.3895313892515355e38f);
  EXPECT_EQ(decode16(ScalarType::BFloat16, 0x0001), std::ldexp(1.0f, -133));
  EXPECT_EQ(decode16(ScalarType::BFloat16, 0x7F80), INFINITY);

  EXPECT_EQ(encode16(ScalarType::Half, 65504.0f), 0x7BFF);
  EXPECT_EQ(encode16(ScalarType::Half, 65519.0f), 0x7BFF);
  EXPECT_EQ(encode16(ScalarType::Half, 65520.0f), 0x7C00);  // the tie past the largest: inf
  EXPECT_EQ(encode16(ScalarType::Half, -65520.0f), 0xFC00);
  EXPECT_EQ(encode16(ScalarType::Half, 1.0f / 3), 0x3555);
  EXPECT_EQ(encode16(ScalarType::Half, 0.1f), 0x2E66);
  EXPECT_EQ(encode16(ScalarType::Half, 2049.0f), 0x6800);  // tie: even 2048
  EXPECT_EQ(encode16(ScalarType::Half, 2051.0f), 0x6802);  // tie: even 2052
  EXPECT_EQ(encode16(ScalarType::Half, std::ldexp(1.0f, -25)), 0x0000);  // tie with 0
  EXPECT_EQ(encode16(ScalarType::Half, std::ldexp(1.0f, -126)), 0x0000);  // float's smallest normal
  EXPECT_EQ(encode16(ScalarType::Half, std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(encode16(ScalarType::Half, -std::numeric_limits<float>::denorm_min()), 0x8000);
  EXPECT_EQ(encode16(ScalarType::Half, std::numeric_limits<float>::max()), 0x7C00);
  EXPECT_EQ(encode16(ScalarType::BFloat16, 1.0f / 3), 0x3EAB);
  EXPECT_EQ(encode16(ScalarType::BFloat16, 0.1f), 0x3DCD);
  EXPECT_EQ(encode16(ScalarType::BFloat16, 257.0f), 0x4380);  // tie: even 256
  EXPECT_EQ(encode16(ScalarType::BFloat16, std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(encode16(ScalarType::BFloat16, std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(encode16(ScalarType::BFloat16, std::ldexp(1.0f, -126)), 0x0080);  // exact in bfloat16

  EXPECT_EQ(encode16(ScalarType::Half, INFINITY), 0x7C00);
  EXPECT_EQ(encode16(ScalarType::Half, -INFINITY), 0xFC00);
  EXPECT_EQ(encode16(ScalarType::Half, NAN), 0x7E00);
  EXPECT_EQ(encode16(ScalarType::Half, -NAN), 0xFE00);  // c10::Half keeps a NaN's sign
  EXPECT_EQ(encode16(ScalarType::BFloat16, -NAN), 0x7FC0);  // c10::BFloat16 does not
  EXPECT_EQ(encode16(ScalarType::BFloat16, -INFINITY), 0xFF80);
}

// Every finite pattern decodes to a value that encodes back to it, and the
// positive values ascend with their patterns (the table encode searches).
TEST(JudgeFloat16, EveryFiniteValueRoundTrips) {
  for (const Format16& f : kFormats) {
    for (uint32_t b = 0; b < f.inf; ++b) {
      const uint16_t pos = static_cast<uint16_t>(b), neg = static_cast<uint16_t>(b | 0x8000);
      ASSERT_EQ(encode16(f.dtype, decode16(f.dtype, pos)), pos) << f.name << " " << b;
      ASSERT_EQ(encode16(f.dtype, decode16(f.dtype, neg)), neg) << f.name << " " << b;
      ASSERT_EQ(decode16(f.dtype, neg), -decode16(f.dtype, pos)) << f.name << " " << b;
      if (b > 0) ASSERT_LT(decode16(f.dtype, pos - 1), decode16(f.dtype, pos)) << f.name << " " << b;
    }
  }
}

// Between consecutive values b and b+1 (and between the largest finite value and
// the next power of two, which stands for infinity): the midpoint goes to the
// even pattern, the floats just below and above it to the nearer value. Every
// midpoint is a float: float16 and bfloat16 values need at most 11 significant
// bits (exponents >= -133), their midpoints one more, float has 24 (>= -149).
TEST(JudgeFloat16, MidpointsTieToEvenAndTheirNeighboursToTheNearer) {
  for (const Format16& f : kFormats) {
    for (uint32_t b = 0; b < f.inf; ++b) {
      const double lo = decode16(f.dtype, static_cast<uint16_t>(b));
      const double hi = b + 1 < f.inf ? decode16(f.dtype, static_cast<uint16_t>(b + 1))
                                       : 2 * lo - decode16(f.dtype, static_cast<uint16_t>(b - 1));
      const float mid = static_cast<float>((lo + hi) / 2);
      ASSERT_EQ(static_cast<double>(mid), (lo + hi) / 2) << f.name << " " << b;
      const uint16_t even = static_cast<uint16_t>(b % 2 == 0 ? b : b + 1);
      for (const uint16_t sign : {uint16_t{0}, uint16_t{0x8000}}) {
        const float s = sign ? -1.0f : 1.0f;
        const auto pattern = [&](uint32_t v) { return static_cast<uint16_t>(sign | v); };
        ASSERT_EQ(encode16(f.dtype, s * mid), pattern(even)) << f.name << " " << b;
        ASSERT_EQ(encode16(f.dtype, s * std::nextafter(mid, 0.0f)), pattern(b)) << f.name << " " << b;
        ASSERT_EQ(encode16(f.dtype, s * std::nextafter(mid, INFINITY)), pattern(b + 1))
            << f.name << " " << b;
      }
    }
  }
}

// add_(x, k) over n elements at once equals the one-element rule on each, for
// every dtype (float16/bfloat16: k is rounded once, the sums one by one).
TEST(JudgeFloat16, AddToElementsEqualsAddToEachElement) {
  const ScalarType dtypes[] = {ScalarType::Bool,  ScalarType::Byte,     ScalarType::Char,
                               ScalarType::Short, ScalarType::Int,      ScalarType::Long,
                               ScalarType::Half,  ScalarType::BFloat16, ScalarType::Float,
                               ScalarType::Double};
  const int64_t n = 2039;
  for (ScalarType t : dtypes) {
    for (int64_t k : {int64_t{-3}, int64_t{1}, int64_t{2049}, int64_t{65024}, int64_t{1} << 40}) {
      const size_t es = element_size(t);
      std::vector<uint8_t> whole(n * es), each(n * es);
      for (int64_t i = 0; i < n; ++i) judge::fill_element(t, i * 7, &whole[i * es]);
      each = whole;
      judge::add_to_elements(t, whole.data(), n, k);
      for (int64_t i = 0; i < n; ++i) judge::add_to_element(t, &each[i * es], k);
      EXPECT_EQ(whole, each) << scalar_type_name(t) << " k=" << k;
    }
  }
  // float16: k = 2049 rounds to 2048 before the add, so 1 + 2049 is 2049 -> 2048.
  uint8_t e[2];
  judge::fill_element(ScalarType::Half, 1021, e);  // 1
  judge::add_to_elements(ScalarType::Half, e, 1, 2049);
  EXPECT_EQ(decode16(ScalarType::Half, static_cast<uint16_t>(e[0] | e[1] << 8)), 2048.0f);
}

}  // namespace
}  // namespace slicefuzz
