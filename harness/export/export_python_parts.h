// The pieces of an exported Python script that both forms of export_python
// share with a case with symbols' script (export_python_dynamic.cpp): written
// once in export_python.cpp.
#pragma once
#include <string>

#include "harness/export/export.h"

namespace slicefuzz::export_python_parts {

// The opening comment: how to run it, `what` it does (a "# ..." paragraph), the
// finding and the case.
std::string script_intro(const Case& c, const CaseSummary& f, const std::string& backend, bool replay,
                         const std::string& what);
// The fill, the ops' Python functions (one per op of the table) and helpers.
std::string op_functions(bool layouts);
// A static case's program with copy semantics: its inputs made (per-value
// layouts), every op in order, and each output's expected value printed, the
// lines prefixed by `label` when it is not empty ("execution 2 (S=1): expected y:").
std::string copy_semantics(const Case& c, const ProgramInfo* info, bool layouts, const std::string& label);
// The tables replay() reads (OPS, PLACEMENT, ALIASED, ARENA_BYTES, ...).
std::string replay_tables_for(const Case& c, const ProgramInfo& info, const RewriteReplay& r, bool layouts);
// replay() and what it calls.
std::string replay_functions(bool layouts);

}  // namespace slicefuzz::export_python_parts
