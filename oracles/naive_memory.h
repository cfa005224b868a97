// The naive reference's memory, as eager PyTorch has it: storages, and strided
// windows onto them (oracles/naive_reference.cpp says how it is used). Next to
// each storage's bytes, optionally, one bound per element: how far two faithful
// computations of that element may lie apart (oracles/judge_inexact.h); a storage
// no inexact op wrote has none, and every element of it is exact.
#pragma once
#include <cstring>
#include <vector>

#include "oracles/judge_facts.h"
#include "vocab/tensor_value.h"

namespace slicefuzz::naive {

struct Storage {
  ScalarType dtype = ScalarType::Float;
  std::vector<uint8_t> bytes;
  std::vector<double> bound;  // one per element, in the bytes' positions; empty: all exact
};

struct Window {
  int storage = -1;
  int64_t offset = 0;  // elements
  std::vector<int64_t> sizes, strides;
};

inline int64_t numel_of(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// Calls row(i, p, n, stride) for every row of the strided view (offset, sizes,
// strides), rows in row-major order: the view's logical elements i, i+1, ...,
// i+n-1 (row-major indices) lie at storage element positions p, p + stride, ...,
// p + (n-1)*stride. An odometer over the view's outer indices that keeps p up to
// date as it turns (one add per row, a carry resets a digit); the elements of a
// row need no carry check.
//
// The rows are as long as the view allows: first the dims are coalesced, which
// keeps every (i, position) pair and their order. A dim of size 1 drops out (its
// index is always 0, so it moves neither i nor p). Dims k (outer) and k+1 (inner)
// with strides[k] == strides[k+1] * sizes[k+1] visit, in row-major order, the
// positions q + j * strides[k+1] for j = 0 .. sizes[k]*sizes[k+1]-1: one dim of
// the product size with the inner stride.
template <typename F>
void for_each_row(int64_t offset, const std::vector<int64_t>& sizes,
                  const std::vector<int64_t>& strides, F&& row) {
  const int64_t total = numel_of(sizes);
  if (total == 0) return;
  const size_t r = sizes.size();
  int64_t small[3 * 32];
  std::vector<int64_t> large(r > 32 ? 3 * r : 0);
  int64_t* size = r > 32 ? large.data() : small;  // coalesced dims, innermost first
  int64_t* stride = size + (r > 32 ? r : 32);
  int64_t* idx = stride + (r > 32 ? r : 32);
  size_t m = 0;
  for (size_t k = r; k-- > 0;) {
    if (sizes[k] == 1) continue;
    int64_t continued;  // the stride that continues the dim below (no merge on overflow)
    if (m > 0 && !__builtin_mul_overflow(stride[m - 1], size[m - 1], &continued) &&
        strides[k] == continued) {
      size[m - 1] *= sizes[k];  // <= total
      continue;
    }
    size[m] = sizes[k];
    stride[m] = strides[k];
    idx[m] = 0;
    ++m;
  }
  if (m == 0) return row(0, offset, 1, 1);  // one element
  int64_t p = offset;
  for (int64_t i = 0;;) {
    row(i, p, size[0], stride[0]);
    i += size[0];
    if (i == total) return;
    for (size_t k = 1; k < m; ++k) {
      if (++idx[k] < size[k]) {
        p += stride[k];
        break;
      }
      idx[k] = 0;
      p -= (size[k] - 1) * stride[k];
    }
  }
}

// Whether for_each_row would visit positions 0, 1, ..., n-1 in order: the
// view starts at element 0 and every dim with more than one element has the
// row-major stride (a fresh row-major storage, read or written whole).
inline bool positions_are_identity(int64_t offset, const std::vector<int64_t>& sizes,
                            const std::vector<int64_t>& strides) {
  if (offset != 0) return false;
  int64_t running = 1;
  for (size_t k = sizes.size(); k-- > 0;) {
    if (sizes[k] > 1 && strides[k] != running) return false;
    running *= sizes[k];
  }
  return true;
}

// One element of `es` bytes (1, 2, 4 or 8): a fixed-size copy, not a call.
inline void copy_element(uint8_t* dst, const uint8_t* src, size_t es) {
  switch (es) {
    case 1: *dst = *src; return;
    case 2: std::memcpy(dst, src, 2); return;
    case 4: std::memcpy(dst, src, 4); return;
    default: std::memcpy(dst, src, 8); return;
  }
}

// A row of stride 1 and at least this many bytes is copied as one block; a
// shorter one element by element (under ASan a memcpy of variable size is a
// checked call, an element copy two inline-checked moves).
constexpr size_t kBlockBytes = 64;

// row_major[i] = storage[p] for every element (i, p) of the strided view.
inline void read_view(const uint8_t* storage, int64_t offset, const std::vector<int64_t>& sizes,
               const std::vector<int64_t>& strides, size_t es, uint8_t* row_major) {
  for_each_row(offset, sizes, strides, [&](int64_t i, int64_t p, int64_t n, int64_t step) {
    uint8_t* to = row_major + static_cast<size_t>(i) * es;
    const uint8_t* from = storage + static_cast<size_t>(p) * es;
    if (step == 1 && static_cast<size_t>(n) * es >= kBlockBytes) {
      std::memcpy(to, from, static_cast<size_t>(n) * es);
      return;
    }
    for (int64_t j = 0; j < n; ++j, to += es)
      copy_element(to, from + static_cast<size_t>(j * step) * es, es);
  });
}

// storage[p] = row_major[i] for every element (i, p) of the strided view.
inline void write_view(const uint8_t* row_major, int64_t offset, const std::vector<int64_t>& sizes,
                const std::vector<int64_t>& strides, size_t es, uint8_t* storage) {
  for_each_row(offset, sizes, strides, [&](int64_t i, int64_t p, int64_t n, int64_t step) {
    const uint8_t* from = row_major + static_cast<size_t>(i) * es;
    uint8_t* to = storage + static_cast<size_t>(p) * es;
    if (step == 1 && static_cast<size_t>(n) * es >= kBlockBytes) {
      std::memcpy(to, from, static_cast<size_t>(n) * es);
      return;
    }
    for (int64_t j = 0; j < n; ++j, from += es)
      copy_element(to + static_cast<size_t>(j * step) * es, from, es);
  });
}

// The elements of `src` (row-major logical elements) that the strided view
// (offset, sizes, strides) over them selects, row-major.
inline TensorValue gather(const TensorValue& src, int64_t offset, const std::vector<int64_t>& sizes,
                   const std::vector<int64_t>& strides) {
  TensorValue out;
  out.dtype = src.dtype;
  out.sizes = sizes;
  const size_t es = element_size(src.dtype);
  out.bytes.resize(static_cast<size_t>(numel_of(sizes)) * es);
  read_view(src.bytes.data(), offset, sizes, strides, es, out.bytes.data());
  return out;
}

class Memory {
 public:
  void reserve(size_t n) { storages_.reserve(n); }
  // A fresh storage holding `value` (row-major logical elements) laid out with
  // `dim_order` (empty: row-major).
  // The value is consumed: laid out row-major, its bytes become the storage's
  // (no second buffer and copy per value).
  // `bounds`: the elements' bounds, row-major (empty: exact).
  Window fresh(TensorValue&& value, const std::vector<int>& dim_order,
               const std::vector<double>& bounds = {}) {
    Window w{static_cast<int>(storages_.size()), 0, std::move(value.sizes), {}};
    w.strides = judge::strides_for(w.sizes, dim_order);
    if (positions_are_identity(w.offset, w.sizes, w.strides)) {
      storages_.push_back(Storage{value.dtype, std::move(value.bytes), {}});
    } else {
      storages_.push_back(Storage{value.dtype, std::vector<uint8_t>(value.bytes.size()), {}});
      write(w, value.bytes);
    }
    if (!bounds.empty()) write_bounds(w, bounds);
    return w;
  }
  // The window's logical elements, row-major.
  TensorValue read(const Window& w) const {
    TensorValue v;
    read_into(w, v);
    return v;
  }
  // The same into `v`, whose vectors keep their capacity (a scratch value).
  void read_into(const Window& w, TensorValue& v) const {
    const Storage& s = storages_[w.storage];
    v.dtype = s.dtype;
    v.sizes.assign(w.sizes.begin(), w.sizes.end());
    const size_t es = element_size(s.dtype);
    v.bytes.resize(static_cast<size_t>(numel_of(w.sizes)) * es);
    // Positions 0..n-1 in order: the same elements in the same order, as one block.
    if (positions_are_identity(w.offset, w.sizes, w.strides)) {
      if (!v.bytes.empty()) std::memcpy(v.bytes.data(), s.bytes.data(), v.bytes.size());
      return;
    }
    read_view(s.bytes.data(), w.offset, w.sizes, w.strides, es, v.bytes.data());
  }
  void write(const Window& w, const std::vector<uint8_t>& row_major) {
    Storage& s = storages_[w.storage];
    const size_t es = element_size(s.dtype);
    if (positions_are_identity(w.offset, w.sizes, w.strides)) {
      const size_t n = static_cast<size_t>(numel_of(w.sizes)) * es;
      if (n) std::memcpy(s.bytes.data(), row_major.data(), n);
      return;
    }
    write_view(row_major.data(), w.offset, w.sizes, w.strides, es, s.bytes.data());
  }

  // The bounds of the window's elements, row-major; empty when its storage is
  // exact throughout (the common case: no inexact op ran).
  void read_bounds_into(const Window& w, std::vector<double>& row_major) const {
    const Storage& s = storages_[w.storage];
    row_major.clear();
    if (s.bound.empty()) return;
    row_major.resize(static_cast<size_t>(numel_of(w.sizes)));
    read_view(reinterpret_cast<const uint8_t*>(s.bound.data()), w.offset, w.sizes, w.strides,
              sizeof(double), reinterpret_cast<uint8_t*>(row_major.data()));
  }
  std::vector<double> read_bounds(const Window& w) const {
    std::vector<double> b;
    read_bounds_into(w, b);
    return b;
  }
  // Sets the bounds of the window's elements (row-major; empty: exact). A
  // storage gets its bound array when a first inexact element is written into it.
  void write_bounds(const Window& w, const std::vector<double>& row_major) {
    Storage& s = storages_[w.storage];
    // An empty window writes nothing (and its "exact" zeros would be empty too:
    // the self-test's first et-exir-reinplace row found the recursion that made).
    if (numel_of(w.sizes) == 0 || (row_major.empty() && s.bound.empty())) return;
    if (s.bound.empty()) s.bound.assign(s.bytes.size() / element_size(s.dtype), 0.0);
    if (row_major.empty()) {
      const std::vector<double> zeros(static_cast<size_t>(numel_of(w.sizes)), 0.0);
      return write_bounds(w, zeros);
    }
    write_view(reinterpret_cast<const uint8_t*>(row_major.data()), w.offset, w.sizes, w.strides,
               sizeof(double), reinterpret_cast<uint8_t*>(s.bound.data()));
  }

 private:
  std::vector<Storage> storages_;
};


}  // namespace slicefuzz::naive
