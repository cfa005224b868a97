// float16 / bfloat16 <-> float, bit-exact with c10::Half and c10::BFloat16
// (round to nearest even), so the kernels compute what torch computes.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

namespace slicefuzz {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline float half_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0) {
    float v = static_cast<float>(mant) * 0x1p-24f;  // zero or subnormal
    return sign ? -v : v;
  }
  if (exp == 31) return bits_float(sign | 0x7f800000u | (mant << 13));
  return bits_float(sign | ((exp + 112) << 23) | (mant << 13));
}

// The FP16 library's fp16_ieee_from_fp32_value, which c10::Half uses.
inline uint16_t float_to_half(float f) {
  const float scale_to_inf = 0x1.0p+112f;
  const float scale_to_zero = 0x1.0p-110f;
  float base = (std::fabs(f) * scale_to_inf) * scale_to_zero;
  const uint32_t w = float_bits(f);
  const uint32_t shl1_w = w + w;
  const uint32_t sign = w & 0x80000000u;
  uint32_t bias = shl1_w & 0xFF000000u;
  if (bias < 0x71000000u) bias = 0x71000000u;
  base = bits_float((bias >> 1) + 0x07800000u) + base;
  const uint32_t bits = float_bits(base);
  const uint32_t exp_bits = (bits >> 13) & 0x00007C00u;
  const uint32_t mantissa_bits = bits & 0x00000FFFu;
  const uint32_t nonsign = exp_bits + mantissa_bits;
  return static_cast<uint16_t>((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
}

inline float bfloat16_to_float(uint16_t b) { return bits_float(static_cast<uint32_t>(b) << 16); }

// c10::detail::round_to_nearest_even
inline uint16_t float_to_bfloat16(float f) {
  if (std::isnan(f)) return 0x7FC0;
  uint32_t u = float_bits(f);
  uint32_t rounding_bias = ((u >> 16) & 1) + 0x7FFFu;
  return static_cast<uint16_t>((u + rounding_bias) >> 16);
}

}  // namespace slicefuzz
