// Setting a method's inputs under dynamic shapes (version 4): program.fbs says
// "Each dimension of the tensor at runtime should never exceed the corresponding
// dimension of the upper bound shape", so an input whose actual size passes its
// bound in any dim is refused where the inputs are set, before any op runs.
// System under test: a backend replaces it (Backend::input_check).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace slicefuzz {

// "" when `actual` may be set into an input planned at `bound` (same rank, every
// dim within [0, its bound]); otherwise why not.
std::string check_input_sizes(const std::vector<int64_t>& actual, const std::vector<int64_t>& bound);

}  // namespace slicefuzz
