#include "kernels/util/element_ops.h"

#include <cstring>
#include <type_traits>

#include "kernels/util/planted_bug.h"
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
      if ((k & 1) || planted(PlantedBug::AddBoolAlwaysFlips)) for_each_element(p, n, es, [](uint8_t* e) { *e ^= 1; });
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

}  // namespace slicefuzz
