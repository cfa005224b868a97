// The minimiser's candidates for a case with symbols (version 4), simplest
// first: the case at one execution alone, as a static case (a finding that does
// not need two sizes); fewer executions; a symbol's range narrowed to the values
// the executions give it; an unused symbol dropped; a symbolic argument made the
// literal of the first execution. The static candidates (minimizer.cpp) then
// shrink ops, static dims and dtypes.
#pragma once
#include <vector>

#include "vocab/case.h"

namespace slicefuzz {

std::vector<Case> dynamic_candidates(const Case& c);

}  // namespace slicefuzz
