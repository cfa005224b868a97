// The memory planner: every non-alias tensor gets (offset, nbytes) in one arena
// from its lifetime; aliases take no bytes and resolve to root offset + delta.
// A root lives until the last use of any of its aliases.
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
MemoryPlan plan_memory_with(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                            bool extend_roots_to_alias_reads);

}  // namespace slicefuzz
