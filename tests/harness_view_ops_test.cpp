// The harness's user-facing pieces on the view-copy ops (case format version 2),
// without running the system under test: signature labels from the op table,
// finding kinds from their table, the per-kind rewrite share, the minimiser's
// candidates and the pictures' labels. The reproducers are in
// harness_view_ops_export_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "test_temp_dir.h"
#include "harness/cli/cli_common.h"
#include "harness/export/export.h"
#include "harness/export/export_worker.h"
#include "harness/triage/minimizer.h"
#include "harness/run/runner.h"
#include "harness/export/plan_picture.h"
#include "harness/triage/signature.h"
#include "oracles/eligibility.h"
#include "oracles/plan_check.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

Case parsed(const std::string& text) {
  ParseResult p = parse_case(text);
  EXPECT_TRUE(p.ok) << p.error << "\n" << text;
  return p.c;
}

// One program per op kind whose op 1 is that kind: a new row in the op table
// without a line here fails EveryOpKindHasItsOwnLabel.
// Keyed by the op's text: overloads share a name (add, add(a, other=b)).
const std::vector<std::pair<std::string, std::string>> kOneOpOfEachKind = {
    {"slice_copy", "y = slice_copy(t, dim=0, start=None, end=None, step=1)"},
    {"add_", "add_(t, 1)"},
    {"clone", "y = clone(t, dim_order=[1, 0])"},
    {"copy_", "copy_(t, x)"},
    {"slice", "y = slice(t, dim=0, start=0, end=1, step=1)"},
    {"select", "y = select(t, dim=0, index=0)"},
    {"add", "y = add(t, 1)"},
    {"select_copy", "y = select_copy(t, dim=1, index=-1)"},
    {"squeeze_copy", "y = squeeze_copy(t, dims=[0])"},
    {"unsqueeze_copy", "y = unsqueeze_copy(t, dim=-1)"},
    {"view_copy", "y = view_copy(t, sizes=[-1])"},
    {"narrow_copy", "y = narrow_copy(t, dim=1, start=-2, length=2)"},
    {"expand_copy", "y = expand_copy(t, sizes=[2, 1, 3])"},
    {"relu", "y = relu(t)"},
    {"index_copy", "y = index_copy(t, dim=0, index=[0], source=x)"},
    {"index_put", "y = index_put(t, dim=0, index=[0], values=x)"},
    {"permute_copy", "y = permute_copy(t, dims=[1, 0])"},
    {"mul", "y = mul(t, 3)"},
    {"sigmoid", "y = sigmoid(t)"},
    {"gelu", "y = gelu(t)"},
    {"add", "y = add(t, other=x)"},
    {"mul", "y = mul(t, other=t)"},
};

Case one_op_case(const std::string& line) {
  return parsed("slicefuzz-case 4\ndtype float32\ninput x [1, 3]\nt = clone(x)\n" + line +
                "\noutput t\n");
}

CaseSummary finding_at(FindingKind kind, int op, const std::string& message) {
  CaseSummary f;
  f.failed = true;
  f.kind = kind;
  f.op = op;
  f.message = message;
  // The path travels as data (CaseSummary::path); the helper's messages name it.
  // (The helper's own messages start with the path's word; the harness never reads one.)
  if (const size_t at = message.find(" path: "); at != std::string::npos)
    EXPECT_TRUE(parse_word(message.substr(0, at), f.path)) << message;
  return f;
}

TEST(ViewOpsSignature, EveryOpKindHasItsOwnLabel) {
  for (const OpKindInfo& row : kOpKinds) {
    auto it = std::find_if(kOneOpOfEachKind.begin(), kOneOpOfEachKind.end(), [&](const auto& e) {
      return e.first == row.name && one_op_case(e.second).ops[1].kind == row.kind;
    });
    ASSERT_NE(it, kOneOpOfEachKind.end()) << "no test program for op kind " << row.name;
    const Case c = one_op_case(it->second);
    EXPECT_EQ(finding_signature(c, finding_at(FindingKind::VALUE_MISMATCH, 1, "copy path: element 0")),
              "VALUE_MISMATCH:" + std::string(row.name) + ":copy:contiguous");
    EXPECT_EQ(finding_signature(c, finding_at(FindingKind::ERROR_MISMATCH, 1, "rewrite path: raised")),
              "ERROR_MISMATCH:" + std::string(row.name) + ":rewrite");
  }
}

// A dead worker's path is the one it wrote as it died (runner.h's note), not the
// executor a stack frame names; without the note the frames still decide.
TEST(ViewOpsSignature, ADeadWorkersPathIsItsOwnNoteNotAFrameName) {
  const Case c = one_op_case("y = narrow_copy(t, dim=1, start=0, length=2)");
  CaseSummary f;
  f.failed = true;
  f.kind = FindingKind::SANITIZER;
  f.op = -1;
  const std::string frames =
      "==1==ERROR: AddressSanitizer: heap-buffer-overflow\n"
      "    #0 0x55 in slicefuzz::strided_copy(unsigned char*) /src/kernels/util/strided_copy.cpp:65:7\n"
      "    #1 0x56 in slicefuzz::run_copy_path(slicefuzz::Case const&) /src/program/copy_executor.cpp:91:10\n";
  f.worker_log = frames;
  EXPECT_EQ(finding_signature(c, f), "SANITIZER:copy:strided_copy@kernels/util/strided_copy.cpp");
  f.worker_log = frames + "\n" + kWorkerPathNote + "planned\n";
  EXPECT_EQ(finding_signature(c, f), "SANITIZER:planned:strided_copy@kernels/util/strided_copy.cpp");
  f.worker_log = frames + "\n" + kWorkerPathNote + "Not A Path\n";  // not a path word: ignored
  EXPECT_EQ(finding_signature(c, f), "SANITIZER:copy:strided_copy@kernels/util/strided_copy.cpp");
}

TEST(ViewOpsSignature, ValueMismatchNamesTheLayoutOfTheValueTheOpReads) {
  const Case c = parsed("slicefuzz-case 2\ndtype float32\ninput x [2, 3]\n"
                        "t = clone(x, dim_order=[1, 0])\ny = select_copy(t, dim=0, index=1)\n"
                        "z = select_copy(x, dim=0, index=1)\noutput y, z\n");
  EXPECT_EQ(finding_signature(c, finding_at(FindingKind::VALUE_MISMATCH, 1, "copy path: element 0")),
            "VALUE_MISMATCH:select_copy:copy:dim-order");
  EXPECT_EQ(finding_signature(c, finding_at(FindingKind::VALUE_MISMATCH, 2, "copy path: element 0")),
            "VALUE_MISMATCH:select_copy:copy:contiguous");
}

TEST(ViewOpsSignature, AliasPrimOpContractChecksAndLayoutRuleAreTheirOwnCauses) {
  const Case c = one_op_case("y = view_copy(t, sizes=[3])");
  EXPECT_EQ(finding_signature(c, finding_at(FindingKind::ALIAS_VIOLATION, 1,
                                            "et_view path: op 1 `y = view_copy(t, sizes=[3])` ...")),
            "ALIAS_VIOLATION:view_copy:et_view");
  CaseSummary unsound = finding_at(FindingKind::UNSOUND_REWRITE, 1,
                                   "rewrite path: op 1 was rewritten to et_view (pass: not dense) but it "
                                   "must stay a copy: the result's layout is not what the op must produce");
  // The rule is the judge's data; the pass's words ("not dense") cannot set it.
  EXPECT_EQ(finding_signature(c, unsound), "UNSOUND_REWRITE:view_copy:rewrite");
  unsound.rule = EligibilityRule::Layout;
  EXPECT_EQ(finding_signature(c, unsound), "UNSOUND_REWRITE:view_copy:rewrite:layout");
  EXPECT_EQ(finding_signature(c, finding_at(FindingKind::PLAN_VIOLATION, -1, "rewrite path: x")),
            "PLAN_VIOLATION:program:rewrite");
}

// A plan invariant travels as data from the judge (Finding::rule) to the
// signature, through an isolated worker's encoding; the message is not read.
TEST(ViewOpsSignature, PlanInvariantIsDataNotWords) {
  const Case c = one_op_case("y = view_copy(t, sizes=[3])");
  CaseSummary s = finding_at(FindingKind::PLAN_VIOLATION, -1, "rewrite path: overlap in bytes, outside its root");
  s.rule = PlanInvariant::Misaligned;
  EXPECT_EQ(finding_signature(c, s), "PLAN_VIOLATION:program:rewrite:misaligned");
  JobOutcome o;
  o.status = JobOutcome::Status::Ok;
  o.text = encode_summary(s);
  EXPECT_EQ(decode_outcome(o).rule, BrokenRule(PlanInvariant::Misaligned));
  EXPECT_EQ(finding_signature(c, decode_outcome(o)), "PLAN_VIOLATION:program:rewrite:misaligned");
  // Every invariant has its own word.
  EXPECT_STREQ(plan_invariant_word(PlanInvariant::None), "");
  EXPECT_STREQ(plan_invariant_word(PlanInvariant::OutsideArena), "outside-arena");
  EXPECT_STREQ(plan_invariant_word(PlanInvariant::Overlap), "overlap");
}

// A whole-program worker's diagnosis (Finding::cause) is the root cause: the op
// the wrong value surfaced at, and its layout, no longer split it; without one,
// the op label stays. It survives the trip from an isolated worker.
TEST(WorkerCauseSignature, OneCauseOneSignatureWhereverTheValueSurfaces) {
  const Case c = parsed("slicefuzz-case 2\ndtype float32\ninput x [2, 3] dim_order=[1, 0]\n"
                        "a = add(x, 5)\nb = select(a, dim=0, index=1)\nadd_(a, 1)\noutput a, b\n");
  CaseSummary at_add = finding_at(FindingKind::VALUE_MISMATCH, 0, "worker path: element 0");
  CaseSummary at_select = finding_at(FindingKind::VALUE_MISMATCH, 1, "worker path: element 0");
  CaseSummary at_add_ = finding_at(FindingKind::VALUE_MISMATCH, 2, "worker path: element 0");
  EXPECT_EQ(finding_signature(c, at_add), "VALUE_MISMATCH:add:worker:dim-order");
  EXPECT_EQ(finding_signature(c, at_select), "VALUE_MISMATCH:select:worker:dim-order");
  for (CaseSummary* f : {&at_add, &at_select, &at_add_}) {
    f->cause = "reinplace-inplace:add";
    EXPECT_EQ(finding_signature(c, *f), "VALUE_MISMATCH:worker:reinplace-inplace:add");
    // No probe runs: the runner would fail the test if called.
    EXPECT_EQ(root_cause_signature(c, *f, [](const std::vector<Case>&) {
                ADD_FAILURE() << "probed a finding the worker diagnosed";
                return std::vector<CaseSummary>{};
              }),
              "VALUE_MISMATCH:worker:reinplace-inplace:add");
  }
  // Other kinds never take a cause into their signature.
  CaseSummary error = finding_at(FindingKind::ERROR_MISMATCH, 1, "worker path: raised");
  error.cause = "reinplace-inplace:add";
  EXPECT_EQ(finding_signature(c, error), "ERROR_MISMATCH:select:worker");
  // Across the isolation boundary, and from a summary without the field.
  JobOutcome o;
  o.text = encode_summary(at_select);
  EXPECT_EQ(decode_outcome(o).cause, "reinplace-inplace:add");
  at_select.cause.clear();
  o.text = encode_summary(at_select);
  EXPECT_EQ(decode_outcome(o).cause, "");
  o.text = o.text.substr(0, o.text.rfind("cause"));
  EXPECT_EQ(decode_outcome(o).op, 1);
  EXPECT_EQ(decode_outcome(o).cause, "");
}

TEST(FindingKinds, EveryNameRoundTripsAndABadValueIsNamedAsSuch) {
  ASSERT_EQ(kNumFindingKinds, static_cast<int>(FindingKind::PROTOCOL_ERROR) + 1);
  for (int i = 0; i < kNumFindingKinds; ++i) {
    const auto kind = static_cast<FindingKind>(i);
    EXPECT_EQ(parse_finding_kind(finding_kind_name(kind)), kind);
  }
  EXPECT_EQ(finding_kind_name(FindingKind::ORACLE_DISAGREEMENT), "ORACLE_DISAGREEMENT");
  EXPECT_EQ(finding_kind_name(static_cast<FindingKind>(kNumFindingKinds)), "UNKNOWN_FINDING");
  EXPECT_FALSE(parse_finding_kind("UNKNOWN_FINDING"));
}

TEST(RewriteShares, PerKindInTableOrderAndVersionOneWording) {
  RewriteShares shares;
  EXPECT_TRUE(shares.only_slice_copy());
  EXPECT_EQ(shares.text(), "");
  shares.add({{"slice_copy", true}, {"slice_copy", false}, {"slice_copy", false}});
  EXPECT_TRUE(shares.only_slice_copy());
  EXPECT_EQ(shares.text(), "slice_copy 33%");
  shares.add({{"view_copy", true}, {"select_copy", false}, {"view_copy", true}, {"op 9?", true}});
  EXPECT_FALSE(shares.only_slice_copy());
  EXPECT_EQ(shares.text(), "slice_copy 33% select_copy 0% view_copy 100% op 9? 100%");
}


bool has_candidate(const std::vector<Case>& cands, const std::string& needle) {
  for (const Case& k : cands)
    if (print_case(k).find(needle) != std::string::npos) return true;
  return false;
}

std::string all_text(const std::vector<Case>& cands) {
  std::string s;
  for (const Case& k : cands) s += print_case(k) + "--\n";
  return s;
}

TEST(ViewOpsMinimizer, SimplifiesEachNewOpsArguments) {
  const Case c = parsed(R"(slicefuzz-case 2
dtype float32
input x [2, 1, 3, 1]
a = squeeze_copy(x, dims=[1, 3])
b = view_copy(a, sizes=[3, 2])
c = unsqueeze_copy(b, dim=-1)
d = select_copy(c, dim=-2, index=-1)
e = clone(d, dim_order=[1, 0])
output e
)");
  const std::vector<Case> cands = minimize_candidates(c, kDefaultByteBudget, false);
  for (const char* op : {"a = squeeze_copy(x, dims=[1])", "a = squeeze_copy(x, dims=[3])",
                         "b = view_copy(a, sizes=[2, 3])", "b = view_copy(a, sizes=[6])",
                         "c = unsqueeze_copy(b, dim=2)", "c = unsqueeze_copy(b, dim=0)",
                         "d = select_copy(c, dim=-2, index=1)", "d = select_copy(c, dim=-2, index=0)",
                         "d = select_copy(c, dim=1, index=-1)", "e = clone(d)\n",
                         "d = slice_copy(c, dim=0, start=None, end=None, step=1)", "d = clone(c)\n",
                         "b = clone(a)\n"})
    EXPECT_TRUE(has_candidate(cands, op)) << op << "\n" << all_text(cands);
  for (const Case& k : cands) EXPECT_TRUE(parse_case(print_case(k)).ok) << print_case(k);
}

TEST(ViewOpsMinimizer, DroppingAnInputDimFollowsItThroughEveryLayout) {
  const Case c = parsed(R"(slicefuzz-case 2
dtype float32
input x [4, 2, 3]
a = select_copy(x, dim=2, index=0)
b = unsqueeze_copy(a, dim=-1)
c = slice_copy(b, dim=1, start=1, end=None, step=1)
output c
)");
  const std::vector<Case> cands = minimize_candidates(c, kDefaultByteBudget, false);
  EXPECT_TRUE(has_candidate(cands, "input x [2, 3]\na = select_copy(x, dim=1, index=0)\n"
                                   "b = unsqueeze_copy(a, dim=1)\n"
                                   "c = slice_copy(b, dim=0, start=1, end=None, step=1)\n"))
      << all_text(cands);
  // Dim 2 is the selected one: no candidate drops it.
  EXPECT_FALSE(has_candidate(cands, "input x [4, 2]\n")) << all_text(cands);

  const Case squeezed = parsed(R"(slicefuzz-case 2
dtype float32
input x [2, 1, 3, 1]
a = squeeze_copy(x, dims=[1, 3])
add_(a, 2)
b = view_copy(a, sizes=[3, 2])
output b
)");
  const std::vector<Case> more = minimize_candidates(squeezed, kDefaultByteBudget, false);
  EXPECT_TRUE(has_candidate(more, "input x [2, 1, 3]\na = squeeze_copy(x, dims=[1])\n")) << all_text(more);
  EXPECT_TRUE(has_candidate(more, "input x [2, 3, 1]\na = squeeze_copy(x, dims=[2])\n")) << all_text(more);
  // A dim of size > 1 under a view_copy would change its sizes: not dropped.
  EXPECT_FALSE(has_candidate(more, "input x [1, 3, 1]\n")) << all_text(more);
}

TEST(ViewOpsPicture, FailureAndLegendNameTheOpAndItsAliasPrimOp) {
  ProgramInfo info;
  info.values = {{"x", {2, 3}, {0, 1}, ScalarType::Float, true, -1},
                 {"a", {2}, {0}, ScalarType::Float, true, 0}};
  RewritePlan rw;
  rw.root = {0, 0};
  rw.delta_bytes = {0, 4};
  MemoryPlan plan;
  plan.arena_bytes = 32;
  plan.end_step = 2;
  plan.tensors = {{0, 0, 0, 24, 0, 2, 1}, {1, 0, 4, 8, 1, 2, 2}};
  PictureFailure f;
  f.label = "UNSOUND_REWRITE: op 0";
  f.value = 1;
  f.reads = {{4, 8}, {16, 20}};
  f.executed_delta = 0;
  f.op_word = "select_copy";
  f.alias_prim = "et_select";
  const std::string text = plan_text_picture(info, rw, plan, nullptr, &f);
  EXPECT_NE(text.find("the select_copy reads bytes [4, 8) [16, 20)"), std::string::npos) << text;
  EXPECT_NE(text.find("et_select put it at [0, 8)"), std::string::npos) << text;
  const std::string svg = plan_svg("t", info, rw, plan, nullptr, &f, "et_select alias");
  EXPECT_NE(svg.find("et_select alias (the block it claims)"), std::string::npos);
  EXPECT_NE(svg.find("what the failing select_copy really reads"), std::string::npos);
  EXPECT_NE(svg.find("where et_select put the alias"), std::string::npos);
}

}  // namespace
}  // namespace slicefuzz
