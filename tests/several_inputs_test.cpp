// Several inputs per case (case format version 2) through every path: torch and
// the naive reference agree on programs over inputs of different dtypes and dim
// orders; the copy and arena executors get every input's values from the runner
// and agree with torch, each input its own root in the arena; the pass decides
// aliases of each input; copy_ between dtypes fails in every path; a backend
// that runs such a copy_ (ExecuTorch casts) is UNSUPPORTED only where its limits
// declare it; out-of-process backends report several inputs UNSUPPORTED;
// explain draws every input; the minimiser drops unused inputs and shrinks each
// input; export --python carries every input's fill start.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "generators/generate.h"
#include "harness/export/export.h"
#include "harness/triage/minimizer.h"
#include "harness/export/plan_picture.h"
#include "harness/run/runner.h"
#include "oracles/oracle.h"
#include "oracles/plan_check.h"
#include "oracles/values.h"
#include "program/arena_executor.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "program/copy_executor.h"
#include "program/memory_planner.h"
#include "program/rewrite_pass.h"

namespace slicefuzz {
namespace {

// Three inputs: a channels-last float32 x, an int64 y (row-major) and a float16 z
// in a permuted order; an alias of each (where the layout allows), a copy_
// between two values of the same dtype, outputs of every dtype.
constexpr const char* kThreeInputs =
    "slicefuzz-case 2\n"
    "dtype float32\n"
    "input x [2, 3, 2, 2] dim_order=[0, 2, 3, 1]\n"
    "input y [4, 3] dtype=int64\n"
    "input z [3, 4] dtype=float16 dim_order=[1, 0]\n"
    "a = slice_copy(x, dim=0, start=1, end=2, step=1)\n"
    "b = select_copy(y, dim=0, index=2)\n"
    "c = select_copy(z, dim=1, index=-1)\n"
    "w = clone(y)\n"
    "add_(w, 5)\n"
    "copy_(y, w)\n"
    "ca = clone(a)\n"
    "cc = clone(c)\n"
    "output ca, b, cc, y\n";

ParseResult parsed(const std::string& text) {
  ParseResult r = parse_case(text, "test.case");
  EXPECT_TRUE(r.ok) << r.error;
  return r;
}

void expect_same_outputs(const PathResult& expected, const PathResult& actual, const std::string& what) {
  ASSERT_EQ(expected.error_op, actual.error_op) << what << ": " << expected.error_message << " vs "
                                                << actual.error_message;
  ASSERT_EQ(expected.outputs.size(), actual.outputs.size()) << what;
  for (size_t i = 0; i < expected.outputs.size(); ++i) {
    std::string why;
    EXPECT_TRUE(compare_values(expected.outputs[i], actual.outputs[i], why)) << what << " output " << i << ": " << why;
  }
}

TEST(SeveralInputsOracles, TorchAndTheNaiveReferenceAgree) {
  const ParseResult r = parsed(kThreeInputs);
  const TorchOracleResult torch = run_torch_oracle(r.c, r.info);
  ASSERT_TRUE(torch.path.complete()) << torch.path.error_message;
  expect_same_outputs(torch.path, run_naive_reference(r.c, r.info), "naive");
  // y after copy_(y, w): its own fill (x has 24 elements, so y's starts at
  // index 24) plus 5.
  const TensorValue& y = torch.path.outputs[3];
  ASSERT_EQ(y.dtype, ScalarType::Long);
  int64_t first = 0;
  std::memcpy(&first, y.bytes.data(), 8);
  EXPECT_EQ(first, 24 + 5);
}

TEST(SeveralInputsOracles, AgreeOnGeneratedProgramsOfSeveralInputs) {
  int seen = 0;
  for (uint64_t i = 0; i < 4000 && seen < 80; ++i) {
    const Case c = generate_case(77, i);
    if (c.inputs.size() < 2) continue;
    ++seen;
    const ParseResult r = parsed(print_case(c));
    const TorchOracleResult torch = run_torch_oracle(r.c, r.info);
    const PathResult naive = run_naive_reference(r.c, r.info);
    expect_same_outputs(torch.path, naive, print_case(c));
    EXPECT_EQ(torch.path.error_op, r.info.failing_op) << print_case(c) << torch.path.error_message;
  }
  EXPECT_GE(seen, 80);
}

TEST(SeveralInputsOracles, TorchRefusesCopyBetweenDtypes) {
  const ParseResult r = parsed(
      "slicefuzz-case 2\ndtype int32\ninput x [3]\ninput y [3] dtype=int16\n"
      "a = clone(x)\ncopy_(a, y)\noutput a\n");
  EXPECT_EQ(r.info.failing_op, 1);
  const TorchOracleResult torch = run_torch_oracle(r.c, r.info);
  EXPECT_EQ(torch.path.error_op, 1);
  EXPECT_NE(torch.path.error_message.find("dtypes differ"), std::string::npos) << torch.path.error_message;
}

TEST(SeveralInputsExecutors, CopyAndArenaPathsGetEveryInputAndAgreeWithTorch) {
  const ParseResult r = parsed(kThreeInputs);
  const std::vector<TensorValue> inputs = make_input_values(r.info);
  ASSERT_EQ(inputs.size(), 3u);
  EXPECT_EQ(inputs[1].dtype, ScalarType::Long);
  EXPECT_EQ(inputs[2].dtype, ScalarType::Half);
  const TorchOracleResult torch = run_torch_oracle(r.c, r.info);
  expect_same_outputs(torch.path, run_copy_path(r.c, r.info, inputs, KernelTable{}), "copy");

  const RewritePlan rw = replace_slice_copy_with_slice(r.c, r.info);
  // a: dim 0 of a channels-last x is outermost -> et_slice of x; b: select of y's
  // outermost dim, read after copy_ writes y -> stays a copy (rule 4); c: select of
  // z's outermost dim in memory (dim 1) -> et_select of z.
  ASSERT_EQ(rw.decisions.size(), 3u);
  EXPECT_TRUE(rw.decisions[0].alias) << rw.decisions[0].reason;
  EXPECT_FALSE(rw.decisions[1].alias);
  EXPECT_EQ(rw.decisions[1].rule, "output");  // b is an output
  EXPECT_TRUE(rw.decisions[2].alias) << rw.decisions[2].reason;
  // Values: x y z (0..2), a b c (3..5), w ca cc.
  EXPECT_EQ(rw.root[3], 0);                 // a's root is x
  EXPECT_EQ(rw.delta_bytes[3], 12 * 4);     // x[1] of a channels-last [2, 3, 2, 2]: 12 float32 in
  EXPECT_EQ(rw.root[5], 2);                 // c's root is z
  EXPECT_EQ(rw.delta_bytes[5], 3 * 3 * 2);  // z[:, 3] of z in order [1, 0] (stride 3): 9 float16 in

  const MemoryPlan plan = plan_memory(r.c, r.info, rw);
  for (int v = 0; v < 3; ++v) {
    EXPECT_EQ(plan.tensors[v].first_step, 0) << v;
    EXPECT_EQ(plan.tensors[v].root, v) << v;
  }
  std::vector<int64_t> deltas(r.info.values.size(), 0);
  deltas[3] = 48;
  deltas[5] = 18;
  EXPECT_EQ(check_plan(r.c, r.info, rw, plan, deltas, kArenaAlignment), "");
  for (AliasMode mode : {AliasMode::RuntimeOp, AliasMode::Planned}) {
    const RewritePathResult arena = run_rewrite_path(r.c, r.info, inputs, rw, plan, KernelTable{}, mode);
    expect_same_outputs(torch.path, arena.path, mode == AliasMode::Planned ? "planned" : "rewrite");
    ASSERT_EQ(arena.aliases.size(), 2u);
    EXPECT_EQ(arena.aliases[1].root, 2);
    EXPECT_EQ(arena.aliases[1].delta_bytes, 18);
  }
}

TEST(SeveralInputsExecutors, TheCopyKernelRefusesCopyBetweenDtypes) {
  const ParseResult r = parsed(
      "slicefuzz-case 2\ndtype float32\ninput x [2]\ninput y [2] dtype=float64\ncopy_(y, x)\noutput y\n");
  const PathResult copy = run_copy_path(r.c, r.info, make_input_values(r.info), KernelTable{});
  EXPECT_EQ(copy.error_op, 0);
  EXPECT_FALSE(copy.partial_write);
}

// A copy_ kernel that casts (as ExecuTorch's does) where the dtypes differ.
Tensor& casting_copy(KernelRuntimeContext& ctx, Tensor& self, const Tensor& src, bool non_blocking) {
  if (self.dtype == src.dtype) return KernelTable{}.copy(ctx, self, src, non_blocking);
  return self;  // "cast": accepted, values left as they were (never compared: the judge expects an error)
}

std::string declares_casting_copies(const Case& c, const ProgramInfo& info) {
  for (size_t k = 0; k < c.ops.size() && k < info.ops.size(); ++k)
    if (c.ops[k].kind == OpKind::Copy &&
        info.values[info.ops[k].target].dtype != info.values[info.ops[k].src].dtype)
      return "copy_ between dtypes (this backend casts)";
  return {};
}

std::string declares_clones(const Case& c, const ProgramInfo&) {
  for (const Op& op : c.ops)
    if (op.kind == OpKind::Clone) return "clone";
  return {};
}

TEST(SeveralInputsRunner, ABackendThatCastsIsUnsupportedWhereItsLimitsSaySo) {
  const ParseResult r = parsed(
      "slicefuzz-case 2\ndtype float32\ninput x [2, 2] dim_order=[1, 0]\ninput y [2, 2] dtype=int8\n"
      "a = clone(y)\ncopy_(a, x)\noutput a\n");
  Backend b = all_backends()[0];
  b.kernels.copy = &casting_copy;
  b.outside_limits = &declares_casting_copies;
  CaseReport report = run_case(r.c, r.info, b, {});
  EXPECT_FALSE(report.failed());
  EXPECT_EQ(report.unsupported, "copy_ between dtypes (this backend casts)");
  // Limits that the case lies outside of, but not for the op it accepted (the
  // clone before it): a finding.
  b.outside_limits = &declares_clones;
  report = run_case(r.c, r.info, b, {});
  ASSERT_TRUE(report.failed());
  EXPECT_EQ(report.first_failure()->kind, FindingKind::ERROR_MISMATCH);
  EXPECT_EQ(report.first_failure()->op, 1);
  EXPECT_EQ(report.unsupported, "");
}

TEST(SeveralInputsRunner, OutOfProcessBackendsReportSeveralInputsUnsupported) {
  const ParseResult r = parsed(kThreeInputs);
  Backend b;
  b.name = "never-started";
  b.worker_command = {"/nonexistent/worker"};
  const CaseReport report = run_case(r.c, r.info, b, {});
  EXPECT_FALSE(report.failed());
  EXPECT_EQ(report.unsupported, "several inputs (the out-of-process protocol carries one input)");
}

// A program whose one value from outside is a constant (corpus/regression/
// empty_constant_in_a_program.case): never sent, since the worker cannot parse
// `const` and would die (found by the self-test's replay on torch-fx-functionalize).
TEST(SeveralInputsRunner, OutOfProcessBackendsReportConstantsUnsupported) {
  const ParseResult r = parsed(
      "slicefuzz-case 4\ndtype float32\nconst x2 [0]\n"
      "a = slice_copy(x2, dim=0, start=None, end=None, step=1)\noutput x2\n");
  ASSERT_TRUE(r.ok);
  Backend b;
  b.name = "never-started";
  b.worker_command = {"/nonexistent/worker"};
  const CaseReport report = run_case(r.c, r.info, b, {});
  EXPECT_FALSE(report.failed());
  EXPECT_EQ(report.unsupported, "constants (the out-of-process protocol carries one input and no constant)");
}

TEST(SeveralInputsRunner, TheReferencePassesTheSeeds) {
  const ParseResult r = parsed(kThreeInputs);
  const CaseReport report = run_case(r.c, r.info, all_backends()[0], {});
  EXPECT_FALSE(report.failed()) << report.first_failure()->message;
  EXPECT_EQ(report.rewritten, 2);
}

TEST(SeveralInputsExplain, ThePictureHasARowPerInputFromStepZero) {
  const ParseResult r = parsed(kThreeInputs);
  const RewritePlan rw = replace_slice_copy_with_slice(r.c, r.info);
  const std::string text = plan_text_picture(r.info, rw, plan_memory(r.c, r.info, rw));
  EXPECT_NE(text.find("(steps: 0 = inputs, k+1 = op k"), std::string::npos) << text;
  for (const char* row : {"\n  x ", "\n  y ", "\n  z "}) EXPECT_NE(text.find(row), std::string::npos) << text;
  const std::string svg = plan_svg("t", r.info, rw, plan_memory(r.c, r.info, rw));
  EXPECT_NE(svg.find("program step (0 = inputs,"), std::string::npos);
}

TEST(SeveralInputsMinimizer, DropsAnUnusedInputAndShrinksEachInput) {
  const ParseResult r = parsed(
      "slicefuzz-case 2\ndtype float32\ninput x [3, 2]\ninput y [4] dtype=int8\ninput z [2]\n"
      "a = slice_copy(y, dim=0, start=1, end=None, step=1)\noutput a, x\n");
  bool dropped_z = false, shrank_y = false, dropped_y = false;
  for (const Case& k : minimize_candidates(r.c, kDefaultByteBudget, false)) {
    if (k.inputs.size() == 2 && !k.is_input("z")) dropped_z = true;
    if (!k.is_input("y")) dropped_y = true;
    if (const InputDecl* y = k.find_input("y"); y && y->sizes == std::vector<int64_t>{1}) shrank_y = true;
  }
  EXPECT_TRUE(dropped_z);
  EXPECT_FALSE(dropped_y);  // an op reads it
  EXPECT_TRUE(shrank_y);
}

TEST(SeveralInputsExport, PythonScriptsBuildEveryInputFromItsFillStart) {
  const ParseResult r = parsed(kThreeInputs);
  const std::string script = export_python(r.c, CaseSummary{}, "reference", nullptr);
  EXPECT_NE(script.find("    'x': ([2, 3, 2, 2], [0, 2, 3, 1], torch.float32, 0),"), std::string::npos) << script;
  EXPECT_NE(script.find("    'y': ([4, 3], [0, 1], torch.int64, 24),"), std::string::npos) << script;
  EXPECT_NE(script.find("    'z': ([3, 4], [1, 0], torch.float16, 36),"), std::string::npos) << script;
  EXPECT_NE(script.find("v_z = make_input(*INPUTS['z'])"), std::string::npos) << script;
}

}  // namespace
}  // namespace slicefuzz
