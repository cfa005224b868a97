// The judge's check of a memory plan, with its own lifetimes (recomputed from the
// program's uses, never the planner's) and its own byte arithmetic: non-alias
// tensors that are live at the same step never share a byte; every offset is
// aligned; every tensor fits the arena and has the bytes its sizes need; every
// alias lies inside its root, at the delta torch's view gives when known.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "program/case.h"
#include "program/plan_types.h"
#include "program/program_info.h"

namespace slicefuzz {

// Returns "" or the first violation in words (the two tensors, their lifetimes
// as the program implies them and as the plan claims, and their byte ranges).
// `torch_delta_bytes` (per value, may be empty): where torch's view puts each
// alias's first byte relative to its root.
std::string check_plan(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                       const MemoryPlan& plan,
                       const std::vector<int64_t>& torch_delta_bytes = {},
                       int64_t alignment = kArenaAlignment);

}  // namespace slicefuzz
