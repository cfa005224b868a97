#include "oracles/values.h"

#include <cmath>
#include <cstdio>

#include <algorithm>

#include <array>

#include "oracles/judge_facts.h"

namespace slicefuzz {

TensorValue make_input_value(ScalarType dtype, const std::vector<int64_t>& sizes, int64_t first) {
  return cached_input_value(dtype, sizes, first);
}

const TensorValue& cached_input_value(ScalarType dtype, const std::vector<int64_t>& sizes,
                                      int64_t first) {
  // Every path of a case (and its shadow) asks for the same inputs: keep the last
  // few (a case of 3 inputs and its shadow fit). A miss overwrites the oldest slot
  // in place, its vectors keeping their capacity: the cache's heap blocks stay the
  // same from case to case, so libFuzzer's malloc/free balance after a run does
  // not see a cache refill as a possible leak and execute the input again (issue
  // 11: this cache was most of those re-executions).
  struct Cached {
    bool filled = false;
    int64_t first = 0;
    TensorValue value;
  };
  constexpr size_t kSlots = 8;
  thread_local std::array<Cached, kSlots> cache;
  thread_local size_t oldest = 0;
  for (const Cached& c : cache)
    if (c.filled && c.first == first && c.value.dtype == dtype && c.value.sizes == sizes) return c.value;
  Cached& slot = cache[oldest];
  oldest = (oldest + 1) % kSlots;
  TensorValue& v = slot.value;
  slot.filled = true;
  slot.first = first;
  v.dtype = dtype;
  v.sizes.assign(sizes.begin(), sizes.end());
  const size_t es = element_size(dtype);
  const int64_t n = v.numel();
  v.bytes.resize(static_cast<size_t>(n) * es);
  for (int64_t i = 0; i < n; ++i) judge::fill_element(dtype, first + i, v.bytes.data() + i * es);
  return v;
}

std::vector<int64_t> input_fill_starts(const ProgramInfo& info) {
  const int n_inputs = std::min<int>(std::max(info.num_inputs, 0), static_cast<int>(info.values.size()));
  std::vector<int64_t> starts(static_cast<size_t>(n_inputs), 0);
  int64_t next = 0;
  // Constants (version 4) first, so that their stretches never move with a dynamic
  // input's actual size: a constant holds the same bytes at every execution.
  for (int pass = 0; pass < 2; ++pass)
    for (int k = 0; k < n_inputs; ++k) {
      if (info.values[k].constant != (pass == 0)) continue;
      starts[k] = next;
      int64_t n = 1;
      // An analysed input: its sizes, size-0 dims counted as 1, multiply within int64.
      for (int64_t s : info.values[k].sizes) n *= s;
      next += n;
    }
  return starts;
}

std::vector<TensorValue> make_input_values(const ProgramInfo& info) {
  const std::vector<int64_t> starts = input_fill_starts(info);
  std::vector<TensorValue> out;
  out.reserve(starts.size());
  for (size_t k = 0; k < starts.size(); ++k)
    out.push_back(make_input_value(info.values[k].dtype, info.values[k].sizes, starts[k]));
  return out;
}

std::string sizes_string(const std::vector<int64_t>& sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

std::string index_string(const std::vector<int64_t>& sizes, int64_t flat) {
  std::vector<int64_t> idx(sizes.size());
  for (size_t i = sizes.size(); i-- > 0;) {
    idx[i] = sizes[i] ? flat % sizes[i] : 0;
    flat = sizes[i] ? flat / sizes[i] : 0;
  }
  return sizes_string(idx);
}

bool compare_values(const TensorValue& e, const TensorValue& a, std::string& why,
                    int64_t* first_bad_flat, const std::vector<double>* bounds) {
  if (e.dtype != a.dtype) {
    why = "dtype " + std::string(scalar_type_name(e.dtype)) + " expected, got " +
          std::string(scalar_type_name(a.dtype));
    return false;
  }
  if (e.sizes != a.sizes) {
    why = "sizes " + sizes_string(e.sizes) + " expected, got " + sizes_string(a.sizes);
    return false;
  }
  // Equal bytes are equal values for every dtype; the element walk (with +0 == -0
  // and NaN == NaN for floats) only runs when the bytes differ.
  if (e.bytes == a.bytes) return true;
  const size_t es = element_size(e.dtype);
  const int64_t n = e.numel();
  if (a.bytes.size() != e.bytes.size()) {
    why = "the value holds " + std::to_string(a.bytes.size()) + " bytes, expected " +
          std::to_string(e.bytes.size());
    return false;
  }
  const bool bounded = bounds && static_cast<int64_t>(bounds->size()) == n && is_floating(e.dtype);
  for (int64_t i = 0; i < n; ++i) {
    if (!judge::same_element(e.dtype, e.bytes.data() + i * es, a.bytes.data() + i * es)) {
      const double bound = bounded ? (*bounds)[static_cast<size_t>(i)] : 0;
      if (bound > 0) {
        const double x = judge::element_value(e.dtype, e.bytes.data() + i * es);
        const double y = judge::element_value(a.dtype, a.bytes.data() + i * es);
        // An infinite bound admits anything; a NaN on one side only never
        // lies within a finite bound.
        if (std::isinf(bound) || std::fabs(x - y) <= bound) continue;
      }
      why = "element " + index_string(e.sizes, i) + ": expected " +
            judge::element_text(e.dtype, e.bytes.data() + i * es) + ", got " +
            judge::element_text(a.dtype, a.bytes.data() + i * es);
      if (bound > 0) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.3g", bound);
        why += std::string(", more than the ") + buf + " two roundings of sigmoid or gelu may explain";
      }
      if (first_bad_flat) *first_bad_flat = i;
      return false;
    }
  }
  return true;
}

}  // namespace slicefuzz
