#include "oracles/judge_facts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace slicefuzz::judge {

namespace {

using i128 = __int128;

i128 clamp_position(std::optional<int64_t> v, i128 fallback, i128 size) {
  if (!v) return fallback;
  i128 x = *v;
  if (x < 0) x += size;
  return std::clamp<i128>(x, 0, size);
}

}  // namespace

int dim_index(int rank, int64_t dim) {
  const i128 d = dim < 0 ? i128{dim} + rank : i128{dim};  // 128 bits: never overflows
  return rank > 0 && d >= 0 && d < rank ? static_cast<int>(d) : -1;
}

std::string slice_error(int rank, int64_t dim, int64_t step) {
  char buf[160];
  if (rank == 0) return "slice_copy of a 0-dim tensor";
  if (dim_index(rank, dim) < 0) {
    std::snprintf(buf, sizeof buf, "dim %lld is outside [%d, %d] for rank %d", (long long)dim,
                  -rank, rank - 1, rank);
    return buf;
  }
  if (step <= 0) {
    std::snprintf(buf, sizeof buf, "step %lld is not positive", (long long)step);
    return buf;
  }
  return {};
}

std::string select_error(const std::vector<int64_t>& sizes, int64_t dim, int64_t index) {
  char buf[160];
  const int rank = static_cast<int>(sizes.size());
  if (rank == 0) return "select of a 0-dim tensor";
  const int d = dim_index(rank, dim);
  if (d < 0) {
    std::snprintf(buf, sizeof buf, "dim %lld is outside [%d, %d] for rank %d", (long long)dim,
                  -rank, rank - 1, rank);
    return buf;
  }
  if (index < -sizes[d] || index >= sizes[d]) {
    std::snprintf(buf, sizeof buf, "select: index %lld is out of range for dim %d of size %lld",
                  (long long)index, d, (long long)sizes[d]);
    return buf;
  }
  return {};
}

SliceSpan normalize_slice_args(const std::vector<int64_t>& sizes, int64_t dim,
                               std::optional<int64_t> start, std::optional<int64_t> end,
                               int64_t step) {
  SliceSpan s;
  s.dim = dim_index(static_cast<int>(sizes.size()), dim);
  const i128 n = sizes[s.dim];
  const i128 b = clamp_position(start, 0, n), e = clamp_position(end, n, n);
  const i128 len = e > b ? (e - b + step - 1) / step : 0;
  s.start = static_cast<int64_t>(b);
  s.length = static_cast<int64_t>(len);
  s.step = step;
  return s;
}

std::vector<int64_t> strides_for(const std::vector<int64_t>& sizes,
                                 const std::vector<int>& dim_order) {
  std::vector<int64_t> strides;
  strides_into(sizes, dim_order, strides);
  return strides;
}

void strides_into(const std::vector<int64_t>& sizes, const std::vector<int>& dim_order,
                  std::vector<int64_t>& strides) {
  const size_t r = sizes.size();
  strides.assign(r, 1);
  // Walk the dims from innermost to outermost in memory order.
  int64_t running = 1;
  for (size_t k = r; k-- > 0;) {
    const size_t dim = dim_order.empty() ? k : static_cast<size_t>(dim_order[k]);
    strides[dim] = running;
    running *= sizes[dim] > 1 ? sizes[dim] : 1;
  }
}

StridedView slice_view(const std::vector<int64_t>& sizes, const std::vector<int>& dim_order,
                       const SliceSpan& span) {
  StridedView v;
  v.sizes = sizes;
  v.strides = strides_for(sizes, dim_order);
  v.sizes[span.dim] = span.length;
  // In 128 bits: stride * step overflows int64 for huge steps. torch's own view
  // keeps the (wrapped) product, but with one element along the dim the stride
  // never matters, so the canonical stride stands in for it there.
  const i128 stepped = i128{v.strides[span.dim]} * span.step;
  v.offset = static_cast<int64_t>(i128{span.start} * v.strides[span.dim]);
  if (span.length > 1) v.strides[span.dim] = static_cast<int64_t>(stepped);
  bool empty = false;
  for (int64_t s : v.sizes) empty = empty || s == 0;
  if (empty) v.offset = 0;
  return v;
}

bool view_is_dense(const StridedView& v, const std::vector<int>& dim_order) {
  for (int64_t s : v.sizes)
    if (s == 0) return true;
  const std::vector<int64_t> canonical = strides_for(v.sizes, dim_order);
  for (size_t j = 0; j < v.sizes.size(); ++j)
    if (v.sizes[j] > 1 && v.strides[j] != canonical[j]) return false;
  return true;
}

std::optional<int64_t> tensor_bytes(const std::vector<int64_t>& sizes, ScalarType dtype) {
  constexpr i128 kMax = INT64_MAX;
  i128 bytes = static_cast<i128>(element_size(dtype)), span = bytes;
  for (int64_t s : sizes) {
    if (s < 0) return std::nullopt;
    bytes *= s;
    span *= s > 1 ? s : 1;
    if (span > kMax) return std::nullopt;  // bytes <= span
  }
  return static_cast<int64_t>(bytes);
}

// ---------------------------------------------------------------- elements

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

// 16-bit floats by their value tables, not by bit tricks: decode is the IEEE
// definition, encode picks the nearest finite value (ties to the even pattern)
// by binary search. `mantissa_bits` is 10 for float16, 7 for bfloat16.
//
// Both run per element of every float16/bfloat16 add_, so both are cached:
// decode is a table of all 65536 patterns, filled from the definition; encode
// binary-searches only the part of the table a float's bucket can land in.
struct Float16Format {
  int exponent_bits, mantissa_bits;
  uint16_t nan, inf;
  std::vector<double> positives;  // value of each positive finite pattern, ascending
  double overflow_at;             // at or above: infinity
  std::vector<float> decoded;     // decode(b) for every pattern b, as a float
  // first_at_or_above[key] = lower_bound(positives, bucket_floor(key)) for every
  // bucket key 0..0x7F80, where key = (bits of a positive float) >> 16 and
  // bucket_floor(key) = the float whose bits are key << 16 (0x7F80: +inf).
  std::vector<uint32_t> first_at_or_above;

  Float16Format(int e, int m, uint16_t nan_bits)
      : exponent_bits(e), mantissa_bits(m), nan(nan_bits),
        inf(static_cast<uint16_t>(((1u << e) - 1) << m)) {
    for (uint32_t b = 0; b < inf; ++b) positives.push_back(decode(static_cast<uint16_t>(b)));
    const double max = positives.back(), ulp = max - positives[positives.size() - 2];
    overflow_at = max + ulp / 2;  // the tie goes to the even pattern: infinity
    for (uint32_t b = 0; b <= 0xFFFF; ++b)
      decoded.push_back(static_cast<float>(decode(static_cast<uint16_t>(b))));
    for (uint32_t key = 0; key <= kInfKey; ++key) {
      const double floor = bucket_floor(key);
      first_at_or_above.push_back(static_cast<uint32_t>(
          std::lower_bound(positives.begin(), positives.end(), floor) - positives.begin()));
    }
  }
  static constexpr uint32_t kInfKey = 0x7F80;  // the bucket key of +inf
  static double bucket_floor(uint32_t key) {
    const uint32_t bits = key << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  // The definition (builds the tables).
  double decode(uint16_t b) const {
    const int bias = (1 << (exponent_bits - 1)) - 1;
    const uint32_t exp = (b >> mantissa_bits) & ((1u << exponent_bits) - 1);
    const uint32_t man = b & ((1u << mantissa_bits) - 1);
    const double sign = (b >> 15) ? -1.0 : 1.0;
    if (exp == (1u << exponent_bits) - 1) return man ? NAN : sign * INFINITY;
    if (exp == 0) return sign * std::ldexp(man, 1 - bias - mantissa_bits);
    return sign * std::ldexp((1u << mantissa_bits) + man, static_cast<int>(exp) - bias - mantissa_bits);
  }
  uint16_t encode(float f) const {
    if (std::isnan(f)) return nan;
    const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
    const double a = std::fabs(static_cast<double>(f));
    if (a >= overflow_at) return sign | inf;
    // lower_bound(positives, a) over the whole table, searched in a narrower
    // range with the same answer: positive floats order as their bits, so with
    // key = bits(|f|) >> 16 (finite here: key < kInfKey),
    // bucket_floor(key) <= a < bucket_floor(key + 1). lower_bound is monotone
    // in its argument, so the whole-table answer lies in [lo, end] below; every
    // entry before lo is < bucket_floor(key) <= a and the entry at end (if any)
    // is >= bucket_floor(key + 1) > a, so the first entry >= a in [lo, end), or
    // end when there is none, is exactly the whole-table answer.
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    const uint32_t key = (bits & 0x7FFFFFFFu) >> 16;
    const auto lo = positives.begin() + first_at_or_above[key];
    const auto end = positives.begin() + first_at_or_above[key + 1];
    size_t hi = std::lower_bound(lo, end, a) - positives.begin();
    // Above the largest finite value but below overflow_at: nearer the largest
    // than infinity (there is no table entry above it to compare with).
    if (hi == positives.size()) return sign | static_cast<uint16_t>(hi - 1);
    if (positives[hi] != a) {
      const double below = a - positives[hi - 1], above = positives[hi] - a;
      if (below < above || (below == above && (hi - 1) % 2 == 0)) --hi;
    }
    return sign | static_cast<uint16_t>(hi);
  }
};

const Float16Format& half_format() {
  static const Float16Format f(5, 10, 0x7E00);
  return f;
}
const Float16Format& bfloat16_format() {
  static const Float16Format f(8, 7, 0x7FC0);
  return f;
}
const Float16Format& format16(ScalarType t) {
  return t == ScalarType::Half ? half_format() : bfloat16_format();
}

// encode16 with the format looked up once (per element of a whole add_).
uint16_t encode_with(const Float16Format& fmt, ScalarType t, float f) {
  uint16_t b = fmt.encode(f);
  // c10::Half keeps the sign of a NaN; c10::BFloat16 does not.
  if (std::isnan(f) && t == ScalarType::Half && std::signbit(f)) b |= 0x8000;
  return b;
}

template <typename T, typename Op>
void wrapping(uint8_t* p, int64_t k, Op op) {
  // Two's complement wrap, computed in uint64 (no signed overflow): the low bytes
  // of x op k are those of x op (k wrapped to T), for + and *.
  const uint64_t x = static_cast<uint64_t>(static_cast<int64_t>(load<T>(p)));
  const uint64_t r = op(x, static_cast<uint64_t>(k));
  T out;
  std::memcpy(&out, &r, sizeof(T));  // little-endian: the low bytes
  store<T>(p, out);
}

// x op k on n contiguous elements, the rule add_ and mul share: k cast to the
// dtype once, as torch casts an int64 (integers wrap, floats round int64 ->
// float -> dtype), then `op` in the dtype's arithmetic (float16/bfloat16 in float,
// rounded once); bool elements take `on_bool(element, k)`.
template <typename Op, typename BoolRule>
void scalar_op_elements(ScalarType t, uint8_t* p, int64_t n, int64_t k, Op op, BoolRule on_bool) {
  // One switch per call, then a loop of the element's rule.
  const int64_t es = static_cast<int64_t>(element_size(t));
  const auto each = [&](auto one) {
    for (int64_t e = 0; e < n; ++e) one(p + e * es);
  };
  switch (t) {
    case ScalarType::Bool: return each([&](uint8_t* q) { store<uint8_t>(q, on_bool(load<uint8_t>(q) != 0, k)); });
    case ScalarType::Byte: return each([&](uint8_t* q) { wrapping<uint8_t>(q, k, op); });
    case ScalarType::Char: return each([&](uint8_t* q) { wrapping<int8_t>(q, k, op); });
    case ScalarType::Short: return each([&](uint8_t* q) { wrapping<int16_t>(q, k, op); });
    case ScalarType::Int: return each([&](uint8_t* q) { wrapping<int32_t>(q, k, op); });
    case ScalarType::Long: return each([&](uint8_t* q) { wrapping<int64_t>(q, k, op); });
    case ScalarType::Half:
    case ScalarType::BFloat16: {
      const Float16Format& fmt = format16(t);
      const float kf = fmt.decoded[encode_with(fmt, t, static_cast<float>(k))];
      return each([&](uint8_t* q) { store<uint16_t>(q, encode_with(fmt, t, op(fmt.decoded[load<uint16_t>(q)], kf))); });
    }
    case ScalarType::Float:
      return each([&](uint8_t* q) { store<float>(q, op(load<float>(q), static_cast<float>(k))); });
    case ScalarType::Double:
      return each([&](uint8_t* q) { store<double>(q, op(load<double>(q), static_cast<double>(k))); });
  }
}

// a[i] = a[i] op b[i] on n contiguous elements of one dtype: the same arithmetic
// as scalar_op_elements with b's element as k (integers wrap, float16/bfloat16 in
// float, rounded once); bool elements take `on_bool(a, b)`.
template <typename Op, typename BoolRule>
void tensor_op_elements(ScalarType t, uint8_t* a, const uint8_t* b, int64_t n, Op op, BoolRule on_bool) {
  const int64_t es = static_cast<int64_t>(element_size(t));
  const auto each = [&](auto one) {
    for (int64_t e = 0; e < n; ++e) one(a + e * es, b + e * es);
  };
  const auto wrap = [&](auto zero) {
    using T = decltype(zero);
    each([&](uint8_t* p, const uint8_t* q) { wrapping<T>(p, static_cast<int64_t>(load<T>(q)), op); });
  };
  switch (t) {
    case ScalarType::Bool:
      return each([&](uint8_t* p, const uint8_t* q) { store<uint8_t>(p, on_bool(load<uint8_t>(p) != 0, load<uint8_t>(q) != 0)); });
    case ScalarType::Byte: return wrap(uint8_t{0});
    case ScalarType::Char: return wrap(int8_t{0});
    case ScalarType::Short: return wrap(int16_t{0});
    case ScalarType::Int: return wrap(int32_t{0});
    case ScalarType::Long: return wrap(int64_t{0});
    case ScalarType::Half:
    case ScalarType::BFloat16: {
      const Float16Format& fmt = format16(t);
      return each([&](uint8_t* p, const uint8_t* q) {
        store<uint16_t>(p, encode_with(fmt, t, op(fmt.decoded[load<uint16_t>(p)], fmt.decoded[load<uint16_t>(q)])));
      });
    }
    case ScalarType::Float:
      return each([&](uint8_t* p, const uint8_t* q) { store<float>(p, op(load<float>(p), load<float>(q))); });
    case ScalarType::Double:
      return each([&](uint8_t* p, const uint8_t* q) { store<double>(p, op(load<double>(p), load<double>(q))); });
  }
}

const auto kPlus = [](auto a, auto b) { return a + b; };
const auto kTimes = [](auto a, auto b) { return a * b; };

}  // namespace

uint16_t encode16(ScalarType t, float f) { return encode_with(format16(t), t, f); }
float decode16(ScalarType t, uint16_t b) { return format16(t).decoded[b]; }

void fill_element(ScalarType t, int64_t i, uint8_t* dst) {
  switch (t) {
    case ScalarType::Bool: store<uint8_t>(dst, i % 3 == 1 ? 1 : 0); return;
    case ScalarType::Byte: store<uint8_t>(dst, static_cast<uint8_t>(i % 251)); return;
    case ScalarType::Char: store<int8_t>(dst, static_cast<int8_t>(i % 251 - 125)); return;
    case ScalarType::Short: store<int16_t>(dst, static_cast<int16_t>(i % 32749 - 16374)); return;
    case ScalarType::Int: store<int32_t>(dst, static_cast<int32_t>(static_cast<uint32_t>(i))); return;
    case ScalarType::Long: store<int64_t>(dst, i); return;
    case ScalarType::Half:
      store<uint16_t>(dst, encode16(t, static_cast<float>(i % 2039 - 1019) * 0.5f));
      return;
    case ScalarType::BFloat16: store<uint16_t>(dst, encode16(t, static_cast<float>(i % 251 - 125))); return;
    case ScalarType::Float: store<float>(dst, static_cast<float>(i % 4194304) + 0.5f); return;
    case ScalarType::Double: store<double>(dst, static_cast<double>(i) + 0.25); return;
  }
}

void add_to_element(ScalarType t, uint8_t* p, int64_t k) { add_to_elements(t, p, 1, k); }

void add_to_elements(ScalarType t, uint8_t* p, int64_t n, int64_t k) {
  // bool: addition mod 2 (torch refuses bool + int).
  scalar_op_elements(t, p, n, k, kPlus, [](bool x, int64_t k) -> uint8_t { return x != ((k % 2) != 0); });
}

void mul_elements(ScalarType t, uint8_t* p, int64_t n, int64_t k) {
  // bool: k cast to bool (k != 0), then torch's bool product, `and`.
  scalar_op_elements(t, p, n, k, kTimes, [](bool x, int64_t k) -> uint8_t { return x && k != 0; });
}

void add_tensor_elements(ScalarType t, uint8_t* a, const uint8_t* b, int64_t n) {
  tensor_op_elements(t, a, b, n, kPlus, [](bool x, bool y) -> uint8_t { return x || y; });  // torch: or
}

void mul_tensor_elements(ScalarType t, uint8_t* a, const uint8_t* b, int64_t n) {
  tensor_op_elements(t, a, b, n, kTimes, [](bool x, bool y) -> uint8_t { return x && y; });
}

void relu_elements(ScalarType t, uint8_t* p, int64_t n) {
  const int64_t es = static_cast<int64_t>(element_size(t));
  const auto each = [&](auto one) {
    for (int64_t e = 0; e < n; ++e) one(p + e * es);
  };
  const auto clamp = [&](auto zero) {
    using T = decltype(zero);
    each([&](uint8_t* q) {
      if (load<T>(q) < zero) store<T>(q, zero);
    });
  };
  switch (t) {
    case ScalarType::Bool:
    case ScalarType::Byte:
    case ScalarType::Half: return;
    case ScalarType::Char: return clamp(int8_t{0});
    case ScalarType::Short: return clamp(int16_t{0});
    case ScalarType::Int: return clamp(int32_t{0});
    case ScalarType::Long: return clamp(int64_t{0});
    case ScalarType::Float: return clamp(0.0f);
    case ScalarType::Double: return clamp(0.0);
    case ScalarType::BFloat16:
      return each([&](uint8_t* q) {
        if (decode16(t, load<uint16_t>(q)) < 0.0f) store<uint16_t>(q, 0);
      });
  }
}

double element_value(ScalarType t, const uint8_t* p) {
  switch (t) {
    case ScalarType::Bool: return load<uint8_t>(p) ? 1 : 0;
    case ScalarType::Byte: return load<uint8_t>(p);
    case ScalarType::Char: return load<int8_t>(p);
    case ScalarType::Short: return load<int16_t>(p);
    case ScalarType::Int: return load<int32_t>(p);
    case ScalarType::Long: return static_cast<double>(load<int64_t>(p));
    case ScalarType::Half:
    case ScalarType::BFloat16: return decode16(t, load<uint16_t>(p));
    case ScalarType::Float: return load<float>(p);
    case ScalarType::Double: return load<double>(p);
  }
  return 0;
}

bool same_element(ScalarType t, const uint8_t* a, const uint8_t* b) {
  switch (t) {
    case ScalarType::Half:
    case ScalarType::BFloat16:
    case ScalarType::Float:
    case ScalarType::Double: {
      const double x = element_value(t, a), y = element_value(t, b);
      return x == y || (std::isnan(x) && std::isnan(y));  // +0 == -0, NaN == NaN
    }
    default: return std::memcmp(a, b, element_size(t)) == 0;
  }
}

std::string element_text(ScalarType t, const uint8_t* p) {
  char buf[64];
  if (t == ScalarType::Bool) {
    const uint8_t b = load<uint8_t>(p);
    if (b <= 1) return b ? "true" : "false";
    std::snprintf(buf, sizeof buf, "invalid bool byte 0x%02x", b);  // garbage, not a value
  } else if (t == ScalarType::Long) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(load<int64_t>(p)));
  } else if (is_floating(t)) {
    std::snprintf(buf, sizeof buf, "%.17g", element_value(t, p));
  } else {
    std::snprintf(buf, sizeof buf, "%.0f", element_value(t, p));
  }
  return buf;
}

}  // namespace slicefuzz::judge
