// The judge's view of values: the documented input fill, and the comparison of
// what a path produced with what the oracle says, in words a kernel author reads.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "program/tensor_value.h"

namespace slicefuzz {

// The documented input fill (judge_facts.h) as a row-major value.
TensorValue make_input_value(ScalarType dtype, const std::vector<int64_t>& sizes);

// "[1, 0, 2]" for the row-major index `flat` of a tensor of `sizes`.
std::string index_string(const std::vector<int64_t>& sizes, int64_t flat);
std::string sizes_string(const std::vector<int64_t>& sizes);

// Compares two values; on a difference, describes the first one ("sizes [2, 3]
// vs [2, 4]" or "element [1, 2]: expected 5, got 7") and returns false.
bool compare_values(const TensorValue& expected, const TensorValue& actual, std::string& why,
                    int64_t* first_bad_flat = nullptr);

}  // namespace slicefuzz
