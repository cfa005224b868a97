// The differential runner: one case through every path, compared.
//   torch oracle  vs  naive reference   -> ORACLE_DISAGREEMENT (then nothing else)
//   torch oracle  vs  copy path         -> ERROR_MISMATCH, VALUE_MISMATCH
// plus an int64 provenance shadow of the program for dtypes whose fill repeats
// values, so a misplaced element is caught even in bool or int8.
#pragma once
#include <cstdint>
#include <vector>

#include "backends/backend.h"
#include "harness/findings.h"
#include "program/analysis.h"
#include "program/case.h"

namespace slicefuzz {

struct RunOptions {
  int64_t byte_budget = kDefaultByteBudget;
  bool provenance_shadow = true;
};

struct CaseReport {
  std::vector<Finding> findings;  // failing findings first, tolerated ones after
  int slices = 0;                 // slice_copy ops executed
  bool failed() const;
  const Finding* first_failure() const;
};

CaseReport run_case(const Case& c, const ProgramInfo& info, const Backend& backend,
                    const RunOptions& options);

}  // namespace slicefuzz
