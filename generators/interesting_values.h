// The int64 values that find slicing bugs, in one place for the RapidCheck
// generators and the fuzzer's mutator: the clamp boundaries around a dim's size,
// the int64 extremes, and libtorch's SymInt boundary at +-2^62.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace slicefuzz {

// start/end around the clamp boundaries of a dim of `size`:
// size, -size, size+1, -size-1, size-1, 1-size.
std::vector<int64_t> near_size_indices(int64_t size);

// start/end far outside any dim: INT64_MAX, INT64_MIN, +-2^62, 2^62+1, 2^62-1,
// 1-2^62, -2^62-1 (libtorch 1.13 throws below -2^62: the oracle adapter's case).
std::vector<int64_t> extreme_indices();

// Valid steps whose products overflow: INT64_MAX, INT64_MAX-1, 2^62, 2^62+1.
std::vector<int64_t> huge_steps();

// Invalid steps: 0, -1, INT64_MIN, -3.
std::vector<int64_t> non_positive_steps();

// Invalid dims for a tensor of `rank`: rank, -rank-1, rank+3, -rank-4, INT64_MAX, INT64_MIN.
std::vector<int64_t> out_of_range_dims(int64_t rank);

// Every start/end candidate for a dim of `size`: None, 0, 1, -1, then the above.
std::vector<std::optional<int64_t>> interesting_slice_indices(int64_t size);

// Step candidates: 1, 2, 3, size, size+1, the huge steps, and (if asked) the
// non-positive ones.
std::vector<int64_t> interesting_steps(int64_t size, bool include_invalid);

}  // namespace slicefuzz
