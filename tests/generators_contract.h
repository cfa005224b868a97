// What every generated or mutated case must satisfy (the generator and mutator
// tests share it): analyze() accepts it, its dim order is canonical, and it
// round-trips through the .case format byte for byte.
#pragma once
#include <string>

#include "oracles/analysis.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "vocab/program_info.h"

namespace slicefuzz {

// Why `c` is not a well-formed, printable case, or "" when it is.
inline std::string well_formed_violation(const Case& c, int64_t budget = kDefaultByteBudget) {
  ProgramInfo info;
  AnalysisError err;
  if (!analyze(c, budget, info, err)) return "analyze() rejects it: " + err.message;
  Case canonical = c;
  canonicalize(canonical);
  if (canonical != c) return "not canonical (identity dim order must be empty, version minimal)";
  const std::string text = print_case(c);
  const ParseResult parsed = parse_case(text, "<printed>", budget);
  if (!parsed.ok) return "does not parse: " + parsed.error;
  if (parsed.c != c) return "parse(print(c)) != c";
  if (print_case(parsed.c) != text) return "print(parse(print(c))) != print(c)";
  return {};
}

}  // namespace slicefuzz
