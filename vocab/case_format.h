// The .case text format, versions 1 to 4 (docs/design.md sections 4 and 8): parser
// (case_format.cpp) and canonical printer (case_printer.cpp).
// parse(print(c)) == c for every well-formed case; print(parse(text)) is stable.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "vocab/program_info.h"
#include "vocab/case.h"

namespace slicefuzz {

// The syntax alone: a Case and the line of each part, for the analysis's errors.
struct CaseSyntax {
  bool ok = false;
  Case c;
  std::string error;
  int input_line = 0, output_line = 0;  // input_line: the first input's
  std::vector<int> input_lines;          // one per input, in order
  std::vector<int> op_lines;
  std::vector<int> sym_lines, run_lines;  // version 4
};
CaseSyntax parse_case_syntax(std::string_view text, std::string_view filename = "<input>");

std::string print_case(const Case& c);
std::string print_op(const Op& op);
// With the case's symbol names (version 4); print_op(op) writes `sym0` for them.
std::string print_op(const Op& op, const Case& c);

// What the canonical form leaves out of an input line (canonicalize, print_case):
// an identity dim order, and a dtype equal to the case's default.
inline bool order_is_identity(const InputDecl& in) {
  bool identity = in.dim_order.size() == in.sizes.size();
  for (size_t i = 0; identity && i < in.dim_order.size(); ++i)
    identity = in.dim_order[i] == static_cast<int>(i);
  return identity;
}
inline bool dtype_is_default(const InputDecl& in, ScalarType default_dtype) {
  return in.dtype == default_dtype;
}

// Identity dim orders are stored as empty (the printer omits them), so that a
// case has one canonical form.
void canonicalize(Case& c);

}  // namespace slicefuzz
