#include "oracles/parse_case.h"

#include <algorithm>

#include "oracles/analysis.h"
#include "oracles/dynamic_analysis.h"

namespace slicefuzz {

ParseResult parse_case(std::string_view text, std::string_view filename, int64_t budget, KeepAssignments keep) {
  ParseResult r;
  CaseSyntax syntax = parse_case_syntax(text, filename);
  r.c = std::move(syntax.c);
  if (!syntax.ok) {
    r.error = std::move(syntax.error);
    return r;
  }
  if (r.c.version >= kDynamicCaseVersion) {  // symbols, constants, executions
    DynamicError derr;
    int op = -1;
    bool ok = true;
    if (r.c.is_dynamic()) {
      ok = analyze_dynamic(r.c, budget, r.dynamic, r.info, derr, keep == KeepAssignments::Every);
    } else if (std::string why = constant_write_error(r.c, op); !why.empty()) {
      derr = DynamicError{DynamicError::Where::Op, op, why};
      ok = false;
    }
    if (!ok) {
      using D = DynamicError::Where;
      auto line_of = [&](const std::vector<int>& lines, int k, int fallback) {
        return k >= 0 && static_cast<size_t>(k) < lines.size() ? lines[k] : fallback;
      };
      const int line = derr.where == D::Sym     ? line_of(syntax.sym_lines, derr.index, syntax.input_line)
                       : derr.where == D::Input ? line_of(syntax.input_lines, derr.index, syntax.input_line)
                       : derr.where == D::Op    ? line_of(syntax.op_lines, derr.index, syntax.input_line)
                                                : line_of(syntax.run_lines, derr.index, syntax.output_line);
      r.error = std::string(filename) + ":" + std::to_string(line) + ": " + derr.message;
      return r;
    }
    if (r.c.is_dynamic()) {
      r.ok = true;
      return r;
    }
  }
  AnalysisError err;
  if (!analyze(r.c, budget, r.info, err)) {
    using W = AnalysisError::Where;
    const int line = err.where == W::Input
                         ? (err.op >= 0 && static_cast<size_t>(err.op) < syntax.input_lines.size()
                                ? syntax.input_lines[err.op]
                                : syntax.input_line)
                     : err.where == W::Outputs ? syntax.output_line
                     : syntax.op_lines.empty()
                         ? syntax.input_line
                         : syntax.op_lines[std::min<size_t>(err.op, syntax.op_lines.size() - 1)];
    r.error = std::string(filename) + ":" + std::to_string(line) + ": " + err.message;
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace slicefuzz
