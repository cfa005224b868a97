// Version 4 (docs/design.md section 8): the rewrite decided once for a program
// with symbols, which runs at many sizes. The pass has decided at each scheduled
// execution's sizes (the static pass, one decision per view-copy op); this
// combines them into the one plan the method keeps for every execution:
//   - an op is an alias only where every execution that runs it made it one
//     (dense at every size, no hazard at any);
//   - an alias's root is found again through the combined decisions (a link kept
//     a copy at one size is a copy at all);
//   - a plan that places aliases (planned mode: PR 21552's memory.slice, an
//     allocation_info offset) holds one byte offset per alias: an alias whose
//     offset in its root moves between executions (a dim-0 slice below a dynamic
//     inner dim, a slice at a runtime start) stays a copy there. An alias prim op
//     (et_slice, et_view) recomputes its pointer each time and keeps it.
// System under test: the judge decides eligibility over the executions itself
// (oracles/dynamic_eligibility.h).
#pragma once
#include <vector>

#include "vocab/plan_types.h"
#include "vocab/program_info.h"

namespace slicefuzz {

struct DynamicPassRules {
  // The planned-mode rule above. Off: the offset the first execution computed
  // (the bound's, when the schedule starts there) is planned for every one.
  bool planned_offset_must_stay = true;
  // Planned aliases are written once with their sizes, as in an ExecuTorch
  // program (executorch-runtime-planned): an alias whose sizes differ between
  // executions stays a copy. Off for the reference, whose method gives a planned
  // alias each execution's sizes.
  bool planned_sizes_must_stay = false;
  // Planned aliases of a constant are entries of the program's constant segment,
  // whose offsets program.fbs requires aligned to the tensor alignment
  // (SubsegmentOffsets): one at a delta that is not a multiple of this stays a
  // copy. 0: no such rule (the reference's method reads constants in place).
  int64_t planned_constant_alignment = 0;
};

// `infos[i]` and `plans[i]`: execution i's analysis and the pass's plan at its
// sizes (the value and op tables are the same at every execution). `planned`:
// the backend places aliases by the plan.
RewritePlan rewrite_for_every_execution(const std::vector<const ProgramInfo*>& infos,
                                        const std::vector<RewritePlan>& plans, bool planned);
RewritePlan rewrite_for_every_execution_with(const std::vector<const ProgramInfo*>& infos,
                                             const std::vector<RewritePlan>& plans, bool planned,
                                             const DynamicPassRules& rules);

}  // namespace slicefuzz
