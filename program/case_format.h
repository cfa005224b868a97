// The .case text format, version 1 (DESIGN section 4): parser and canonical printer.
// parse(print(c)) == c for every well-formed case; print(parse(text)) is stable.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "program/analysis.h"
#include "program/case.h"

namespace slicefuzz {

struct ParseResult {
  bool ok = false;
  Case c;
  ProgramInfo info;
  std::string error;  // "FILE:LINE: what was expected" when !ok
};

// Parses and analyses `text`; `filename` only names the file in errors.
ParseResult parse_case(std::string_view text, std::string_view filename = "<input>",
                       int64_t byte_budget = kDefaultByteBudget);

std::string print_case(const Case& c);
std::string print_op(const Op& op);

// Identity dim orders are stored as empty (the printer omits them), so that a
// case has one canonical form.
void canonicalize(Case& c);

}  // namespace slicefuzz
