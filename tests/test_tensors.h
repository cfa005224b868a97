// Test-only helpers for the kernel tests: an owning tensor with an exact-size heap
// buffer (ASan guards both edges), and a *reference* for slicing written
// independently of the kernels (own stride rule, own index normalisation in
// 128-bit arithmetic, own index loop), so that the tests can actually fail.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vocab/scalar_type.h"
#include "kernels/tensor.h"

namespace slicefuzz::testing {

using Sizes = std::vector<int64_t>;
using Order = std::vector<uint8_t>;
using OptInt = std::optional<int64_t>;

inline constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
inline constexpr int64_t k2p62 = int64_t{1} << 62;

inline constexpr ScalarType kAllDtypes[] = {
    ScalarType::Bool, ScalarType::Byte, ScalarType::Char,     ScalarType::Short,
    ScalarType::Int,  ScalarType::Long, ScalarType::Half,     ScalarType::BFloat16,
    ScalarType::Float, ScalarType::Double};

inline Order identity_order(size_t rank) {
  Order o(rank);
  for (size_t i = 0; i < rank; ++i) o[i] = static_cast<uint8_t>(i);
  return o;
}

// The DESIGN stride rule, re-derived here: stride[P[r-1]] = 1,
// stride[P[i]] = stride[P[i+1]] * max(size[P[i+1]], 1).
inline Sizes ref_strides(const Sizes& sizes, const Order& order) {
  Sizes s(sizes.size());
  int64_t acc = 1;
  for (size_t i = order.size(); i-- > 0;) {
    s[order[i]] = acc;
    acc *= std::max<int64_t>(sizes[order[i]], 1);
  }
  return s;
}

inline int64_t ref_numel(const Sizes& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// aten::slice normalisation in 128-bit arithmetic (no overflow possible).
struct RefSlice {
  int64_t start = 0;
  int64_t length = 0;
};
inline RefSlice ref_normalize(int64_t n, OptInt start, OptInt end, int64_t step) {
  using I = __int128;
  I s = start ? I(*start) : I(0);
  I e = end ? I(*end) : I(n);
  if (s < 0) s += n;
  if (e < 0) e += n;
  s = std::min<I>(std::max<I>(s, 0), n);
  e = std::min<I>(std::max<I>(e, 0), n);
  I len = e > s ? (e - s + step - 1) / step : 0;
  return RefSlice{static_cast<int64_t>(s), static_cast<int64_t>(len)};
}

// Calls f(index) for every logical index of `sizes` in row-major order.
template <typename F>
void for_each_index(const Sizes& sizes, F f) {
  if (ref_numel(sizes) == 0) return;
  Sizes idx(sizes.size(), 0);
  for (;;) {
    f(idx);
    size_t k = sizes.size();
    while (k > 0) {
      --k;
      if (++idx[k] < sizes[k]) break;
      idx[k] = 0;
      if (k == 0) return;
    }
    if (sizes.empty()) return;
  }
}

inline int64_t offset_of(const Sizes& idx, const Sizes& strides) {
  int64_t off = 0;
  for (size_t i = 0; i < idx.size(); ++i) off += idx[i] * strides[i];
  return off;
}

// The bytes of the test pattern for logical element i: distinct for distinct i
// within 2^(8*elem_size) elements (multiplying by an odd constant is a bijection
// modulo 2^k); bool holds 0/1 only.
inline void pattern_bytes(ScalarType dt, int64_t i, uint8_t* dst) {
  if (dt == ScalarType::Bool) {
    dst[0] = static_cast<uint8_t>(((i * 5) >> 1 ^ i) & 1);
    return;
  }
  uint64_t v = static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ull + 0x1234567ull;
  if (dt == ScalarType::Half || dt == ScalarType::BFloat16)
    v &= ~uint64_t{0x4000};  // keep 16-bit floats away from some NaN patterns
  std::memcpy(dst, &v, element_size(dt));
}

// A tensor owning exactly its bytes (new uint8_t[nbytes], 0 bytes for an empty
// one), or `capacity` bytes when given.
class OwnedTensor {
 public:
  OwnedTensor(ScalarType dtype, const Sizes& sizes, Order order = {},
              ShapeDynamism dyn = ShapeDynamism::STATIC, std::optional<size_t> capacity = {}) {
    if (order.empty()) order = identity_order(sizes.size());
    ok_ = make_tensor_meta(dtype, static_cast<int>(sizes.size()), sizes.data(), order.data(), t);
    if (!ok_) return;
    cap_ = capacity ? *capacity : t.nbytes();
    buf_.reset(new uint8_t[cap_]);
    std::memset(buf_.get(), kSentinel, cap_);
    t.data = buf_.get();
    t.capacity_nbytes = cap_;
    t.dynamism = dyn;
  }
  OwnedTensor(const OwnedTensor&) = delete;
  OwnedTensor& operator=(const OwnedTensor&) = delete;

  static constexpr uint8_t kSentinel = 0xA5;
  bool ok() const { return ok_; }
  uint8_t* buffer() const { return buf_.get(); }
  size_t capacity() const { return cap_; }
  Sizes sizes() const { return Sizes(t.sizes, t.sizes + t.rank); }
  Order order() const { return Order(t.dim_order, t.dim_order + t.rank); }
  bool untouched() const {
    for (size_t i = 0; i < cap_; ++i)
      if (buf_[i] != kSentinel) return false;
    return true;
  }
  // Writes the test pattern (logical element i gets pattern_bytes(i + seed)),
  // addressing by the reference strides, not the tensor's own.
  void fill_pattern(int64_t seed = 0) {
    const Sizes st = ref_strides(sizes(), order());
    const size_t es = element_size(t.dtype);
    int64_t i = 0;
    for_each_index(sizes(), [&](const Sizes& idx) {
      pattern_bytes(t.dtype, seed + i++, buf_.get() + offset_of(idx, st) * es);
    });
  }
  const uint8_t* elem(const Sizes& idx) const {
    return buf_.get() + offset_of(idx, ref_strides(sizes(), order())) * element_size(t.dtype);
  }

  Tensor t;

 private:
  bool ok_ = false;
  std::unique_ptr<uint8_t[]> buf_;
  size_t cap_ = 0;
};

inline std::string sizes_str(const Sizes& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}
inline std::string order_str(const Order& o) {
  std::string r = "(";
  for (size_t i = 0; i < o.size(); ++i) r += (i ? "," : "") + std::to_string(o[i]);
  return r + ")";
}
inline std::string opt_str(OptInt v) { return v ? std::to_string(*v) : "None"; }

// Checks that `out` (sizes, strides, bytes at `out_data`) is the slice of `in`
// along d: out[..., i, ...] == in[..., start + i*step, ...]. Returns a failure
// description, or "" when it matches.
inline std::string check_slice_result(const OwnedTensor& in, int d, OptInt start, OptInt end,
                                      int64_t step, const Tensor& out, const uint8_t* out_data) {
  const Sizes in_sizes = in.sizes();
  const RefSlice r = ref_normalize(in_sizes[d], start, end, step);
  Sizes want = in_sizes;
  want[d] = r.length;
  const Sizes got(out.sizes, out.sizes + out.rank);
  if (got != want) return "sizes " + sizes_str(got) + ", expected " + sizes_str(want);
  const Order order = in.order();
  const Sizes want_strides = ref_strides(want, order);
  if (Sizes(out.strides, out.strides + out.rank) != want_strides)
    return "strides " + sizes_str(Sizes(out.strides, out.strides + out.rank)) + ", expected " +
           sizes_str(want_strides);
  const size_t es = element_size(in.t.dtype);
  const Sizes in_strides = ref_strides(in_sizes, order);
  std::string err;
  Sizes src;
  for_each_index(want, [&](const Sizes& idx) {
    if (!err.empty()) return;
    src = idx;
    src[d] = r.start + idx[d] * step;  // idx[d] >= 1 only when L > 1, so this fits
    if (std::memcmp(out_data + offset_of(idx, want_strides) * es,
                    in.buffer() + offset_of(src, in_strides) * es, es) != 0)
      err = "element " + sizes_str(idx) + " differs from input element " + sizes_str(src);
  });
  return err;
}

inline std::string slice_desc(const OwnedTensor& in, int64_t dim, OptInt start, OptInt end,
                              int64_t step) {
  return std::string(scalar_type_name(in.t.dtype)) + " " + sizes_str(in.sizes()) + " order " +
         order_str(in.order()) + " dim=" + std::to_string(dim) + " start=" + opt_str(start) +
         " end=" + opt_str(end) + " step=" + std::to_string(step);
}

}  // namespace slicefuzz::testing
