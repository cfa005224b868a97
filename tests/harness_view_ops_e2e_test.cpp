// The harness on the view-copy ops end to end, through the system under test:
// explain labels each decision with the alias prim op it became, marks a failing
// alias with the op's own words, and the minimiser shrinks version-2 programs on
// the faulty view-op backends while keeping the finding's kind and its op's kind.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>

#include "test_temp_dir.h"
#include "harness/triage/minimizer.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

std::string run_command(const std::string& cmd, int& code) {
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const int status = pclose(f);
  code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string write_case(const std::string& stem, const std::string& text) {
  const std::string path = (slicefuzz::testing::process_temp_dir() / (stem + ".case")).string();
  std::ofstream(path) << text;
  return path;
}

constexpr const char* kChain = R"(slicefuzz-case 2
dtype float32
input x [4, 1, 6]
a = slice_copy(x, dim=0, start=1, end=3, step=1)
b = select_copy(a, dim=0, index=1)
c = squeeze_copy(b, dims=[0])
d = unsqueeze_copy(c, dim=0)
e = view_copy(d, sizes=[2, 3])
t = clone(x, dim_order=[2, 0, 1])
g = select_copy(t, dim=2, index=0)
f = clone(e)
output f, g
)";

TEST(ViewOpsExplain, EachDecisionIsLabelledWithItsAliasPrimOpOrItsOp) {
  const std::string file = write_case("sf_explain_chain", kChain);
  int code = 0;
  const std::string json = run_command(std::string(SLICEFUZZ_CLI) + " explain --json " + file, code);
  EXPECT_EQ(code, 0) << json;
  for (const char* d : {R"("value":"a","op":0,"decision":"et_slice")",
                        R"("value":"b","op":1,"decision":"et_select")",
                        R"("value":"c","op":2,"decision":"et_view")",
                        R"("value":"d","op":3,"decision":"et_view")",
                        R"("value":"e","op":4,"decision":"et_view")",
                        // g is an output: the select stays a copy, named by its op.
                        R"("value":"g","op":6,"decision":"select_copy")"})
    EXPECT_NE(json.find(d), std::string::npos) << d << "\n" << json;
  const std::string text = run_command(std::string(SLICEFUZZ_CLI) + " explain " + file, code);
  EXPECT_NE(text.find("  op 1 et_select   b: "), std::string::npos) << text;
  EXPECT_NE(text.find("  op 6 select_copy g: "), std::string::npos) << text;
  EXPECT_NE(text.find("  op 0 et_slice    a: "), std::string::npos) << text;  // labels in one column
  std::remove(file.c_str());
}

TEST(ViewOpsExplain, AFailingAliasIsMarkedInTheOpsOwnWords) {
  // faulty-output-next-node aliases an output that another op reads.
  const std::string file = write_case("sf_explain_output", R"(slicefuzz-case 2
dtype int32
input x [3, 4]
y = select_copy(x, dim=0, index=2)
w = unsqueeze_copy(y, dim=0)
output y, w
)");
  int code = 0;
  const std::string text = run_command(
      std::string(SLICEFUZZ_CLI) + " explain --backend faulty-output-next-node " + file, code);
  EXPECT_EQ(code, 1) << text;
  EXPECT_NE(text.find("FAIL UNSOUND_REWRITE"), std::string::npos) << text;
  EXPECT_NE(text.find("the select_copy reads bytes [32, 48) of 'x'"), std::string::npos) << text;
  std::remove(file.c_str());
}

Case parsed(const char* text) {
  ParseResult p = parse_case(text);
  EXPECT_TRUE(p.ok) << p.error;
  return p.c;
}

bool has_kind(const Case& c, OpKind kind) {
  for (const Op& op : c.ops)
    if (op.kind == kind) return true;
  return false;
}

// The output rule on the next node only: `y` is an output the unsqueeze reads.
// Everything around it is noise the minimiser must remove, keeping the finding
// on the select_copy.
TEST(ViewOpsMinimizer, KeepsTheFindingKindAndTheSelectCopyItIsAbout) {
  const Case c = parsed(R"(slicefuzz-case 2
dtype int16
input x [4, 3, 2] dim_order=[0, 2, 1]
a = clone(x)
add_(a, 3)
s = slice_copy(a, dim=0, start=1, end=None, step=1)
y = select_copy(s, dim=0, index=-1)
u = unsqueeze_copy(y, dim=0)
v = view_copy(u, sizes=[-1])
w = clone(v, dim_order=[0])
output y, w
)");
  const Backend* faulty = find_backend("faulty-output-next-node");
  ASSERT_NE(faulty, nullptr);
  MinimizeResult r = minimize_case(c, *faulty, RunOptions{}, IsolationOptions{}, 120);
  ASSERT_TRUE(r.reproduced);
  EXPECT_EQ(r.finding.kind, FindingKind::UNSOUND_REWRITE) << r.finding.message;
  ASSERT_GE(r.finding.op, 0);
  EXPECT_EQ(r.minimized.ops[r.finding.op].kind, OpKind::SelectCopy) << print_case(r.minimized);
  EXPECT_LE(r.minimized.ops.size(), 2u) << print_case(r.minimized);
  EXPECT_LT(r.minimized.inputs[0].sizes.size(), c.inputs[0].sizes.size()) << print_case(r.minimized);
  ParseResult p = parse_case(print_case(r.minimized));
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_FALSE(run_case(p.c, p.info, *find_backend("reference"), RunOptions{}).failed());
}

// et_view without its guard on a channels-last input: the finding stays on the
// view_copy, and the layout that causes it (a dim order whose elements are not
// row-major) survives the shrinking.
TEST(ViewOpsMinimizer, KeepsANonDenseViewCopyAndTheLayoutThatMakesIt) {
  const Case c = parsed(R"(slicefuzz-case 2
dtype float32
input x [2, 3, 2, 2] dim_order=[0, 2, 3, 1]
a = clone(x)
add_(a, 1)
b = squeeze_copy(a, dims=[0, 2])
y = view_copy(b, sizes=[6, 4])
c = clone(y)
add_(c, 1)
output c
)");
  const Backend* faulty = find_backend("faulty-view-nondense");
  ASSERT_NE(faulty, nullptr);
  MinimizeResult r = minimize_case(c, *faulty, RunOptions{}, IsolationOptions{}, 120);
  ASSERT_TRUE(r.reproduced);
  const FindingKind kind = r.finding.kind;
  EXPECT_TRUE(kind == FindingKind::UNSOUND_REWRITE || kind == FindingKind::ALIAS_VIOLATION)
      << r.finding.message;
  ASSERT_GE(r.finding.op, 0);
  EXPECT_EQ(r.minimized.ops[r.finding.op].kind, OpKind::ViewCopy) << print_case(r.minimized);
  EXPECT_FALSE(has_kind(r.minimized, OpKind::SqueezeCopy)) << print_case(r.minimized);
  EXPECT_LE(r.minimized.ops.size(), 3u) << print_case(r.minimized);
}

}  // namespace
}  // namespace slicefuzz
