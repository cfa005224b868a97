#include "generators/interesting_values.h"

#include <limits>

namespace slicefuzz {

namespace {
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t k2Pow62 = int64_t{1} << 62;
}  // namespace

std::vector<std::optional<int64_t>> interesting_slice_indices(int64_t size) {
  return {std::nullopt, 0,        1,       -1,      size,         -size,
          size + 1,     -size - 1, kMin,    kMax,    k2Pow62,      -k2Pow62,
          k2Pow62 + 1,  -k2Pow62 - 1};
}

std::vector<int64_t> interesting_steps(int64_t size, bool include_invalid) {
  std::vector<int64_t> v{1, 2, 3, size > 0 ? size : 1, size + 1, k2Pow62, kMax - 1, kMax};
  if (include_invalid) v.insert(v.end(), {0, -1, kMin});
  return v;
}

}  // namespace slicefuzz
