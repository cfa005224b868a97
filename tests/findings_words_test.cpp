// Verdicts are data from the judge to the report: the finding's path, the
// runner's check and the judge's broken rule are enums from one table each
// (harness/run/findings.h, oracles/judge_rules.h). Each word names one row, the
// words survive a worker's encoding, and a word of no table is never guessed.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include "backends/backend.h"
#include "harness/run/case_job.h"
#include "harness/run/checks.h"
#include "harness/run/findings.h"
#include "oracles/judge_rules.h"
#include "vocab/op_schema.h"

namespace slicefuzz {
namespace {

template <typename Enum>
void expect_round_trip(size_t count, const char* (*word_of)(Enum)) {
  std::set<std::string> seen;
  for (size_t i = 0; i < count; ++i) {
    const Enum e = static_cast<Enum>(i);
    Enum back{};
    ASSERT_TRUE(parse_word(word_of(e), back)) << word_of(e);
    EXPECT_EQ(back, e) << word_of(e);
    EXPECT_TRUE(seen.insert(word_of(e)).second) << "two rows say " << word_of(e);
  }
  EXPECT_STREQ(word_of(static_cast<Enum>(count)), "?");  // outside the table: no wild read
  Enum none{};
  EXPECT_FALSE(parse_word("no-such-word", none));
}

TEST(FindingWords, EachTableRoundTrips) {
  expect_round_trip(kFindingPathCount, finding_path_word);
  expect_round_trip(kRunnerCheckCount, runner_check_word);
  expect_round_trip(kEligibilityRuleCount, eligibility_rule_word);
  expect_round_trip(kPlanInvariantCount, plan_invariant_word);
  expect_round_trip(kInputRuleCount, input_rule_word);
}

// A broken rule travels as its word: the judge's three tables share no word, so
// the word names its row.
TEST(FindingWords, EveryBrokenRuleWordNamesItsRow) {
  std::set<std::string> words;
  std::vector<BrokenRule> rules;
  for (size_t i = 1; i < kEligibilityRuleCount; ++i) rules.push_back(static_cast<EligibilityRule>(i));
  for (size_t i = 1; i < kPlanInvariantCount; ++i) rules.push_back(static_cast<PlanInvariant>(i));
  for (size_t i = 1; i < kInputRuleCount; ++i) rules.push_back(static_cast<InputRule>(i));
  for (const BrokenRule& r : rules) {
    EXPECT_FALSE(r.empty());
    EXPECT_TRUE(words.insert(std::string(r.word())).second) << "two tables say " << r.word();
    const std::optional<BrokenRule> back = BrokenRule::parse(r.word());
    ASSERT_TRUE(back.has_value()) << r.word();
    EXPECT_EQ(*back, r) << r.word();
  }
  EXPECT_TRUE(BrokenRule{}.empty());
  EXPECT_EQ(BrokenRule{}.word(), "");
  EXPECT_EQ(BrokenRule(EligibilityRule::None), BrokenRule{});
  EXPECT_FALSE(BrokenRule::parse("not-a-rule").has_value());
}

TEST(FindingWords, ShadowChecksKeepTheirReportWord) {
  const CheckId shadow{RunnerCheck::CopyPath, true};
  EXPECT_EQ(shadow.word(), "provenance-shadow/copy-path");
  EXPECT_EQ(CheckId::parse("provenance-shadow/copy-path"), shadow);
  EXPECT_EQ(CheckId::parse("rewrite-values"), (CheckId{RunnerCheck::RewriteValues, false}));
  EXPECT_FALSE(CheckId::parse("provenance-shadow/nothing").has_value());
}

// The alias-contract check files its findings under the prim op it called: every
// prim op the schema names is a path of the table.
TEST(FindingWords, EveryAliasPrimOpOfTheSchemaIsAPath) {
  int prims = 0;
  for (const OpKindInfo& row : kOpKinds) {
    if (!*row.alias_prim) continue;
    FindingPath p = FindingPath::None;
    EXPECT_TRUE(parse_word(row.alias_prim, p)) << row.name << " aliases as " << row.alias_prim;
    ++prims;
  }
  EXPECT_GE(prims, 3);
}

// Every check a backend runs is a row of the table, once.
// Every check of every registered backend reports under a row of the table: not
// the None row, a word that parses back to it, and no two checks of one backend
// under the same row and alias mode (a finding would not say which one failed).
TEST(FindingWords, EveryBackendsChecksAreRowsOfTheTable) {
  size_t checked = 0;
  for (const Backend& b : all_backends()) {
    std::set<std::pair<RunnerCheck, AliasMode>> seen;
    for (const Check& c : case_checks(b)) {
      EXPECT_NE(c.id, RunnerCheck::None) << b.name;
      RunnerCheck back = RunnerCheck::None;
      EXPECT_TRUE(parse_word(runner_check_word(c.id), back) && back == c.id) << b.name;
      EXPECT_TRUE(seen.insert({c.id, c.mode}).second)
          << b.name << ": two checks named " << runner_check_word(c.id);
      ++checked;
    }
  }
  EXPECT_GT(checked, all_backends().size());
  // The reference reads its rewrite path in both alias modes, each its own check.
  const Backend* reference = find_backend("reference");
  ASSERT_NE(reference, nullptr);
  std::set<AliasMode> modes;
  for (const Check& c : case_checks(*reference))
    if (c.id == RunnerCheck::RewriteValues) modes.insert(c.mode);
  EXPECT_EQ(modes.size(), 2u);
  for (AliasMode mode : {AliasMode::RuntimeOp, AliasMode::Planned})
    for (const Check& c : shadow_checks(mode)) EXPECT_NE(c.id, RunnerCheck::None);
}

// What crosses a worker's boundary comes back as the same enums; a word no table
// has (a worker of another build) is never guessed into a row.
TEST(FindingWords, ASummarySurvivesTheWorkersEncoding) {
  CaseSummary s;
  s.failed = true;
  s.kind = FindingKind::UNSOUND_REWRITE;
  s.message = "rewrite path: x";
  s.path = FindingPath::Planned;
  s.rule = EligibilityRule::RootWrittenWhileRead;
  s.check = CheckId{RunnerCheck::RewriteDecisions, false};
  JobOutcome o;
  o.status = JobOutcome::Status::Ok;
  o.text = encode_summary(s);
  const CaseSummary back = decode_outcome(o);
  EXPECT_EQ(back.path, FindingPath::Planned);
  EXPECT_EQ(back.rule, s.rule);
  EXPECT_EQ(back.check, s.check);

  std::string text = o.text;
  for (const char* key : {"path planned", "rule root-written-while-read", "check rewrite-decisions"}) {
    const size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos) << key << " in\n" << text;
    text.replace(at, std::string(key).size(), std::string(key).substr(0, std::string(key).find(' ')) + " bogus");
  }
  o.text = text;
  const CaseSummary odd = decode_outcome(o);
  EXPECT_EQ(odd.path, FindingPath::Unknown);
  EXPECT_TRUE(odd.rule.empty());
  EXPECT_EQ(odd.check.check, RunnerCheck::None);
}

}  // namespace
}  // namespace slicefuzz
