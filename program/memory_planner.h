// The memory planner: every non-alias tensor gets (offset, nbytes) in one arena
// from its lifetime; aliases take no bytes and resolve to root offset + delta.
// A root lives until the last use of any of its aliases.
#pragma once
#include <cstdint>
#include <vector>

#include "program/analysis.h"
#include "program/case.h"
#include "program/rewrite_pass.h"

namespace slicefuzz {

inline constexpr int64_t kArenaAlignment = 16;  // as ExecuTorch's planner

// Lifetimes are in steps: step 0 defines the input, op k runs at step k + 1, and
// outputs are read at step ops_run + 1 (the end of the program).
struct TensorPlacement {
  int value = -1;
  int root = -1;         // == value for a non-alias tensor
  int64_t offset = 0;    // bytes into the arena (root offset + delta for an alias)
  int64_t nbytes = 0;
  int first_step = 0;    // defined at
  int last_step = 0;     // last use (a root: of itself or any alias)
  int own_last_step = 0; // a root's own last use, before extension by its aliases
};

struct MemoryPlan {
  int64_t arena_bytes = 0;
  std::vector<TensorPlacement> tensors;  // indexed by value; only values that run
  int end_step = 0;                      // the step at which outputs are read
};

// Greedy by size (largest first, lowest fitting offset), like ExecuTorch's greedy
// planner, over the lifetimes implied by `rewrite`.
MemoryPlan plan_memory(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite);

// The same planner with the root-lifetime extension switchable (a faulty backend
// switches it off).
MemoryPlan plan_memory_with(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                            bool extend_roots_to_alias_reads);

// The invariants checked on every case: non-alias tensors whose lifetimes overlap
// do not overlap in bytes; every alias lies inside its root and its root outlives
// it. Returns "" or the first violation in words.
std::string check_plan(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                       const MemoryPlan& plan);

}  // namespace slicefuzz
