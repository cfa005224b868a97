// add and mul of two tensors (version 4): turning `y = add(a, k)` into
// `y = add(a, other=b)`, b a value of a's dtype and sizes defined before the op
// (a itself included), for the generator (generate.cpp) and the mutator
// (mutators_eager.cpp) alike.
#pragma once
#include <cstddef>
#include <random>

#include "vocab/case.h"

namespace slicefuzz::gen {

// Makes op `i` (an out-of-place add or mul by an integer) the same op of two
// tensors, its second operand drawn from the values of its first operand's
// dtype and sizes that are defined before it (the analysis says which). False,
// with `c` untouched, when op `i` is no such op or the analysis refuses the case.
bool make_two_tensor_op(Case& c, size_t i, std::mt19937_64& rng);

}  // namespace slicefuzz::gen
