// The reproducers of the view-copy ops (case format version 2), without running
// the system under test: the Python scripts (run with Debian's torch 1.13), the
// rewrite replay on hand-made plans, the gtest and torch.fx and et-* scripts.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_temp_dir.h"
#include "harness/export/export.h"
#include "harness/export/export_worker.h"
#include "harness/run/runner.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

Case parsed(const std::string& text) {
  ParseResult p = parse_case(text);
  EXPECT_TRUE(p.ok) << p.error << "\n" << text;
  return p.c;
}

// The case every export test uses: each new op, per-value layouts (a clone into
// another dim order, then a squeeze of it).
constexpr const char* kEveryNewOp = R"(slicefuzz-case 2
dtype float32
input x [2, 1, 3]
a = select_copy(x, dim=0, index=-1)
b = squeeze_copy(a, dims=[0])
c = unsqueeze_copy(b, dim=1)
d = view_copy(c, sizes=[-1])
e = clone(x, dim_order=[2, 0, 1])
f = squeeze_copy(e, dim=1)
output d, f
)";

std::string run_command(const std::string& cmd, int& status) {
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  status = pclose(f);
  return out;
}

bool have_torch() {
  int status = 0;
  run_command("/usr/bin/python3 -c 'import torch' 2>/dev/null", status);
  return status == 0;
}

// Runs a script with Debian's interpreter; the exit status in `code`.
std::string run_python(const std::string& script, const std::string& stem, int& code) {
  const std::string path = (slicefuzz::testing::process_temp_dir() / (stem + ".py")).string();
  std::ofstream(path) << script;
  int status = 0;
  const std::string out = run_command("/usr/bin/python3 " + path + " 2>&1", status);
  code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::remove(path.c_str());
  return out;
}

CaseSummary no_finding() { return CaseSummary{}; }

TEST(ViewOpsExport, PythonWritesEachOpWithItsResultsDimOrder) {
  const std::string script = export_python(parsed(kEveryNewOp), no_finding(), "reference");
  for (const char* line : {"v_a = select_copy(v_x, 0, -1, [0, 1])",
                           "v_b = squeeze_copy(v_a, [0], [0])",
                           "v_c = unsqueeze_copy(v_b, 1, [0, 1])",
                           "v_d = view_copy(v_c, [-1], [0])",
                           "v_e = clone(v_x, [2, 0, 1])",
                           "v_f = squeeze_copy(v_e, [1], [1, 0])"})
    EXPECT_NE(script.find(line), std::string::npos) << line << "\n" << script;
  // torch 1.13 has no squeeze.dims: one dim at a time.
  EXPECT_NE(script.find("t = t.squeeze(d)"), std::string::npos);
}

TEST(ViewOpsExport, PythonScriptPrintsTheExpectedValuesWithTorch113) {
  if (!have_torch()) GTEST_SKIP() << "/usr/bin/python3 has no torch (ci/install-deps.sh)";
  int code = 0;
  const std::string out =
      run_python(export_python(parsed(kEveryNewOp), no_finding(), "reference"), "sf_every_op", code);
  ASSERT_EQ(code, 0) << out;
  // x = [[0.5, 1.5, 2.5]], [[3.5, 4.5, 5.5]]; d = x[1] flattened, f = x without dim 1.
  EXPECT_NE(out.find("expected d: [3] [3.5, 4.5, 5.5]"), std::string::npos) << out;
  EXPECT_NE(out.find("expected f: [2, 3] [0.5, 1.5, 2.5, 3.5, 4.5, 5.5]"), std::string::npos) << out;
}

TEST(ViewOpsExport, PythonScriptRaisesAtTheOpTheJudgeSaysMustFail) {
  if (!have_torch()) GTEST_SKIP() << "/usr/bin/python3 has no torch (ci/install-deps.sh)";
  const std::map<std::string, std::string> failing = {
      {"select_index", "y = select_copy(x, dim=0, index=2)"},
      {"squeeze_repeated", "y = squeeze_copy(x, dims=[1, -1])"},
      {"squeeze_range", "y = squeeze_copy(x, dim=2)"},
      {"unsqueeze_range", "y = unsqueeze_copy(x, dim=3)"},
      {"view_count", "y = view_copy(x, sizes=[4])"},
      {"view_two_inferred", "y = view_copy(x, sizes=[-1, -1])"},
      {"view_zero_inferred", "y = view_copy(x, sizes=[0, -1])"},
      {"clone_order", "y = clone(x, dim_order=[0, 0])"},
  };
  for (const auto& [name, line] : failing) {
    const Case c = parsed("slicefuzz-case 2\ndtype int32\ninput x [2, 3]\n" + line + "\noutput y\n");
    int code = 0;
    const std::string out = run_python(export_python(c, no_finding(), "reference"), "sf_" + name, code);
    EXPECT_EQ(code, 0) << name << ": " << out;
    EXPECT_NE(out.find("expected: op 0 `" + line + "` raises"), std::string::npos) << name << ": " << out;
  }
}

// A hand-made plan: every view-copy op of a chain an alias of x at +12 bytes
// (x[1] of a [2, 1, 3] float32), then a clone. `wrong` moves d's alias to +0.
RewriteReplay chain_replay(bool wrong) {
  RewriteReplay r;
  RewritePlan& rw = r.plans.rewrite;
  rw.root = {0, 0, 0, 0, 0, 5};
  rw.delta_bytes = {0, 12, 12, 12, 12, 0};
  for (int k = 0; k < 4; ++k) rw.decisions.push_back({k, k + 1, true, "alias", "et_view"});
  MemoryPlan& plan = r.plans.plan;
  plan.arena_bytes = 48;
  plan.end_step = 6;
  plan.tensors = {{0, 0, 0, 24, 0, 5, 1}, {1, 0, 12, 12, 1, 2, 2}, {2, 0, 12, 12, 2, 3, 3},
                  {3, 0, 12, 12, 3, 4, 4}, {4, 0, 12, 12, 4, 5, 5}, {5, 5, 32, 12, 5, 6, 6}};
  r.plans.copy_plan = plan;
  r.plans.copy_plan.arena_bytes = 96;
  if (wrong) {
    r.executed.assign(6, false);
    r.executed_delta.assign(6, 0);
    r.executed[4] = true;  // et_view put d at +0
  }
  return r;
}

constexpr const char* kAliasChain = R"(slicefuzz-case 2
dtype float32
input x [2, 1, 3]
a = select_copy(x, dim=0, index=1)
b = squeeze_copy(a, dims=[0])
c = unsqueeze_copy(b, dim=0)
d = view_copy(c, sizes=[3, 1])
e = clone(d)
output e
)";

TEST(ViewOpsExport, ReplayPlacesEveryAliasPrimOpsAliasWithAsStrided) {
  const RewriteReplay good = chain_replay(false);
  const std::string script = export_python(parsed(kAliasChain), no_finding(), "reference", &good);
  EXPECT_NE(script.find("'a': 'et_select'"), std::string::npos) << script;
  EXPECT_NE(script.find("'d': 'et_view'"), std::string::npos) << script;
  EXPECT_NE(script.find("('select_copy', 'a', 'x', (0, 1), [0, 1])"), std::string::npos) << script;
  EXPECT_NE(script.find("torch.as_strided(as_dtype(dtype)"), std::string::npos);  // the arena seen as the value's dtype
  if (!have_torch()) GTEST_SKIP() << "/usr/bin/python3 has no torch (ci/install-deps.sh)";
  int code = 0;
  std::string out = run_python(script, "sf_chain_good", code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("not reproduced"), std::string::npos) << out;

  const RewriteReplay bad = chain_replay(true);
  out = run_python(export_python(parsed(kAliasChain), no_finding(), "reference", &bad), "sf_chain_bad", code);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("the et_view alias 'd' = as_strided('x', [3, 1], [1, 1], +0) covers elements "
                     "[0, 1, 2] of its root 'x', but view_copy reads elements [3, 4, 5]"),
            std::string::npos)
      << out;
}

TEST(ViewOpsExport, ReplayShowsANonDenseSelectAliasAndAnAliasedOutput) {
  RewriteReplay r;
  r.plans.rewrite.root = {0, 0};
  r.plans.rewrite.delta_bytes = {0, 4};
  r.plans.rewrite.decisions = {{0, 1, true, "alias", "et_select"}};
  r.plans.plan.arena_bytes = 32;
  r.plans.plan.end_step = 2;
  r.plans.plan.tensors = {{0, 0, 0, 24, 0, 2, 1}, {1, 0, 4, 8, 1, 2, 2}};
  r.plans.copy_plan = r.plans.plan;
  const Case c = parsed("slicefuzz-case 2\ndtype float32\ninput x [2, 3]\n"
                        "a = select_copy(x, dim=1, index=1)\noutput a\n");
  if (!have_torch()) GTEST_SKIP() << "/usr/bin/python3 has no torch (ci/install-deps.sh)";
  int code = 0;
  const std::string out = run_python(export_python(c, no_finding(), "faulty", &r), "sf_select", code);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("the et_select alias 'a' = as_strided('x', [2], [1], +1) covers elements [1, 2] "
                     "of its root 'x', but select_copy reads elements [1, 4]"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("output 'a' is an et_select alias of 'x'"), std::string::npos) << out;
}

TEST(ViewOpsExport, VersionOneCasesKeepTheirScriptForm) {
  const Case c = parsed("slicefuzz-case 1\ndtype float32\ninput x [4]\n"
                        "y = slice_copy(x, dim=0, start=1, end=None, step=1)\noutput y\n");
  const std::string script = export_python(c, no_finding(), "reference");
  EXPECT_NE(script.find("v_y = slice_copy(v_x, 0, 1, None, 1)\n"), std::string::npos) << script;
  EXPECT_EQ(script.find("def select_copy"), std::string::npos);
  EXPECT_EQ(export_gtest(c, no_finding(), "reference", "v1").find("kernels' terms"), std::string::npos);
}

TEST(ViewOpsExport, GtestListsEachOpsKernelAndAliasPrimOp) {
  const std::string test = export_gtest(parsed(kEveryNewOp), no_finding(), "reference", "every-op");
  for (const char* line :
       {"op 0 `a = select_copy(x, dim=0, index=-1)`: select_copy_int_out; et_select when the pass",
        "op 1 `b = squeeze_copy(a, dims=[0])`: squeeze_copy_dims_out; et_view when",
        "op 2 `c = unsqueeze_copy(b, dim=1)`: unsqueeze_copy_out; et_view when",
        "op 3 `d = view_copy(c, sizes=[-1])`: view_copy_out; et_view when",
        "op 4 `e = clone(x, dim_order=[2, 0, 1])`: clone_dim_order_out\n"})
    EXPECT_NE(test.find(line), std::string::npos) << line << "\n" << test;
  EXPECT_NE(test.find(print_case(parsed(kEveryNewOp))), std::string::npos);
}

TEST(ViewOpsExport, TorchFxScriptBuildsTheNewOpsEagerly) {
  const Backend* fx = find_backend("torch-fx-functionalize");
  if (!fx) GTEST_SKIP() << "torch-fx-functionalize is not registered";
  ParseResult p = parse_case(kEveryNewOp);
  ASSERT_TRUE(p.ok) << p.error;
  const std::string script = export_python_worker(p.c, p.info, no_finding(), *fx);
  for (const char* line : {"a = torch.ops.aten.select.int(x, 0, -1).clone()",
                           "b = squeeze_dims(a, [0]).clone()", "c = torch.ops.aten.unsqueeze(b, 1).clone()",
                           "d = torch.reshape(c, [-1]).clone()", "e = clone_dim_order(x, [2, 0, 1])"})
    EXPECT_NE(script.find(line), std::string::npos) << line << "\n" << script;
  if (!have_torch()) GTEST_SKIP() << "/usr/bin/python3 has no torch (ci/install-deps.sh)";
  int code = 0;
  const std::string out = run_python(script, "sf_fx_every_op", code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("not reproduced"), std::string::npos) << out;
}

// The et-* scripts call each view-copy op as aten's functional overload, named
// from the op table's ExecuTorch operator (select_copy.int_out: select_copy.int).
TEST(ViewOpsExport, EtScriptCallsAtensFunctionalOverloads) {
  const Backend* et = find_backend("et-edge-control");
  if (!et) GTEST_SKIP() << "et-edge-control is not registered (no ExecuTorch tree at build)";
  ParseResult p = parse_case(R"(slicefuzz-case 3
dtype float32
input x [2, 3]
a = select_copy(x, dim=0, index=-1)
b = unsqueeze_copy(a, dim=1)
c = expand_copy(b, sizes=[3, 2])
output c
)");
  ASSERT_TRUE(p.ok) << p.error;
  const std::string script = export_python_worker(p.c, p.info, no_finding(), *et);
  for (const char* line : {"a = torch.ops.aten.select_copy.int(x, 0, -1)\n",
                           "b = torch.ops.aten.unsqueeze_copy.default(a, 1)\n",
                           "c = torch.ops.aten.expand_copy.default(b, [3, 2])\n"})
    EXPECT_NE(script.find(line), std::string::npos) << line << "\n" << script;
}

}  // namespace
}  // namespace slicefuzz
