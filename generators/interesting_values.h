// The int64 values that find slicing bugs, in one place for the RapidCheck
// generators and the fuzzer's mutator: the clamp boundaries around a dim's size,
// the int64 extremes, and libtorch's SymInt boundary at +-2^62.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace slicefuzz {

// start/end candidates for a dim of `size`: None, 0, +-1, +-size, +-(size+1),
// INT64_MIN, INT64_MAX, +-2^62, +-(2^62+1), -(2^62)-1.
std::vector<std::optional<int64_t>> interesting_slice_indices(int64_t size);

// step candidates for a dim of `size`: 1, 2, 3, size, size+1, 2^62, INT64_MAX-1,
// INT64_MAX (all valid), and the invalid 0, -1, INT64_MIN.
std::vector<int64_t> interesting_steps(int64_t size, bool include_invalid);

}  // namespace slicefuzz
