// The add_ kernel's per-element arithmetic (what torch computes for each dtype).
// The judge has its own (oracles/judge_facts.h); the input fill and value
// equality are the judge's alone.
#pragma once
#include <cstddef>
#include <cstdint>

#include "vocab/scalar_type.h"

namespace slicefuzz {

// add_(x, k) on one element in place. Integers wrap modulo 2^bits (k converted to
// the dtype first, as torch does); bool adds modulo 2 (x XOR (k & 1)) because torch
// refuses bool + int; float16/bfloat16 compute in float from k rounded to the dtype;
// float32 from float(k); float64 from double(k).
void add_scalar_element(ScalarType t, uint8_t* elem, int64_t k);

// add_scalar_element on `n` consecutive elements, with the dtype dispatched once.
void add_scalar_elements(ScalarType t, uint8_t* data, int64_t n, int64_t k);

}  // namespace slicefuzz
