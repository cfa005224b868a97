// ReplaceSliceCopyWithSlice: the rewrite under test. Turns `y = slice_copy(x, ...)`
// into `y = et_slice(x, ...)` exactly when the five rules of DESIGN section 2 hold:
//   1. the slice is dense in x's dim order (static shapes);
//   2. y is not a program output;
//   3. neither y nor anything aliasing y is mutated in place;
//   4. the root storage under x is not mutated while y, or an alias of y, is still
//      to be read;
//   5. x and y agree in dtype and dim order.
// Chains compose: an alias of an alias resolves to the root storage with summed
// byte offsets. Every decision carries a human-readable reason.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/util/slice_util.h"
#include "program/plan_types.h"
#include "program/program_info.h"
#include "program/case.h"

namespace slicefuzz {

// The rules the pass applies. The reference pass uses all of them; a backend
// (backends/) may run the same pass with a rule swapped or switched off, which is
// how the deliberately faulty backends stay one-line diffs.
struct PassRules {
  decltype(&slice_is_dense) dense = &slice_is_dense;  // rule 1
  bool output_rule = true;        // rule 2
  bool mutation_rule = true;      // rule 3
  bool root_mutation_rule = true; // rule 4
  // A conservative pass: only slices of the outermost dim in the dim order, step 1.
  bool outermost_only = false;
};

// Values at and after ProgramInfo::failing_op never run and are not decided.
RewritePlan replace_slice_copy_with_slice(const Case& c, const ProgramInfo& info);
RewritePlan rewrite_with_rules(const Case& c, const ProgramInfo& info, const PassRules& rules);

// A plan with no aliases: what the copy path runs (and the copy-only arena).
RewritePlan copy_only_plan(const Case& c, const ProgramInfo& info);

// The last op that uses each value directly (reads it or mutates it in place);
// -1 when never used by an op. Outputs are additionally read at the end.
std::vector<int> last_direct_use(const Case& c, const ProgramInfo& info);

}  // namespace slicefuzz
