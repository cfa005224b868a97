// A backend is the system under test: the kernels, the et_slice prim op, and (with
// the rewrite path) the pass and the planner, each replaceable on its own.
// Everything a backend does not replace is the reference implementation.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "program/arena_executor.h"
#include "program/dynamic_pass.h"
#include "program/kernel_table.h"
#include "program/input_check.h"
#include "program/memory_planner.h"
#include "program/rewrite_pass.h"

namespace slicefuzz {

// A program written for the backend's own runtime (Backend::write_program), and
// what feeds it: its inputs in order, first the case's input values, then one
// one-element int64 tensor per runtime integer (a symbol that sizes no input).
struct WrittenProgram {
  std::vector<uint8_t> bytes;
  std::vector<int> input_values;   // the case value each program input holds
  std::vector<int> symbol_inputs;  // the symbol each later program input holds
};

struct Backend {
  std::string name;
  std::string description;  // one line, shown by `slicefuzz backends`
  KernelTable kernels;
  decltype(&replace_slice_copy_with_slice) pass = &replace_slice_copy_with_slice;
  decltype(&plan_memory) planner = &plan_memory;
  // Version 4: the pass's decisions at each execution's sizes made into the one
  // rewrite the method keeps (program/dynamic_pass.h).
  decltype(&rewrite_for_every_execution) dynamic_pass = &rewrite_for_every_execution;
  // Version 4: which sizes the pass decides at. A pass decides once for every
  // size its symbols' ranges allow (torch.export hands it SymInts with ranges),
  // so the harness runs it at every assignment within the ranges. True: only at
  // the executions this case schedules (a pass that specialises on the sizes it
  // happened to see: faulty-decides-on-schedule).
  bool decides_on_schedule_only = false;
  // Setting an input under dynamic shapes (version 4): refuses a dim past its bound.
  decltype(&check_input_sizes) input_check = &check_input_sizes;
  // A deliberately conservative pass: its MISSED_REWRITE findings are counted and
  // reported, not failed.
  bool tolerates_missed_rewrite = false;
  // Promises that the rewrite never grows the arena (MEMORY_REGRESSION otherwise).
  bool never_grows_arena = false;
  // The alignment its planner promises for every tensor's offset (ExecuTorch's: 16).
  int64_t arena_alignment = kArenaAlignment;
  // How its rewrite path materialises aliases (the reference checks both).
  AliasMode alias_mode = AliasMode::RuntimeOp;
  // Its et_view refuses a view that is not dense in the dim order (the reference's
  // does). False for ExecuTorch's own et_view (kernels/prim_ops/et_view.cpp at
  // cff6f4dd checks dtype and numel only): ExecuTorch makes it only from
  // view_copy, whose kernel requires the default dim order, where an
  // element-order-keeping view is always dense. The alias contract then does not
  // ask it to refuse one (slicefuzz's permute_copy -> et_view of an input in
  // another dim order, say); the pass's decision on the op is still judged.
  bool et_view_guards_density = true;
  // Documented limits: why a case lies outside what the backend supports, or ""
  // (nullptr: no limits). A case outside them that the backend refuses with an
  // error is UNSUPPORTED (counted per reason, not a failure); one it accepts is
  // compared in full.
  std::string (*outside_limits)(const Case& c, const ProgramInfo& info) = nullptr;
  // The root-cause signature of a known defect that `c` reaches and that kills
  // the process running it (a signal, not a recoverable report), or "" (nullptr:
  // none). fuzz_program, which runs the system under test in its own process,
  // counts such a case as KNOWN without running it while the signature is listed
  // in the backend's known findings; isolated runs execute it.
  std::string (*process_killing_known_finding)(const Case& c, const ProgramInfo& info) = nullptr;
  // Out of process: the argv of a persistent worker that speaks the line protocol
  // (README "Out-of-process backends"; harness/run/worker_client.h). Such a backend
  // replaces the whole program's execution, so only its results are compared with
  // the judge (like the copy path); it has no pass, planner or rewrite path.
  std::vector<std::string> worker_command;
  // Runs version 2's eager ops (views, add): generators make eager programs for
  // it. A backend without them reports eager cases UNSUPPORTED.
  bool eager_ops = false;
  // The method its rewrite path runs (nullptr: the reference's RewriteMethod).
  // executorch-runtime's writes the program as a real ExecuTorch program and runs
  // it with ExecuTorch's own Method.
  MethodFactory make_method = nullptr;
  // Writes the program, with the pass's rewrite and the planner's plan, as a file
  // its own runtime runs (`slicefuzz export --pte`: an ExecuTorch .pte), aliases
  // in `mode` (RuntimeOp or Planned), naming only operators upstream has.
  // Returns "" or why not. nullptr: the backend writes no such program.
  // Version 4: `c` has symbols and `info` is the analysis at the bounds;
  // `inputs` (each case input's value) give the constants the program holds.
  std::string (*write_program)(const Case& c, const ProgramInfo& info, const RewritePlan& rewrite,
                               const MemoryPlan& plan, AliasMode mode, const std::vector<TensorValue>& inputs,
                               WrittenProgram& out) = nullptr;
  // Whose known findings (corpus/known/<name>) are this backend's too ("": its
  // own): a variant over the same code under test shares its defects.
  std::string known_findings_of;
  bool out_of_process() const { return !worker_command.empty(); }
};

// The method `b`'s rewrite path runs for `spec`.
inline std::unique_ptr<MethodUnderTest> make_rewrite_method(const Backend& b, const MethodSpec& spec) {
  if (b.make_method) return b.make_method(spec);
  return std::make_unique<RewriteMethod>(spec);
}

// Every registered backend, `reference` first.
const std::vector<Backend>& all_backends();
// A backend a registrar could not offer here, and what it lacks (`slicefuzz
// backends` prints one line each; --backend on it names what it lacks).
struct UnavailableBackend {
  std::string name;
  std::string lacks;
};
std::vector<UnavailableBackend>& unavailable_backends();
const Backend* find_backend(std::string_view name);

}  // namespace slicefuzz
