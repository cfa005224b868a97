// Per-element facts every path shares: the documented input fill, the add_
// arithmetic (what torch computes for each dtype), and value equality.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/scalar_type.h"

namespace slicefuzz {

// The deterministic input fill: the element at logical (row-major) index i holds
//   bool: i % 3 == 1          uint8: i % 251          int8: i % 251 - 125
//   int16: i % 32749 - 16374  int32, int64: i         float16: (i % 2039 - 1019) / 2
//   bfloat16: i % 251 - 125   float32: i + 0.5 (i % 2^22)  float64: i + 0.25
// Values repeat only where the dtype is too small to hold distinct ones; the
// int64 provenance shadow (harness) catches misplaced elements there too.
void write_fill_value(ScalarType t, int64_t logical_index, uint8_t* dst);

// add_(x, k) on one element in place. Integers wrap modulo 2^bits (k converted to
// the dtype first, as torch does); bool adds modulo 2 (x XOR (k & 1)) because torch
// refuses bool + int; float16/bfloat16 compute in float from k rounded to the dtype;
// float32 from float(k); float64 from double(k).
void add_scalar_element(ScalarType t, uint8_t* elem, int64_t k);

// add_scalar_element on `n` consecutive elements, with the dtype dispatched once.
void add_scalar_elements(ScalarType t, uint8_t* data, int64_t n, int64_t k);

// Element equality: bytes for integers, value for floats (+0 == -0, NaN == NaN).
bool elements_equal(ScalarType t, const uint8_t* a, const uint8_t* b);

// A human-readable element, e.g. "3", "true", "-1.5".
std::string element_to_string(ScalarType t, const uint8_t* elem);

// The element as a double (for reports and the Python export).
double element_to_double(ScalarType t, const uint8_t* elem);

}  // namespace slicefuzz
