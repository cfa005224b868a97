// The .case text format, versions 1 and 2 (DESIGN section 4; version 2's eager ops in the README): parser and canonical printer.
// parse(print(c)) == c for every well-formed case; print(parse(text)) is stable.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "vocab/program_info.h"
#include "vocab/case.h"

namespace slicefuzz {

struct ParseResult {
  bool ok = false;
  Case c;
  ProgramInfo info;
  std::string error;  // "FILE:LINE: what was expected" when !ok
};

// The syntax alone: a Case and the line of each part, for the analysis's errors.
struct CaseSyntax {
  bool ok = false;
  Case c;
  std::string error;
  int input_line = 0, output_line = 0;  // input_line: the first input's
  std::vector<int> input_lines;          // one per input, in order
  std::vector<int> op_lines;
};
CaseSyntax parse_case_syntax(std::string_view text, std::string_view filename = "<input>");

// Parses and analyses `text` with the judge's analysis (defined beside it, in
// oracles/analysis.cpp); `filename` only names the file in errors.
ParseResult parse_case(std::string_view text, std::string_view filename = "<input>",
                       int64_t byte_budget = kDefaultByteBudget);

std::string print_case(const Case& c);
std::string print_op(const Op& op);

// Identity dim orders are stored as empty (the printer omits them), so that a
// case has one canonical form.
void canonicalize(Case& c);

}  // namespace slicefuzz
