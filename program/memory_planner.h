// The memory planner: every non-alias tensor gets (offset, nbytes) in one arena
// from its lifetime; aliases take no bytes and resolve to root offset + delta.
// A root lives until the last use of any of its aliases. Constants (version 4)
// are not planned: their bytes are the program's (TensorPlacement::constant),
// and so are their aliases'.
#pragma once
#include <cstdint>
#include <vector>

#include "vocab/program_info.h"
#include "vocab/case.h"
#include "program/rewrite_pass.h"

namespace slicefuzz {

// Greedy by size (largest first, lowest fitting offset), like ExecuTorch's greedy
// planner, over the lifetimes implied by `rewrite`.
MemoryPlan plan_memory(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite);

// The same planner with the root-lifetime extension switchable (a faulty backend
// switches it off).
struct PlannerRules {
  bool extend_roots_to_alias_reads = true;
  // Off: a constant is planned in the arena like an input, and its aliases at
  // arena offsets (a faulty backend).
  bool constants_outside_arena = true;
};
MemoryPlan plan_memory_with(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                            bool extend_roots_to_alias_reads);
MemoryPlan plan_memory_with_rules(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                                  const PlannerRules& rules);

}  // namespace slicefuzz
