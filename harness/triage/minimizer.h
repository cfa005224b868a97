// Structural delta debugging of a failing case: drop ops and outputs, drop dims
// and reduce rank (following the dim through every op's layout), shrink sizes,
// simplify arguments -- start/end/step toward None/0/1, a select's dim and
// index toward 0, squeeze_copy's dims (drop one), unsqueeze_copy's dim, view_copy's
// sizes (the source's own, a size 1 dropped, neighbours merged), clone's dim
// order dropped, a view-copy op replaced by a whole-tensor slice_copy or a clone --
// the input's dim order toward identity and the dtype toward float32, keeping the
// same finding kind (and the same kind of op, named from the op table, when the
// finding names one). Every candidate runs in a worker process, so a sanitizer
// abort or a crash is survivable. Deterministic for a given input.
#pragma once
#include <string>

#include "backends/backend.h"
#include "harness/run/case_job.h"
#include "harness/run/isolation.h"
#include "vocab/case.h"

namespace slicefuzz {

struct MinimizeResult {
  bool reproduced = false;  // the original fails at all
  Case minimized;
  CaseSummary finding;      // the minimized case's finding
  int candidates = 0;       // candidates run
  int accepted = 0;         // candidates that kept the finding
  bool timed_out = false;
};

// One round's candidates for `c`, simplest first (every one parses and analyses;
// sizes reach 0 only with allow_empty). minimize_case runs them in order.
std::vector<Case> minimize_candidates(const Case& c, int64_t byte_budget, bool allow_empty);

MinimizeResult minimize_case(const Case& original, const Backend& backend,
                             const RunOptions& options, const IsolationOptions& isolation,
                             double time_limit_s);

}  // namespace slicefuzz
