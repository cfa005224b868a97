// Eager programs (case format version 2): see eager_gen.cpp.
#pragma once
#include <rapidcheck.h>

#include "vocab/case.h"

namespace slicefuzz {

// A version-2 case of 1..7 ops over one input of rank 1..4 (small sizes, any
// dtype, any layout): views, writes through them, out-of-place ops. Always passes
// analyze(), the input is always the first output, and parse(print(c)) == c.
rc::Gen<Case> genEagerCase();

}  // namespace slicefuzz
