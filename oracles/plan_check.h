// The judge's check of a memory plan, with its own lifetimes (recomputed from the
// program's uses, never the planner's) and its own byte arithmetic: non-alias
// tensors that are live at the same step never share a byte; every offset is
// aligned; every tensor fits the arena and has the bytes its sizes need; every
// alias lies inside its root, at the delta torch's view gives when known.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "oracles/judge_rules.h"
#include "vocab/case.h"
#include "vocab/plan_types.h"
#include "vocab/program_info.h"

namespace slicefuzz {


struct PlanVerdict {
  PlanInvariant broken = PlanInvariant::None;
  std::string message;  // in words, for people
  bool ok() const { return broken == PlanInvariant::None; }
};

// The first invariant the plan breaks, with the violation in words (the two
// tensors, their lifetimes as the program implies them and as the plan claims,
// and their byte ranges). `torch_delta_bytes` (per value, may be empty): where
// torch's view puts each alias's first byte relative to its root.
// `alias_placements`: whether aliases are where the plan puts them (false: a
// runtime-op backend under dynamic shapes, whose alias prim ops place every alias
// at each execution; the plan's single offset for it means nothing there).
PlanVerdict judge_plan(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                       const MemoryPlan& plan,
                       const std::vector<int64_t>& torch_delta_bytes = {},
                       int64_t alignment = kArenaAlignment, bool alias_placements = true);

// judge_plan's message alone: "" or the first violation in words (the two tensors, their lifetimes
// as the program implies them and as the plan claims, and their byte ranges).
// `torch_delta_bytes` (per value, may be empty): where torch's view puts each
// alias's first byte relative to its root.
std::string check_plan(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                       const MemoryPlan& plan,
                       const std::vector<int64_t>& torch_delta_bytes = {},
                       int64_t alignment = kArenaAlignment);

}  // namespace slicefuzz
