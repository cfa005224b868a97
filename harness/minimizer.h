// Structural delta debugging of a failing case: drop ops and outputs, drop dims
// and reduce rank, shrink sizes, simplify start/end/step toward None/0/1, the dim
// order toward identity and the dtype toward float32 -- keeping the same finding
// kind (and the same kind of op, when the finding names one). Every candidate
// runs in a worker process, so a sanitizer abort or a crash is survivable.
// Deterministic for a given input.
#pragma once
#include <string>

#include "backends/backend.h"
#include "harness/case_job.h"
#include "harness/isolation.h"
#include "program/case.h"

namespace slicefuzz {

struct MinimizeResult {
  bool reproduced = false;  // the original fails at all
  Case minimized;
  CaseSummary finding;      // the minimized case's finding
  int candidates = 0;       // candidates run
  int accepted = 0;         // candidates that kept the finding
  bool timed_out = false;
};

MinimizeResult minimize_case(const Case& original, const Backend& backend,
                             const RunOptions& options, const IsolationOptions& isolation,
                             double time_limit_s);

}  // namespace slicefuzz
