// `slicefuzz export --pte FILE -o DIR [--mode planned|runtime-op]`: a finding as
// a program its backend's own runtime runs without slicefuzz (for
// executorch-runtime: an ExecuTorch .pte), with the inputs and PyTorch's
// expected outputs beside it, for the standalone runner
// (backends/executorch/repro/pte_runner.cpp) or the user's own.
//
// DIR gets: program.pte; input_K.bin per program input (its bytes in the
// input's own dim order, as set_input takes them); expected.txt ("executions N",
// then "error OP" when PyTorch refuses op OP, else "output K" per output) with
// expected_K.bin (row-major); case.case (the program as slicefuzz reads it).
#include <cstdio>
#include <filesystem>

#include "backends/backend.h"
#include "harness/cli/cli.h"
#include "harness/cli/cli_common.h"
#include "oracles/oracle.h"
#include "oracles/values.h"
#include "program/op_layout_facts.h"
#include "program/tensor_conversion.h"
#include "vocab/case_format.h"

namespace slicefuzz {

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "slicefuzz export --pte: %s\n", message.c_str());
  return 2;
}

std::string bytes_text(const std::vector<uint8_t>& b) { return std::string(b.begin(), b.end()); }

}  // namespace

int cli_export_pte(const CliArgs& args, const CommonOptions& common, const std::string& file,
                   const std::string& text) {
  const auto dir = args.get("-o");
  if (!dir) return fail("-o DIR is required (the directory the program, inputs and expected outputs go to)");
  // The backend that writes programs: the one named, or executorch-runtime.
  const Backend* backend = common.backend;
  const bool named = args.get("--backend").has_value() || std::getenv("SLICEFUZZ_BACKEND");
  if (!backend->write_program && !named) backend = find_backend("executorch-runtime");
  if (!backend || !backend->write_program)
    return fail("backend " + (backend ? backend->name : common.backend->name) +
                " writes no program others can run (executorch-runtime and its faulty variants do; "
                "this build has them only with SLICEFUZZ_EXECUTORCH_SRC)");
  const std::string mode_name = args.get("--mode").value_or("planned");
  AliasMode mode;
  if (mode_name == "planned")
    mode = AliasMode::Planned;
  else if (mode_name == "runtime-op")
    mode = AliasMode::RuntimeOp;
  else
    return fail("--mode must be planned or runtime-op, not '" + mode_name + "'");
  const ParseResult p = parse_case(text, file, common.options.byte_budget);
  if (!p.ok) return fail("PARSE_ERROR: " + p.error);
  if (p.c.is_dynamic()) return fail(file + " has symbols (version 4): not written as a .pte yet");

  // The system under test's pass and planner, as its rewrite path runs them.
  const RewritePlan rewrite = backend->pass(p.c, p.info, {});
  const MemoryPlan plan = backend->planner(p.c, p.info, rewrite);
  std::vector<uint8_t> program;
  if (std::string why = backend->write_program(p.c, p.info, rewrite, plan, mode, program); !why.empty())
    return fail(file + ": " + why + (mode == AliasMode::RuntimeOp ? "; try --mode planned" : ""));

  std::error_code ec;
  std::filesystem::create_directories(*dir, ec);
  if (ec) return fail(*dir + ": " + ec.message());
  std::string error;
  auto write = [&](const std::string& name, const std::string& content) {
    return error.empty() && write_file_atomic(*dir + "/" + name, content, error);
  };
  write("program.pte", bytes_text(program));
  write("case.case", print_case(p.c));
  // Inputs: the judge's fill, laid out as each input's own dim order.
  const std::vector<TensorValue> inputs = make_input_values(p.info);
  for (int k = 0; k < p.info.num_inputs && k < static_cast<int>(inputs.size()); ++k) {
    Tensor t = value_meta(p.info.values[k]);
    std::vector<uint8_t> bytes(t.nbytes());
    t.data = bytes.data();
    t.capacity_nbytes = bytes.size();
    write_tensor_value(inputs[k], t);
    write("input_" + std::to_string(k) + ".bin", bytes_text(bytes));
  }
  // PyTorch's results: the outputs, or the op it refuses.
  const TorchOracleResult torch = run_torch_oracle(p.c, p.info);
  std::string expected = "executions 2\n";
  if (torch.path.error_op >= 0) {
    expected += "error " + std::to_string(torch.path.error_op) + "\n";
  } else {
    for (size_t k = 0; k < torch.path.outputs.size(); ++k) {
      expected += "output " + std::to_string(k) + "\n";
      write("expected_" + std::to_string(k) + ".bin", bytes_text(torch.path.outputs[k].bytes));
    }
  }
  write("expected.txt", expected);
  if (!error.empty()) return fail(error);
  std::printf("wrote %s/program.pte (%zu bytes, backend %s, %s aliases), %d input(s), PyTorch's %s\n",
              dir->c_str(), program.size(), backend->name.c_str(), alias_mode_name(mode), p.info.num_inputs,
              torch.path.error_op >= 0 ? "error" : "outputs");
  std::printf("run: et_pte_runner %s   (exit 1 while it reproduces; README \"Reproducing a finding with a .pte\")\n",
              dir->c_str());
  return 0;
}

}  // namespace slicefuzz
