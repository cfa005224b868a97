// The pass's decisions and the planner's plans as text, so that `explain` can run
// the system under test in a worker (a crash there is a finding, not the end of
// explain) and draw what it decided in the CLI process.
#pragma once
#include <string>

#include "vocab/plan_types.h"

namespace slicefuzz {

struct PlansForExplain {
  RewritePlan rewrite;
  MemoryPlan plan;       // with the rewrite
  MemoryPlan copy_plan;  // the same program planned without aliases
};

std::string encode_plans(const PlansForExplain& p);
// False for text that encode_plans did not write.
bool decode_plans(const std::string& text, PlansForExplain& p);

}  // namespace slicefuzz
