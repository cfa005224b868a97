#include "generators/interesting_values.h"

#include <limits>

namespace slicefuzz {

namespace {
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t k2Pow62 = int64_t{1} << 62;
}  // namespace

std::vector<int64_t> near_size_indices(int64_t size) {
  return {size, -size, size + 1, -size - 1, size - 1, 1 - size};
}

std::vector<int64_t> extreme_indices() {
  return {kMax, kMin, k2Pow62, -k2Pow62, k2Pow62 + 1, k2Pow62 - 1, 1 - k2Pow62, -k2Pow62 - 1};
}

std::vector<int64_t> huge_steps() { return {kMax, kMax - 1, k2Pow62, k2Pow62 + 1}; }

std::vector<int64_t> non_positive_steps() { return {0, -1, kMin, -3}; }

std::vector<int64_t> out_of_range_dims(int64_t rank) {
  return {rank, -rank - 1, rank + 3, -rank - 4, kMax, kMin};
}

std::vector<std::optional<int64_t>> interesting_slice_indices(int64_t size) {
  std::vector<std::optional<int64_t>> v{std::nullopt, 0, 1, -1};
  for (int64_t i : near_size_indices(size)) v.push_back(i);
  for (int64_t i : extreme_indices()) v.push_back(i);
  return v;
}

std::vector<int64_t> interesting_steps(int64_t size, bool include_invalid) {
  std::vector<int64_t> v{1, 2, 3, size > 0 ? size : 1, size + 1};
  for (int64_t s : huge_steps()) v.push_back(s);
  if (include_invalid)
    for (int64_t s : non_positive_steps()) v.push_back(s);
  return v;
}

}  // namespace slicefuzz
