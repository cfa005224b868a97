// The analysis refills a ProgramInfo in place (oracles/analysis.cpp), so that
// the mutator, which analyses every mutant several times, keeps one and
// allocates nothing. A kept ProgramInfo must end exactly as a fresh one would,
// whatever case it held before: more values, fewer, a failing op, a case that
// does not analyse at all.
// A version-4 case is analysed once for every assignment its ranges allow
// (oracles/dynamic_analysis.cpp); parsing with KeepAssignments::Every keeps those
// analyses for the run, and a `run` line takes its assignment's: each reuse must
// equal what analysing afresh gives.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "generators/generate.h"
#include "generators/mutator.h"
#include "oracles/analysis.h"
#include "oracles/dynamic_analysis.h"
#include "oracles/parse_case.h"
#include "vocab/case_format.h"
#include "vocab/concretise.h"

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


std::string describe_execution_info(const ExecutionInfo& e) {
  std::string s = "values";
  for (int64_t v : e.values) s += " " + std::to_string(v);
  s += " in_range " + std::to_string(e.in_range) + " line " + std::to_string(e.run_line) + "\n";
  return s + print_case(e.c) + describe(true, e.info, AnalysisError{});
}

std::string describe_dynamic(const DynamicInfo& d) {
  std::string s = "assignments " + std::to_string(d.assignments) + "\nbounds";
  for (const std::vector<int64_t>& b : d.bound_sizes) {
    s += " [";
    for (int64_t x : b) s += std::to_string(x) + ",";
    s += "]";
  }
  s += "\n";
  for (const ExecutionInfo& e : d.runs) s += "run " + describe_execution_info(e);
  for (const ExecutionInfo& e : d.every) s += "every " + describe_execution_info(e);
  return s;
}

// Generated version-4 cases with symbols (the stream's dynamic share).
std::vector<std::string> dynamic_cases(int want) {
  std::vector<std::string> texts;
  for (uint64_t i = 0; static_cast<int>(texts.size()) < want && i < 20 * static_cast<uint64_t>(want); ++i) {
    const Case c = generate_case(19, i, false, kDynamicCaseVersion);
    if (!c.syms.empty()) texts.push_back(print_case(c));
  }
  return texts;
}

TEST(DynamicAnalysisReuse, ParsingWithEveryAssignmentEqualsAnalysingAfterTheParse) {
  int compared = 0;
  for (const std::string& text : dynamic_cases(150)) {
    const ParseResult every = parse_case(text, "every.case", kDefaultByteBudget, KeepAssignments::Every);
    const ParseResult bounds = parse_case(text, "bounds.case", kDefaultByteBudget, KeepAssignments::Bounds);
    ASSERT_EQ(every.ok, bounds.ok) << text << every.error << bounds.error;
    if (!every.ok) continue;
    EXPECT_TRUE(bounds.dynamic.every.empty()) << text;
    ASSERT_EQ(static_cast<int64_t>(every.dynamic.every.size()), every.dynamic.assignments) << text;
    DynamicInfo after;
    ProgramInfo first;
    DynamicError err;
    ASSERT_TRUE(analyze_dynamic(bounds.c, kDefaultByteBudget, after, first, err, /*keep_every=*/true))
        << text << err.message;
    ASSERT_EQ(describe_dynamic(every.dynamic), describe_dynamic(after)) << text;
    EXPECT_EQ(describe(true, every.info, {}), describe(true, first, {})) << text;
    ++compared;
  }
  EXPECT_GT(compared, 100);
}

TEST(DynamicAnalysisReuse, ARunLineTakesTheAnalysisItsAssignmentWouldGetAfresh) {
  int in_range = 0;
  for (const std::string& text : dynamic_cases(150)) {
    const ParseResult p = parse_case(text, "runs.case", kDefaultByteBudget, KeepAssignments::Every);
    if (!p.ok) continue;
    for (const ExecutionInfo& run : p.dynamic.runs) {
      if (!run.in_range) continue;
      ++in_range;
      // The analysis the run took is its own assignment's, in enumeration order.
      ASSERT_EQ(p.dynamic.every[assignment_index(p.c, run.values)].values, run.values) << text;
      Case fresh;
      std::string why;
      ASSERT_TRUE(concretise(p.c, run.values, fresh, why)) << text << why;
      ProgramInfo info;
      AnalysisError err;
      ASSERT_TRUE(analyze(fresh, kDefaultByteBudget, info, err)) << text << err.message;
      EXPECT_EQ(print_case(run.c), print_case(fresh)) << text;
      EXPECT_EQ(describe(true, run.info, {}), describe(true, info, {})) << text;
    }
  }
  EXPECT_GT(in_range, 150);
}

TEST(DynamicAnalysisReuse, AssignmentIndexFollowsTheEnumerationOrder) {
  int cases = 0;
  for (const std::string& text : dynamic_cases(60)) {
    const ParseResult p = parse_case(text);
    if (!p.ok) continue;
    size_t k = 0;
    for_each_assignment(p.c, [&](const std::vector<int64_t>& values) {
      EXPECT_EQ(assignment_index(p.c, values), k) << text;
      return ++k < 4096;
    });
    EXPECT_EQ(static_cast<int64_t>(k), assignment_count(p.c)) << text;
    cases += p.c.syms.size() > 1;
  }
  EXPECT_GT(cases, 0) << "no generated case has two symbols: the order between symbols is untested";
}

}  // namespace
}  // namespace slicefuzz
