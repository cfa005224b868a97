// The judge's analysis of a version-4 case (docs/design.md section 8): the rules
// of symbols and constants, every execution's static case analysed, and the
// bounds of every value, by enumerating every assignment within the symbols'
// ranges (exact, and independent of any symbolic reasoning in the system under
// test). Runs no code of the system under test.
#pragma once
#include <cstdint>
#include <string>

#include "vocab/case.h"
#include "vocab/program_info.h"

namespace slicefuzz {

struct DynamicError {
  // Where the error belongs, for the parser's file:line.
  enum class Where { Sym, Input, Op, Run } where = Where::Sym;
  int index = 0;  // the symbol, input, op or run
  std::string message;
};

// The case-level rules: a symbol named like a tensor, a write that reaches a
// constant (add_, copy_, or through an eager view of one), too many assignments.
// Then every assignment (bounds) and every execution (`runs`) is analysed with
// analyze(); an analysis error at any of them is the case's error. `first` is the
// first execution's analysis. `keep_every`: also keep every assignment's
// analysis in `out.every` (what deciding and judging a rewrite need; parsing,
// checking and mutating a case do not).
bool analyze_dynamic(const Case& c, int64_t byte_budget, DynamicInfo& out, ProgramInfo& first,
                     DynamicError& err, bool keep_every = false);

// The static rules alone (constants never written), for a version-4 case without
// symbols. "" when they hold; else why, with the op's index in `op`.
std::string constant_write_error(const Case& c, int& op);

}  // namespace slicefuzz
