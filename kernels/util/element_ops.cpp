#include "kernels/util/element_ops.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "kernels/util/reduced_float.h"

namespace slicefuzz {

namespace {
template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
void store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}
template <typename T>
void add_wrapping(uint8_t* p, int64_t k) {
  // Unsigned arithmetic: wraps without undefined behaviour, as torch's does.
  using U = std::make_unsigned_t<T>;
  U x = static_cast<U>(load<T>(p));
  store<T>(p, static_cast<T>(static_cast<U>(x + static_cast<U>(k))));
}
}  // namespace

void write_fill_value(ScalarType t, int64_t i, uint8_t* dst) {
  switch (t) {
    case ScalarType::Bool: store<uint8_t>(dst, i % 3 == 1); break;
    case ScalarType::Byte: store<uint8_t>(dst, static_cast<uint8_t>(i % 251)); break;
    case ScalarType::Char: store<int8_t>(dst, static_cast<int8_t>(i % 251 - 125)); break;
    case ScalarType::Short: store<int16_t>(dst, static_cast<int16_t>(i % 32749 - 16374)); break;
    case ScalarType::Int: store<int32_t>(dst, static_cast<int32_t>(i)); break;
    case ScalarType::Long: store<int64_t>(dst, i); break;
    case ScalarType::Half:
      store<uint16_t>(dst, float_to_half(static_cast<float>(i % 2039 - 1019) / 2.0f));
      break;
    case ScalarType::BFloat16:
      store<uint16_t>(dst, float_to_bfloat16(static_cast<float>(i % 251 - 125)));
      break;
    case ScalarType::Float: store<float>(dst, static_cast<float>(i % (1 << 22)) + 0.5f); break;
    case ScalarType::Double: store<double>(dst, static_cast<double>(i) + 0.25); break;
  }
}

void add_scalar_element(ScalarType t, uint8_t* p, int64_t k) {
  switch (t) {
    case ScalarType::Bool: store<uint8_t>(p, static_cast<uint8_t>(load<uint8_t>(p) ^ (k & 1))); break;
    case ScalarType::Byte: add_wrapping<uint8_t>(p, k); break;
    case ScalarType::Char: add_wrapping<int8_t>(p, k); break;
    case ScalarType::Short: add_wrapping<int16_t>(p, k); break;
    case ScalarType::Int: add_wrapping<int32_t>(p, k); break;
    case ScalarType::Long: add_wrapping<int64_t>(p, k); break;
    case ScalarType::Half: {
      float kh = half_to_float(float_to_half(static_cast<float>(k)));
      store<uint16_t>(p, float_to_half(half_to_float(load<uint16_t>(p)) + kh));
      break;
    }
    case ScalarType::BFloat16: {
      float kb = bfloat16_to_float(float_to_bfloat16(static_cast<float>(k)));
      store<uint16_t>(p, float_to_bfloat16(bfloat16_to_float(load<uint16_t>(p)) + kb));
      break;
    }
    case ScalarType::Float: store<float>(p, load<float>(p) + static_cast<float>(k)); break;
    case ScalarType::Double: store<double>(p, load<double>(p) + static_cast<double>(k)); break;
  }
}

namespace {
// The element loop carries no decision worth coverage feedback (see strided_copy).
template <typename Fn>
__attribute__((no_sanitize("coverage"))) void for_each_element(uint8_t* p, int64_t n, size_t es,
                                                               Fn fn) {
  for (int64_t i = 0; i < n; ++i) fn(p + i * es);
}
}  // namespace

void add_scalar_elements(ScalarType t, uint8_t* p, int64_t n, int64_t k) {
  const size_t es = element_size(t);
  switch (t) {
    case ScalarType::Bool:
      if (k & 1) for_each_element(p, n, es, [](uint8_t* e) { *e ^= 1; });
      return;
    case ScalarType::Byte: return for_each_element(p, n, es, [k](uint8_t* e) { add_wrapping<uint8_t>(e, k); });
    case ScalarType::Char: return for_each_element(p, n, es, [k](uint8_t* e) { add_wrapping<int8_t>(e, k); });
    case ScalarType::Short: return for_each_element(p, n, es, [k](uint8_t* e) { add_wrapping<int16_t>(e, k); });
    case ScalarType::Int: return for_each_element(p, n, es, [k](uint8_t* e) { add_wrapping<int32_t>(e, k); });
    case ScalarType::Long: return for_each_element(p, n, es, [k](uint8_t* e) { add_wrapping<int64_t>(e, k); });
    default:  // floating types: the per-element rule (rounding is the cost anyway)
      return for_each_element(p, n, es, [t, k](uint8_t* e) { add_scalar_element(t, e, k); });
  }
}

double element_to_double(ScalarType t, const uint8_t* p) {
  switch (t) {
    case ScalarType::Bool: return load<uint8_t>(p) != 0;
    case ScalarType::Byte: return load<uint8_t>(p);
    case ScalarType::Char: return load<int8_t>(p);
    case ScalarType::Short: return load<int16_t>(p);
    case ScalarType::Int: return load<int32_t>(p);
    case ScalarType::Long: return static_cast<double>(load<int64_t>(p));
    case ScalarType::Half: return half_to_float(load<uint16_t>(p));
    case ScalarType::BFloat16: return bfloat16_to_float(load<uint16_t>(p));
    case ScalarType::Float: return load<float>(p);
    case ScalarType::Double: return load<double>(p);
  }
  return 0;
}

bool elements_equal(ScalarType t, const uint8_t* a, const uint8_t* b) {
  if (!is_floating(t)) return std::memcmp(a, b, element_size(t)) == 0;
  double x = element_to_double(t, a), y = element_to_double(t, b);
  return x == y || (std::isnan(x) && std::isnan(y));
}

std::string element_to_string(ScalarType t, const uint8_t* p) {
  char buf[64];
  switch (t) {
    case ScalarType::Bool: {
      const uint8_t b = load<uint8_t>(p);
      if (b <= 1) return b ? "true" : "false";
      snprintf(buf, sizeof buf, "invalid bool byte 0x%02x", b);  // garbage, not a value
      break;
    }
    case ScalarType::Long: snprintf(buf, sizeof buf, "%lld", static_cast<long long>(load<int64_t>(p))); break;
    default:
      if (is_floating(t)) snprintf(buf, sizeof buf, "%.17g", element_to_double(t, p));
      else snprintf(buf, sizeof buf, "%.0f", element_to_double(t, p));
  }
  return buf;
}

}  // namespace slicefuzz
