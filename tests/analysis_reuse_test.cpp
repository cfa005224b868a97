// The analysis refills a ProgramInfo in place (oracles/analysis.cpp), so that
// the mutator, which analyses every mutant several times, keeps one and
// allocates nothing. A kept ProgramInfo must end exactly as a fresh one would,
// whatever case it held before: more values, fewer, a failing op, a case that
// does not analyse at all.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "generators/generate.h"
#include "generators/mutator.h"
#include "oracles/analysis.h"
#include "vocab/case_format.h"

namespace slicefuzz {
namespace {

std::string describe(bool ok, const ProgramInfo& info, const AnalysisError& err) {
  if (!ok) return "error " + std::to_string(static_cast<int>(err.where)) + " " +
                  std::to_string(err.op) + " " + err.message;
  std::string s = "inputs " + std::to_string(info.num_inputs) + " failing " +
                  std::to_string(info.failing_op) + " " + info.failing_reason + " bytes " +
                  std::to_string(info.total_bytes) + "\n";
  for (const ValueInfo& v : info.values) {
    s += v.name + " " + std::string(scalar_type_name(v.dtype)) + " known " + std::to_string(v.known) + " def " +
         std::to_string(v.def_op) + " [";
    for (int64_t x : v.sizes) s += std::to_string(x) + ",";
    s += "] order [";
    for (int x : v.dim_order) s += std::to_string(x) + ",";
    s += "]\n";
  }
  for (const OpInfo& o : info.ops)
    s += "op " + std::to_string(o.result) + " " + std::to_string(o.src) + " " + std::to_string(o.target) + "\n";
  s += "outputs";
  for (int v : info.outputs) s += " " + std::to_string(v);
  return s;
}

std::string analysed_fresh(const Case& c, int64_t budget) {
  ProgramInfo info;
  AnalysisError err;
  const bool ok = analyze(c, budget, info, err);
  return describe(ok, info, err);
}

TEST(AnalysisReuse, AKeptProgramInfoEndsAsAFreshOne) {
  ProgramInfo kept;
  std::mt19937_64 rng(11);
  int analysed = 0, failed_analysis = 0, failing_op = 0;
  for (uint64_t i = 0; i < 400; ++i) {
    Case c = generate_case(5, i, i % 3 == 0);
    for (int step = 0; step < 4; ++step) {
      // A small budget now and then: the analysis stops part-way through.
      const int64_t budget = step == 3 ? 64 : kDefaultByteBudget;
      AnalysisError err;
      const bool ok = analyze(c, budget, kept, err);
      ASSERT_EQ(describe(ok, kept, err), analysed_fresh(c, budget)) << print_case(c);
      ++analysed;
      failed_analysis += !ok;
      failing_op += ok && kept.failing_op >= 0;
      mutate_case(c, rng);
    }
  }
  // The sequence covers what it is meant to: cases that stop early, and failing ops.
  EXPECT_GT(failed_analysis, 50) << analysed;
  EXPECT_GT(failing_op, 20) << analysed;
}

}  // namespace
}  // namespace slicefuzz
