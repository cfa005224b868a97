// run_torch_views (the judge off the schedule's torch: meta tensors, no bytes)
// gives the same view facts as run_torch_oracle (real tensors) at every
// assignment of generated version-4 cases and of the dynamic seeds: op, storage
// offset, sizes, strides and density of every view-copy op, and the same op
// where torch raised. A meta kernel that raised where the CPU one does not, or
// computed a stride differently, would make the judge miss aliases off the
// schedule.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "generators/generate.h"
#include "oracles/dynamic_analysis.h"
#include "oracles/oracle.h"
#include "oracles/parse_case.h"
#include "vocab/case_format.h"

namespace slicefuzz {
namespace {

// Compares the two at every assignment of `c`; the number of assignments compared.
int compare_every_assignment(const Case& c) {
  DynamicInfo dynamic;
  ProgramInfo first;
  DynamicError err;
  if (!analyze_dynamic(c, kDefaultByteBudget, dynamic, first, err, /*keep_every=*/true)) return 0;
  int compared = 0;
  for (const ExecutionInfo& e : dynamic.every) {
    const TorchOracleResult full = run_torch_oracle(e.c, e.info);
    const TorchOracleResult views = run_torch_views(e.c, e.info);
    ++compared;
    EXPECT_EQ(full.path.error_op, views.path.error_op) << full.path.error_message << " vs " << views.path.error_message << "\n" << print_case(e.c);
    EXPECT_EQ(full.op_views.size(), views.op_views.size()) << print_case(e.c);
    if (full.op_views.size() != views.op_views.size()) return compared;
    for (size_t i = 0; i < full.op_views.size(); ++i) {
      const TorchOpView& a = full.op_views[i];
      const TorchOpView& b = views.op_views[i];
      EXPECT_TRUE(a.op == b.op && a.storage_offset == b.storage_offset && a.sizes == b.sizes &&
                  a.strides == b.strides && a.dense == b.dense)
          << "op " << a.op << " view " << i << "\n" << print_case(e.c);
    }
  }
  return compared;
}

TEST(TorchViews, SameViewFactsAsTheFullOracleAtEveryAssignment) {
  int cases = 0, assignments = 0;
  for (uint64_t i = 0; i < 1500 && cases < 250; ++i) {
    const Case c = generate_case(37, i, false, kDynamicCaseVersion);
    if (!c.is_dynamic()) continue;
    ++cases;
    assignments += compare_every_assignment(c);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GE(cases, 200);
  EXPECT_GE(assignments, 1000);
  std::printf("compared %d assignments of %d generated dynamic cases\n", assignments, cases);
}

TEST(TorchViews, SameViewFactsOnTheDynamicSeedsAndRegressionCases) {
  namespace fs = std::filesystem;
  int compared = 0;
  for (const char* dir : {"corpus/seeds/dynamic", "corpus/regression"})
    for (const auto& f : fs::directory_iterator(fs::path(SLICEFUZZ_SOURCE_DIR) / dir)) {
      std::ifstream in(f.path());
      std::stringstream text;
      text << in.rdbuf();
      const ParseResult p = parse_case(text.str(), f.path().string());
      if (!p.ok || !p.c.is_dynamic()) continue;
      compared += compare_every_assignment(p.c);
    }
  EXPECT_GE(compared, 20);
}

}  // namespace
}  // namespace slicefuzz
