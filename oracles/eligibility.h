// An eligibility judgement independent of the rewrite pass: density comes from
// torch's view strides (TorchSliceView::dense), hazards from a deliberately
// simple, quadratic scan of the program. It calls none of the pass's code, so a
// disagreement means one of the two is wrong.
#pragma once
#include <string>
#include <vector>

#include "oracles/oracle.h"
#include "program/program_info.h"
#include "program/case.h"

namespace slicefuzz {

struct EligibilityVerdict {
  int op = -1;
  bool eligible = false;
  std::string reason;  // why not (or "eligible")
};

// One verdict per slice_copy that ran in torch (in op order): could this slice be
// an alias, given which *other* slices the pass under test made aliases
// (`aliased_ops`)? Where a value's bytes live depends on those decisions: a
// conservative pass that keeps `c = slice(b)` a copy makes `d = slice(c)` safe
// from writes to b. The decisions are taken as given; density and hazards are
// judged here, independently of the pass.
std::vector<EligibilityVerdict> judge_eligibility(const Case& c, const ProgramInfo& info,
                                                  const std::vector<TorchSliceView>& views,
                                                  const std::vector<int>& aliased_ops);

}  // namespace slicefuzz
