// The re-inplacing pass under test (ReplaceSliceCopyWithSlice, generalised to
// every view-copy op). Turns `y = slice_copy(x, ...)` into `y = et_slice(x, ...)`,
// and every other view-copy op into the alias prim op its table row names
// (op_alias_prim: et_slice, et_select or et_view), exactly when the five rules of DESIGN section 2 hold:
//   1. the op's view of x is dense in y's dim order (static shapes): its strides
//      are the canonical strides of y's sizes in y's dim order (slice_copy: the
//      closed form, a proven fast path); a view_copy of an x whose elements are not
//      one row-major block has no view at all;
//   2. y is not a program output (every use counts, not only the next op);
//   3. neither y nor anything aliasing y is mutated in place;
//   4. the root storage under x is not written while y, or an alias of y, is
//      still to be read;
//   5. y's dtype and dim order are what the op's result must have.
// Chains compose: an alias of an alias of any kind resolves to the root storage
// with summed byte offsets. Every decision carries a human-readable reason.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/util/slice_util.h"
#include "kernels/util/view_util.h"
#include "program/op_layout_facts.h"
#include "vocab/plan_types.h"
#include "vocab/program_info.h"
#include "vocab/case.h"

namespace slicefuzz {

// The rules the pass applies. The reference pass uses all of them; a backend
// (backends/) may run the same pass with a rule swapped or switched off, which is
// how the deliberately faulty backends stay one-line diffs.
struct PassRules {
  decltype(&slice_is_dense) dense = &slice_is_dense;     // rule 1, slice_copy (closed form)
  decltype(&view_is_dense) dense_view = &view_is_dense;  // rule 1, the other view copies
  ReshapeViewFn reshape = &reshape_view;                 // view_copy's view fact
  bool output_rule = true;        // rule 2
  // Rule 2 as pytorch/executorch PR 3602 found it: "is an output" checked on the
  // next node only (the op right after y's is the graph's output node), which
  // misses an output that more ops follow.
  bool output_rule_next_node_only = false;
  bool mutation_rule = true;      // rule 3
  bool root_mutation_rule = true; // rule 4
  bool layout_rule = true;        // rule 5
  // A conservative pass: only slices of the outermost dim in the dim order, step 1.
  bool outermost_only = false;
};

// What a pass is told besides the program. Version 4 (program/dynamic_pass.h):
// the view-copy ops already decided to stay copies at another execution's sizes
// (a pass decides each op given the others: a copy there moves a hazard here).
struct PassContext {
  const std::vector<bool>* keep_copies = nullptr;  // by op index
  // The program as exported, its symbolic arguments unresolved (the case the
  // pass is given has this execution's values in them), or nullptr.
  const Case* with_symbols = nullptr;
  bool keeps_copy(int op) const {
    return keep_copies && op >= 0 && static_cast<size_t>(op) < keep_copies->size() && (*keep_copies)[op];
  }
};

// Values at and after ProgramInfo::failing_op never run and are not decided.
RewritePlan replace_slice_copy_with_slice(const Case& c, const ProgramInfo& info, const PassContext& ctx = {});
RewritePlan rewrite_with_rules(const Case& c, const ProgramInfo& info, const PassRules& rules,
                               const PassContext& ctx = {});

// A plan with no aliases: what the copy path runs (and the copy-only arena).
RewritePlan copy_only_plan(const Case& c, const ProgramInfo& info);

// The last op that uses each value directly (reads it or mutates it in place);
// -1 when never used by an op. Outputs are additionally read at the end.
std::vector<int> last_direct_use(const Case& c, const ProgramInfo& info);

}  // namespace slicefuzz
