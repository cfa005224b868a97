// An eligibility judgement independent of the rewrite pass: density comes from
// torch's view strides (TorchOpView::dense), hazards from a deliberately
// simple, quadratic scan of the program. It calls none of the pass's code, so a
// disagreement means one of the two is wrong.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "oracles/judge_rules.h"
#include "oracles/oracle.h"
#include "vocab/program_info.h"
#include "vocab/case.h"

namespace slicefuzz {


struct EligibilityVerdict {
  int op = -1;
  bool eligible = false;
  EligibilityRule broken = EligibilityRule::None;  // the first rule that fails
  std::string reason;  // why not (or "eligible"), in words
};

// One verdict per view-copy op that ran in torch (every entry of `views`, in op
// order): could `y = op(x, ...)` be an alias of x's bytes (et_slice, et_select,
// et_view), given which *other* view-copy ops the pass under test made aliases
// (`aliased_ops`)? Where a value's bytes live depends on those decisions: a
// conservative pass that keeps `c = slice(b)` a copy makes `d = slice(c)` safe
// from writes to b. The decisions are taken as given; the rules (DESIGN 2) are
// judged here, independently of the pass:
//   1. torch's view of the op is dense in y's dim order;
//   2. y is not a program output;
//   3. neither y nor any alias of y (eager views, and view-copy ops the pass made
//      aliases, transitively) is mutated in place;
//   4. the storage x lives in is not written (through any value that lives in
//      it) while y or any alias of y is still to be read;
//   5. y's dtype and dim order are what the op's result must have.
std::vector<EligibilityVerdict> judge_eligibility(const Case& c, const ProgramInfo& info,
                                                  const std::vector<TorchOpView>& views,
                                                  const std::vector<int>& aliased_ops);

}  // namespace slicefuzz
