#include "program/input_check.h"

namespace slicefuzz {

std::string check_input_sizes(const std::vector<int64_t>& actual, const std::vector<int64_t>& bound) {
  if (actual.size() != bound.size())
    return "rank " + std::to_string(actual.size()) + " differs from the planned rank " +
           std::to_string(bound.size());
  for (size_t d = 0; d < actual.size(); ++d)
    if (actual[d] < 0 || actual[d] > bound[d])
      return "dim " + std::to_string(d) + " has size " + std::to_string(actual[d]) +
             ", outside [0, " + std::to_string(bound[d]) + "] (its upper bound)";
  return {};
}

}  // namespace slicefuzz
