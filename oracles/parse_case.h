// A case file read as the judge reads it: the syntax (vocab/case_format.h), then
// the judge's analysis (oracles/analysis.h, oracles/dynamic_analysis.h), with each
// error placed on the line it comes from. The vocabulary holds only the syntax;
// what a case means (sizes, errors, executions) is the judge's, so this lives here.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "vocab/case.h"
#include "vocab/case_format.h"
#include "vocab/program_info.h"

namespace slicefuzz {

struct ParseResult {
  bool ok = false;
  Case c;
  ProgramInfo info;
  std::string error;  // "FILE:LINE: what was expected" when !ok
  // Version 4 with symbols: each execution and the bounds (then `info` is the
  // first execution's analysis); with KeepAssignments::Every, also every
  // assignment the ranges allow (DynamicInfo::every).
  DynamicInfo dynamic;
};

// What the analysis of a case with symbols keeps: the bounds and executions
// only (enough to check or mutate a case), or every assignment too, which
// running the case needs (RunOptions::dynamic): one enumeration, not two.
enum class KeepAssignments : bool { Bounds, Every };

// Parses and analyses `text`; `filename` only names the file in errors.
ParseResult parse_case(std::string_view text, std::string_view filename = "<input>",
                       int64_t byte_budget = kDefaultByteBudget, KeepAssignments keep = KeepAssignments::Bounds);

}  // namespace slicefuzz
