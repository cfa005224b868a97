#include "oracles/judge_inexact.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "oracles/judge_facts.h"

namespace slicefuzz::judge {

namespace {

struct FloatFormat {
  int mantissa_bits;  // stored bits of the significand
  int min_exponent;   // the smallest normal is 2^min_exponent
};

FloatFormat format_of(ScalarType t) {
  switch (t) {
    case ScalarType::Half: return {10, -14};
    case ScalarType::BFloat16: return {7, -126};
    case ScalarType::Double: return {52, -1022};
    default: return {23, -126};  // float32, and what sigmoid promotes integers to
  }
}

double smallest_normal(ScalarType t) { return std::ldexp(1.0, format_of(t).min_exponent); }

double transcendental_rounding(ScalarType t, double y) {
  return 2 * kInexactUlps * spacing(t, y) + smallest_normal(t);
}

template <typename F>
void each_value(ScalarType from, const uint8_t* in, ScalarType to, uint8_t* out, int64_t n, F f) {
  const size_t in_es = element_size(from), out_es = element_size(to);
  for (int64_t i = 0; i < n; ++i)
    store_value(to, f(element_value(from, in + static_cast<size_t>(i) * in_es)),
                out + static_cast<size_t>(i) * out_es);
}

}  // namespace

double spacing(ScalarType t, double m) {
  m = std::fabs(m);
  if (!std::isfinite(m)) return std::numeric_limits<double>::infinity();
  const FloatFormat f = format_of(t);
  const int e = m == 0 ? f.min_exponent : std::max(std::ilogb(m), f.min_exponent);
  return std::ldexp(1.0, e - f.mantissa_bits);
}

void store_value(ScalarType t, double y, uint8_t* out) {
  switch (t) {
    case ScalarType::Half:
    case ScalarType::BFloat16: {
      const uint16_t bits = encode16(t, static_cast<float>(y));
      std::memcpy(out, &bits, 2);
      return;
    }
    case ScalarType::Double: std::memcpy(out, &y, 8); return;
    default: {
      const float f = static_cast<float>(y);
      std::memcpy(out, &f, 4);
      return;
    }
  }
}

void sigmoid_elements(ScalarType from, const uint8_t* in, ScalarType to, uint8_t* out, int64_t n) {
  each_value(from, in, to, out, n, [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
}

void gelu_elements(ScalarType from, const uint8_t* in, ScalarType to, uint8_t* out, int64_t n) {
  each_value(from, in, to, out, n, [](double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); });
}

double sigmoid_bound(ScalarType t, double y, double e) {
  return 0.25 * e + transcendental_rounding(t, y);
}

double gelu_bound(ScalarType t, double x, double y, double e) {
  // torch's erf is good to a few ulps of 1 absolute: times 0.5 * |x| in y.
  return 1.13 * e + transcendental_rounding(t, y) + kInexactUlps * std::fabs(x) * spacing(t, 1.0);
}

double add_bound(ScalarType t, double y, double e) {
  if (e == 0) return 0;
  return e + spacing(t, std::fabs(y) + e);
}

double mul_bound(ScalarType t, double y, double e, int64_t k) {
  if (e == 0) return 0;
  // k as the dtype holds it: within one part in 2^7 (bfloat16) of k.
  const double scaled = e * std::fabs(static_cast<double>(k)) * (1 + 1.0 / 128);
  return scaled + spacing(t, std::fabs(y) + scaled);
}

double add_tensor_bound(ScalarType t, double y, double ea, double eb) {
  if (ea == 0 && eb == 0) return 0;
  return ea + eb + spacing(t, std::fabs(y) + ea + eb);
}

double mul_tensor_bound(ScalarType t, double a, double b, double y, double ea, double eb) {
  if (ea == 0 && eb == 0) return 0;
  const double e = std::fabs(b) * ea + std::fabs(a) * eb + ea * eb;
  if (std::isnan(e)) return std::numeric_limits<double>::infinity();  // an infinite factor times a zero bound
  return e + spacing(t, std::fabs(y) + e);
}

}  // namespace slicefuzz::judge
