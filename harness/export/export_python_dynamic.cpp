// `slicefuzz export --python` of a case with symbols (version 4): the script runs
// the case's executions in order, each as its static case (every symbol at its
// value, vocab/concretise.h), prints what every output must be at each, and,
// given the backend's rewrite, replays it at each execution: the rewrite the
// backend decided once for every execution, planned once at the bounds, each
// tensor at its planned offset with its actual sizes (the kernels resize their
// outs, DYNAMIC_BOUND), each alias where that execution put it, over a fresh
// arena per execution as the method runs them. Exits 1 while any execution's
// replay differs from copy semantics.
#include "harness/export/export.h"
#include "harness/export/export_python_parts.h"
#include "harness/export/export_python_text.h"
#include "oracles/dynamic_analysis.h"
#include "vocab/concretise.h"

namespace slicefuzz {

namespace parts = export_python_parts;

std::string export_python_dynamic(const Case& c, const CaseSummary& f, const std::string& backend,
                                  const std::vector<RewriteReplay>* replays, int64_t byte_budget) {
  // Each execution's static case and analysis: the judge's (as run_executions).
  DynamicInfo dynamic;
  ProgramInfo first;
  DynamicError err;
  const bool analysed = analyze_dynamic(c, byte_budget, dynamic, first, err);
  size_t running = 0;
  for (const ExecutionInfo& e : dynamic.runs) running += e.in_range;
  // Eager programs run copy semantics nowhere in the system under test: nothing
  // to replay (as export_python).
  if (!analysed || c.has_eager_ops() || (replays && replays->size() != running)) replays = nullptr;
  std::string s = parts::script_intro(
      c, f, backend, replays != nullptr,
      "# It runs the case's executions in order, each as its static case (every symbol\n"
      "# at its value), and prints what every output must be at each.");
  if (replays)
    s += "# The rewrite replayed is the one the backend decided once for every execution\n"
         "# and planned once at the bounds: at each execution every tensor sits at its\n"
         "# planned offset with that execution's sizes, and each alias where that\n"
         "# execution's method put it.\n";
  s += parts::op_functions(true);
  s += "FINDING = '''" + export_text::finding_line(f) + "'''\n";
  if (!analysed) {  // a loaded case analyses; kept for a case built by hand
    s += "print('the case does not analyse:', " + std::string("'''") + err.message + "''')\n";
    s += "print('slicefuzz finding:', FINDING)\n";
    return s;
  }
  if (replays) s += parts::replay_functions(true) + "problems = []\n";
  size_t running_index = 0;
  for (size_t k = 0; k < dynamic.runs.size(); ++k) {
    const ExecutionInfo& e = dynamic.runs[k];
    const std::string label =
        "execution " + std::to_string(k + 1) + " (" + describe_execution(c, e.values) + ")";
    s += "\n# " + std::string(60, '-') + "\n# " + label + "\nEXECUTION = '" + label + "'\n";
    if (!e.in_range) {
      s += "print(EXECUTION + \": a value lies outside its symbol's range: refused where the "
           "inputs are set (program.fbs); nothing runs\")\n";
      continue;
    }
    s += parts::copy_semantics(e.c, &e.info, true, label);
    if (replays) {
      s += parts::replay_tables_for(e.c, e.info, (*replays)[running_index], true);
      s += "problems += ['%s: %s' % (EXECUTION, p) for p in replay()]\n";
    }
    ++running_index;
  }
  s += "\n";
  if (!replays) return s + "print('slicefuzz finding:', FINDING)\n";
  return s + export_python_text::kReplayVerdict;
}

}  // namespace slicefuzz
