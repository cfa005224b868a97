// Version 4 (docs/design.md section 8): an execution of a case with symbols is
// the static case got by putting each symbol's value in its place. No semantics:
// both sides call it (the judge to predict each execution, the runner to hand
// each execution to the paths); what a value means is theirs to say.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vocab/case.h"

namespace slicefuzz {

// The static case of `values` (one per symbol): dynamic input dims get their
// symbol's value, symbolic arguments `NAME+K` their sum. Constants stay
// constants (a case with one prints as version 4). False, with `why`, when a sum
// leaves int64 or a dynamic dim's value is negative.
bool concretise(const Case& c, const std::vector<int64_t>& values, Case& out, std::string& why);

// Input `in`'s sizes at `values`: each dynamic dim its symbol's value, even a
// negative one or one outside the symbol's range (what an input check is given).
std::vector<int64_t> input_sizes_at(const InputDecl& in, const std::vector<int64_t>& values);

// Whether every value lies in its symbol's declared range (an execution outside
// must be refused where the inputs are set).
bool in_range(const Case& c, const std::vector<int64_t>& values);

// The number of assignments within the ranges (saturated at INT64_MAX), and each
// of them in order (the first symbol varies slowest); `visit` returns false to stop.
int64_t assignment_count(const Case& c);
void for_each_assignment(const Case& c, const std::function<bool(const std::vector<int64_t>&)>& visit);
// Where `values` (within the ranges) comes in for_each_assignment's order: the
// index of its analysis in DynamicInfo::every. Beside the enumeration, so the two
// cannot disagree on the order.
size_t assignment_index(const Case& c, const std::vector<int64_t>& values);

// `S=3 pos=5`, for people.
std::string describe_execution(const Case& c, const std::vector<int64_t>& values);

}  // namespace slicefuzz
