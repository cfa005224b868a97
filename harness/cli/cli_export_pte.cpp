// `slicefuzz export --pte FILE -o DIR [--mode planned|runtime-op]`: a finding as
// a program its backend's own runtime runs without slicefuzz (for
// executorch-runtime: an ExecuTorch .pte), with the inputs and PyTorch's
// expected outputs beside it, for the standalone runner
// (backends/executorch/repro/pte_runner.cpp) or the user's own.
//
// DIR gets program.pte, case.case (the program as slicefuzz reads it), the input
// and expected-output files, and expected.txt, which says how to run them:
//   executions N
//   execution E                 then, for execution E (1-based):
//   input K FILE SIZE...        program input K's bytes (in its own dim order,
//                               as set_input takes them) at these sizes
//   refused                     set_input must refuse an input (past its bound)
//   error OP                    PyTorch refuses op OP
//   output K FILE               PyTorch's output K (row-major)
// A static case runs twice (as the rewrite path runs its method); a version-4
// case runs its executions in order, each at its own sizes and runtime integers
// (a one-element int64 input each), over the one program written at the bounds.
#include <cstdio>
#include <filesystem>

#include "backends/backend.h"
#include "harness/cli/cli.h"
#include "harness/cli/cli_common.h"
#include "harness/run/runner.h"
#include "oracles/dynamic_analysis.h"
#include "oracles/oracle.h"
#include "oracles/values.h"
#include "program/op_layout_facts.h"
#include "program/tensor_conversion.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "vocab/concretise.h"

namespace slicefuzz {

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "slicefuzz export --pte: %s\n", message.c_str());
  return 2;
}

std::string bytes_text(const std::vector<uint8_t>& b) { return std::string(b.begin(), b.end()); }

// The directory's files, held until all are made (a case that cannot be
// exported leaves nothing behind), then each written atomically.
struct ExportFiles {
  std::vector<std::pair<std::string, std::string>> files;
  void write(const std::string& name, const std::string& content) { files.emplace_back(name, content); }
  std::string flush(const std::string& dir) const {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return dir + ": " + ec.message();
    std::string error;
    for (const auto& [name, content] : files)
      if (!write_file_atomic(dir + "/" + name, content, error)) return error;
    return "";
  }
};

// One execution: the program's inputs (the case's inputs at the execution's
// sizes, filled as the judge fills them, then its runtime integers) and what
// PyTorch says of it. A static case's executions share one set of files.
struct ExecutionBlock {
  std::string text;   // its lines of expected.txt
  std::string error;  // why it cannot be written ("" if it can)
  bool torch_refuses = false;
};

ExecutionBlock write_execution(ExportFiles& files, const WrittenProgram& w, const ExecutionInfo& e, bool dynamic,
                               int number) {
  const std::string stem = dynamic ? std::to_string(number) + "_" : "";
  ExecutionBlock b;
  std::string& text = b.text;
  text = "execution " + std::to_string(number) + "\n";
  const std::vector<TensorValue> values = make_input_values(e.info);
  for (size_t k = 0; k < w.input_values.size(); ++k) {
    const int v = w.input_values[k];
    if (v < 0 || v >= static_cast<int>(values.size())) {
      b.error = "program input " + std::to_string(k) + " is no case input";
      return b;
    }
    Tensor t = value_meta(e.info.values[v]);
    std::vector<uint8_t> bytes(t.nbytes());
    t.data = bytes.data();
    t.capacity_nbytes = bytes.size();
    write_tensor_value(values[v], t);
    const std::string name = "input_" + stem + std::to_string(k) + ".bin";
    files.write(name, bytes_text(bytes));
    text += "input " + std::to_string(k) + " " + name;
    for (int64_t s : e.info.values[v].sizes) text += " " + std::to_string(s);
    text += "\n";
  }
  for (size_t i = 0; i < w.symbol_inputs.size(); ++i) {
    const int sym = w.symbol_inputs[i];
    if (sym < 0 || sym >= static_cast<int>(e.values.size())) {
      b.error = "runtime integer " + std::to_string(sym) + " has no value";
      return b;
    }
    const int64_t value = e.values[sym];
    const size_t k = w.input_values.size() + i;
    const std::string name = "input_" + stem + std::to_string(k) + ".bin";
    files.write(name, std::string(reinterpret_cast<const char*>(&value), sizeof value));
    text += "input " + std::to_string(k) + " " + name + " 1\n";
  }
  if (!e.in_range) {  // program.fbs: refused where the inputs are set
    text += "refused\n";
    return b;
  }
  const TorchOracleResult torch = run_torch_oracle(e.c, e.info);
  if (torch.path.error_op >= 0) {
    b.torch_refuses = true;
    text += "error " + std::to_string(torch.path.error_op) + "\n";
    return b;
  }
  for (size_t k = 0; k < torch.path.outputs.size(); ++k) {
    const std::string name = "expected_" + stem + std::to_string(k) + ".bin";
    files.write(name, bytes_text(torch.path.outputs[k].bytes));
    text += "output " + std::to_string(k) + " " + name + "\n";
  }
  return b;
}

}  // namespace

int cli_export_pte(const CliArgs& args, const CommonOptions& common, const std::string& file,
                   const std::string& text) {
  const auto dir = args.get("-o");
  if (!dir) return fail("-o DIR is required (the directory the program, inputs and expected outputs go to)");
  const std::string mode_name = args.get("--mode").value_or("planned");
  AliasMode mode;
  if (mode_name == "planned")
    mode = AliasMode::Planned;
  else if (mode_name == "runtime-op")
    mode = AliasMode::RuntimeOp;
  else
    return fail("--mode must be planned or runtime-op, not '" + mode_name + "'");
  // The backend that writes programs: the one named, or the ExecuTorch runtime
  // backend of that alias mode.
  const Backend* backend = common.backend;
  const bool named = args.get("--backend").has_value() || std::getenv("SLICEFUZZ_BACKEND");
  if (!backend->write_program && !named)
    backend = find_backend(mode == AliasMode::Planned ? "executorch-runtime-planned" : "executorch-runtime");
  if (!backend || !backend->write_program)
    return fail("backend " + (backend ? backend->name : common.backend->name) +
                " writes no program others can run (executorch-runtime and its variants do; "
                "this build has them only with SLICEFUZZ_EXECUTORCH_SRC)");
  const ParseResult p = parse_case(text, file, common.options.byte_budget);
  if (!p.ok) return fail("PARSE_ERROR: " + p.error);
  // With symbols, which aliases a program may keep depends on the alias mode (a
  // planned alias has no op to resize it: one whose sizes vary stays a copy), so
  // the rewrite is the backend's in its own mode.
  if (p.c.is_dynamic() && backend->alias_mode != AliasMode::Both && backend->alias_mode != mode)
    return fail(file + " has symbols: its program is written as backend " + backend->name + " decides it, with " +
                alias_mode_name(backend->alias_mode) + " aliases; use --mode " + alias_mode_name(backend->alias_mode) +
                (mode == AliasMode::Planned ? ", or --backend executorch-runtime-planned" : ""));

  // The executions: a static case's two (the same inputs), a dynamic case's own.
  const bool dynamic = p.c.is_dynamic();
  DynamicInfo schedule;
  if (dynamic) {
    ProgramInfo first;
    DynamicError err;
    if (!analyze_dynamic(p.c, common.options.byte_budget, schedule, first, err, /*keep_every=*/true))
      return fail("PARSE_ERROR: " + file + ": " + err.message);
  } else {
    ExecutionInfo once{{}, true, p.c, p.info};
    schedule.runs = {once, once};
  }
  std::vector<const ExecutionInfo*> running;
  for (const ExecutionInfo& e : schedule.runs)
    if (e.in_range) running.push_back(&e);
  if (running.empty()) return fail(file + ": no execution lies within its symbols' ranges (nothing to plan)");

  // The system under test's pass and planner, as its rewrite path runs them (a
  // dynamic case: decided once for every execution, planned at the bounds).
  RewritePlan rewrite;
  MemoryPlan plan;
  ProgramInfo info = p.info;
  if (dynamic) {
    ScheduledRewrite s = decide_rewrite_for_executions(p.c, running, schedule, *backend);
    rewrite = std::move(s.rewrite);
    plan = std::move(s.plan);
    info = std::move(s.bound_info);
  } else {
    rewrite = backend->pass(p.c, p.info, {});
    plan = backend->planner(p.c, p.info, rewrite);
  }
  WrittenProgram program;
  // The constants' values (static: the same at every execution).
  const std::vector<TensorValue> inputs = make_input_values(running.front()->info);
  if (std::string why = backend->write_program(p.c, info, rewrite, plan, mode, inputs, program); !why.empty())
    return fail(file + ": " + why + (mode == AliasMode::RuntimeOp ? "; try --mode planned" : ""));

  ExportFiles files;
  files.write("program.pte", bytes_text(program.bytes));
  files.write("case.case", print_case(p.c));
  std::string expected = "executions " + std::to_string(schedule.runs.size()) + "\n";
  int refused = 0, errors = 0;
  for (size_t k = 0; k < schedule.runs.size(); ++k) {
    const ExecutionInfo& e = schedule.runs[k];
    const ExecutionBlock block = write_execution(files, program, e, dynamic, static_cast<int>(k) + 1);
    if (!block.error.empty()) return fail(file + ": " + block.error);
    expected += block.text;
    refused += !e.in_range;
    errors += block.torch_refuses;
  }
  files.write("expected.txt", expected);
  if (std::string error = files.flush(*dir); !error.empty()) return fail(error);
  std::printf("wrote %s/program.pte (%zu bytes, backend %s, %s aliases), %zu input(s), %zu execution(s)",
              dir->c_str(), program.bytes.size(), backend->name.c_str(), alias_mode_name(mode),
              program.input_values.size() + program.symbol_inputs.size(), schedule.runs.size());
  std::printf(" (%d refused where the inputs are set, %d with PyTorch's error)\n", refused, errors);
  std::printf("run: et_pte_runner %s   (exit 1 while it reproduces; README \"Reproducing a finding with a .pte\")\n",
              dir->c_str());
  return 0;
}

}  // namespace slicefuzz
