// The view-copy faulty backends (backends/faulty_view_ops.cpp) misbehave on
// their regression cases (corpus/regression/) exactly as their bug class says,
// and the reference does not: checked on the system under test's side alone
// (pass decisions, copy and rewrite paths), independently of the judge.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "backends/backend.h"
#include "oracles/values.h"
#include "program/arena_executor.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "program/copy_executor.h"

namespace slicefuzz {
namespace {

ParseResult load(const std::string& name) {
  std::ifstream f(std::string(SLICEFUZZ_SOURCE_DIR) + "/corpus/regression/" + name);
  std::stringstream s;
  s << f.rdbuf();
  ParseResult r = parse_case(s.str(), name);
  EXPECT_TRUE(r.ok) << r.error;
  return r;
}

const Backend& backend(const char* name) {
  const Backend* b = find_backend(name);
  EXPECT_NE(b, nullptr) << name;
  return b ? *b : *find_backend("reference");
}

struct Paths {
  RewritePlan rewrite;
  PathResult copy;
  RewritePathResult rw;
};
Paths run(const ParseResult& p, const Backend& b) {
  Paths r;
  const std::vector<TensorValue> input = make_input_values(p.info);
  r.copy = run_copy_path(p.c, p.info, input, b.kernels);
  r.rewrite = b.pass(p.c, p.info, {});
  const MemoryPlan plan = b.planner(p.c, p.info, r.rewrite);
  if (r.copy.complete())
    r.rw = run_rewrite_path(p.c, p.info, input, r.rewrite, plan, b.kernels, AliasMode::RuntimeOp);
  return r;
}

bool same_outputs(const PathResult& a, const PathResult& b) {
  if (a.outputs.size() != b.outputs.size()) return false;
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    std::string why;
    if (!compare_values(a.outputs[i], b.outputs[i], why)) return false;
  }
  return true;
}

TEST(FaultyViewBackends, OutputNextNodeAliasesAnOutputThatOpsFollow) {
  for (const char* file : {"output_read_by_later_ops.case", "select_output_with_two_users.case"}) {
    const ParseResult p = load(file);
    const Paths ref = run(p, backend("reference"));
    const Paths bad = run(p, backend("faulty-output-next-node"));
    ASSERT_FALSE(ref.rewrite.decisions.empty()) << file;
    EXPECT_FALSE(ref.rewrite.decisions[0].alias) << file;
    EXPECT_EQ(ref.rewrite.decisions[0].rule, "output") << file;
    EXPECT_TRUE(bad.rewrite.decisions[0].alias) << file;  // an output, aliased
  }
}

TEST(FaultyViewBackends, ViewNonDenseReadsTheElementsInMemoryOrder) {
  const ParseResult p = load("view_copy_of_channels_last_input.case");
  const Paths ref = run(p, backend("reference"));
  EXPECT_FALSE(ref.rewrite.decisions[0].alias);
  EXPECT_EQ(ref.rewrite.decisions[0].rule, "not-viewable");
  EXPECT_TRUE(same_outputs(ref.copy, ref.rw.path));
  const Paths bad = run(p, backend("faulty-view-nondense"));
  EXPECT_TRUE(bad.rewrite.decisions[0].alias);
  ASSERT_TRUE(bad.rw.path.complete()) << bad.rw.path.error_message;
  EXPECT_FALSE(same_outputs(bad.copy, bad.rw.path)) << "the unguarded alias read the right values";
  // The reference et_view's guard refuses the same alias at run time.
  const std::vector<TensorValue> input = make_input_values(p.info);
  const RewritePathResult guarded =
      run_rewrite_path(p.c, p.info, input, bad.rewrite, plan_memory(p.c, p.info, bad.rewrite),
                       KernelTable{}, AliasMode::RuntimeOp);
  EXPECT_EQ(guarded.path.error_op, 0);
  EXPECT_NE(guarded.path.error_message.find("et_view"), std::string::npos) << guarded.path.error_message;
}

TEST(FaultyViewBackends, SelectNegativeIndexAliasStartsBeforeItsRoot) {
  const ParseResult p = load("select_negative_index_alias.case");
  const Paths ref = run(p, backend("reference"));
  ASSERT_TRUE(ref.rewrite.decisions[0].alias);
  EXPECT_EQ(ref.rewrite.delta_bytes[ref.rewrite.decisions[0].value], 32);
  ASSERT_EQ(ref.rw.aliases.size(), 1u);
  EXPECT_EQ(ref.rw.aliases[0].delta_bytes, 32);
  // The faulty alias points one row before its root: reading it is an arena
  // overflow (ASan) or another tensor's bytes.
  const Backend& bad = backend("faulty-select-negative-index");
  const std::vector<TensorValue> input = make_input_values(p.info);
  const MemoryPlan plan = plan_memory(p.c, p.info, ref.rewrite);
  EXPECT_DEATH(
      {
        RewritePathResult rw = run_rewrite_path(p.c, p.info, input, ref.rewrite, plan, bad.kernels);
        // Without ASan the delta itself gives it away.
        if (!rw.aliases.empty() && rw.aliases[0].delta_bytes < 0) std::abort();
      },
      "");
}

TEST(FaultyViewBackends, SqueezeAndUnsqueezeKernelsRefuseTheRightOut) {
  for (auto [file, name] : {std::pair{"squeeze_listed_dim_of_size_two.case", "faulty-squeeze-size-gt1"},
                            std::pair{"unsqueeze_channels_last.case", "faulty-unsqueeze-order"}}) {
    const ParseResult p = load(file);
    const Paths ref = run(p, backend("reference"));
    EXPECT_TRUE(ref.copy.complete()) << file << ": " << ref.copy.error_message;
    EXPECT_TRUE(ref.rewrite.decisions[0].alias) << file;
    EXPECT_TRUE(same_outputs(ref.copy, ref.rw.path)) << file;
    const Paths bad = run(p, backend(name));
    EXPECT_EQ(bad.copy.error_op, 0) << file;
  }
}

}  // namespace
}  // namespace slicefuzz
