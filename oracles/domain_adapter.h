// The oracle-domain adapter: libtorch 1.13 cannot take every int64 (measured).
// A start/end below -2^62 throws (c10::SymInt reserves those bit patterns), and a
// step near INT64_MAX overflows inside slice (INT64_MAX on 5 elements gives size
// 0 instead of 1; INT64_MAX-1 throws). Before calling torch, each value is mapped
// to an *equivalent* one: start/end clamped into [-(size+1), size+1] (every value
// beyond already clamps to 0 or size), step into [1, max(size, 1)] (a step >= size
// selects at most one element either way). Steps <= 0 pass through unchanged so
// that torch still raises its error. The system under test gets the raw values.
#pragma once
#include <cstdint>
#include <optional>

namespace slicefuzz {

struct TorchSliceArgs {
  std::optional<int64_t> start, end;
  int64_t step;
};

TorchSliceArgs adapt_slice_args_for_torch(int64_t size, std::optional<int64_t> start,
                                          std::optional<int64_t> end, int64_t step);

}  // namespace slicefuzz
