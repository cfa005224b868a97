// The judge's view of values: the documented input fill, and the comparison of
// what a path produced with what the oracle says, in words a kernel author reads.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "vocab/program_info.h"
#include "vocab/tensor_value.h"

namespace slicefuzz {

// The documented input fill (judge_facts.h) as a row-major value: the element
// at row-major index i holds fill_element(dtype, first + i).
TensorValue make_input_value(ScalarType dtype, const std::vector<int64_t>& sizes, int64_t first = 0);
// The same value without a copy, for a path that only reads it: valid until the
// next call (it lives in a small per-thread cache).
const TensorValue& cached_input_value(ScalarType dtype, const std::vector<int64_t>& sizes,
                                      int64_t first);

// Where input k's fill starts: the element count of the inputs before it, so
// that the inputs of a case hold consecutive stretches of one fill (input 0 at
// index 0, exactly as a version-1 case) and every element of every input gets
// its own index (distinct values wherever the dtype allows, and in the int64
// provenance shadow always).
std::vector<int64_t> input_fill_starts(const ProgramInfo& info);

// Every input's value (info.values[0 .. num_inputs-1]), in order: what the
// runner hands each path (the executors never compute the fill).
std::vector<TensorValue> make_input_values(const ProgramInfo& info);

// "[1, 0, 2]" for the row-major index `flat` of a tensor of `sizes`.
std::string index_string(const std::vector<int64_t>& sizes, int64_t flat);
std::string sizes_string(const std::vector<int64_t>& sizes);

// Compares two values; on a difference, describes the first one ("sizes [2, 3]
// vs [2, 4]" or "element [1, 2]: expected 5, got 7") and returns false.
// `bounds` (row-major, one per element; empty or null: all exact): two floating
// elements within their bound are equal (oracles/judge_inexact.h).
bool compare_values(const TensorValue& expected, const TensorValue& actual, std::string& why,
                    int64_t* first_bad_flat = nullptr, const std::vector<double>* bounds = nullptr);

}  // namespace slicefuzz
