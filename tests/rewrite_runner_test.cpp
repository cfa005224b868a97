// The runner on the rewrite path: hand cases of each bug class pass on the
// reference backend, and deliberately faulty backends (one broken piece each:
// pass, planner, et_slice, slice_copy) are reported with the right finding kind.
// Also: `slicefuzz explain --json` shows exactly the decisions that execution uses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "oracles/plan_check.h"
#include "oracles/values.h"
#include "backends/backend.h"
#include "harness/export/json_writer.h"
#include "harness/run/runner.h"
#include "kernels/boxing.h"
#include "kernels/util/slice_util.h"
#include "program/arena_executor.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "program/copy_executor.h"

namespace slicefuzz {
namespace {

ParseResult parse(const std::string& body) {
  ParseResult r = parse_case("slicefuzz-case 1\n" + body, "runner.case");
  EXPECT_TRUE(r.ok) << r.error;
  return r;
}

const Backend& reference() {
  const Backend* b = find_backend("reference");
  EXPECT_NE(b, nullptr);
  return *b;
}

CaseReport run(const std::string& body, const Backend& backend) {
  ParseResult r = parse(body);
  if (!r.ok) return {};
  return run_case(r.c, r.info, backend, RunOptions{});
}

std::string describe(const CaseReport& rep) {
  std::string s;
  for (const Finding& f : rep.findings)
    s += std::string(finding_kind_name(f.kind)) + (f.tolerated ? " (tolerated)" : "") + ": " +
         f.message + "\n";
  return s.empty() ? "no findings" : s;
}

void expect_first_failure(const CaseReport& rep, FindingKind kind, const std::string& words) {
  const Finding* f = rep.first_failure();
  ASSERT_NE(f, nullptr) << "expected " << finding_kind_name(kind) << ", got no failure";
  EXPECT_EQ(f->kind, kind) << describe(rep);
  EXPECT_NE(f->message.find(words), std::string::npos) << describe(rep);
}

// ---- hand cases, one per bug class, all sound on the reference backend ----

constexpr const char* kOutputSlice =  // rule 2: y is an output
    "dtype float32\ninput x [4, 3]\ny = slice_copy(x, dim=0, start=0, end=2, step=1)\noutput y\n";
constexpr const char* kRootWrittenWhileAliasLive =  // rule 4 (cf. pytorch#198101)
    "dtype float32\ninput x [4, 3]\ny = slice_copy(x, dim=0, start=1, end=3, step=1)\n"
    "add_(x, 10)\nw = clone(y)\noutput w, x\n";
constexpr const char* kDenseUnread =  // an alias nobody reads: values cannot see its offset
    "dtype float32\ninput x [3, 4] dim_order=[1, 0]\n"
    "y = slice_copy(x, dim=1, start=1, end=3, step=1)\noutput x\n";
constexpr const char* kAliasOutlivesRoot =  // DESIGN's memory example
    "dtype float32\ninput x [4, 8]\nt = clone(x)\n"
    "y = slice_copy(t, dim=0, start=1, end=2, step=1)\nz = clone(x)\nw = clone(y)\noutput z, w\n";
constexpr const char* kNonIdentityCopy =  // a slice that stays a copy, channels-last-like order
    "dtype int32\ninput x [3, 4] dim_order=[1, 0]\n"
    "y = slice_copy(x, dim=0, start=1, end=3, step=1)\noutput y\n";
constexpr const char* kInteriorSlice =
    "dtype int32\ninput x [8]\ny = slice_copy(x, dim=0, start=2, end=5, step=1)\noutput y\n";
constexpr const char* kOverlappingInPlaceCopy =  // cf. pytorch#197829
    "dtype int16\ninput x [4, 3]\nt = clone(x)\n"
    "a = slice_copy(t, dim=0, start=0, end=2, step=1)\n"
    "b = slice_copy(t, dim=0, start=1, end=3, step=1)\ncopy_(a, b)\nw = clone(a)\noutput w, t\n";
constexpr const char* kChain =
    "dtype bool\ninput x [4, 6, 8]\na = slice_copy(x, dim=0, start=1, end=3, step=1)\n"
    "b = slice_copy(a, dim=0, start=1, end=2, step=1)\n"
    "c = slice_copy(b, dim=1, start=2, end=5, step=1)\nd = clone(c)\noutput d\n";

TEST(RewriteRunner, HandCasesOfEveryBugClassPassOnTheReferenceBackend) {
  int rewritten = 0;
  for (const char* body : {kOutputSlice, kRootWrittenWhileAliasLive, kDenseUnread,
                           kAliasOutlivesRoot, kNonIdentityCopy, kInteriorSlice,
                           kOverlappingInPlaceCopy, kChain}) {
    CaseReport rep = run(body, reference());
    EXPECT_FALSE(rep.failed()) << body << describe(rep);
    EXPECT_TRUE(rep.findings.empty()) << body << describe(rep);
    EXPECT_EQ(rep.rules.size(), static_cast<size_t>(rep.slices)) << body;
    rewritten += rep.rewritten;
  }
  EXPECT_EQ(rewritten, 0 + 0 + 1 + 1 + 0 + 0 + 1 + 3);
}

TEST(RewriteRunner, ReportsBothArenasAndOptInMemoryRegression) {
  CaseReport rep = run(kAliasOutlivesRoot, reference());
  EXPECT_FALSE(rep.failed()) << describe(rep);
  EXPECT_GT(rep.arena_bytes, rep.copy_arena_bytes);
  Backend frugal = reference();
  frugal.never_grows_arena = true;
  expect_first_failure(run(kAliasOutlivesRoot, frugal), FindingKind::MEMORY_REGRESSION,
                       "grew the arena");
}

// ---- faulty passes ----

// A pass written in the test: density always, rule 3 always, and rules 2 and 4
// only when asked. With both on it must agree with the reference pass.
template <bool kOutputRule, bool kRootRule>
RewritePlan test_pass(const Case& c, const ProgramInfo& info, const PassContext&) {
  RewritePlan plan = copy_only_plan(c, info);
  plan.decisions.clear();
  const int n = info.failing_op >= 0 ? info.failing_op : static_cast<int>(c.ops.size());
  for (int k = 0; k < n; ++k) {
    if (c.ops[k].kind != OpKind::SliceCopy) continue;
    const OpInfo& oi = info.ops[k];
    const Tensor in = value_meta(info.values[oi.src]);
    const int d = *normalize_dim(c.ops[k].dim, in.rank);
    const SliceRange r = normalize_slice(in.sizes[d], c.ops[k].start, c.ops[k].end, c.ops[k].step);
    bool ok = slice_is_dense(in.sizes, in.dim_order, in.rank, d, r);
    const int root = plan.root[oi.src];
    int last_read = -1;
    for (int m = k + 1; m < n; ++m) {
      ok = ok && info.ops[m].target != oi.result;
      if (info.ops[m].src == oi.result) last_read = m;
    }
    for (int m = k + 1; kRootRule && m <= last_read; ++m) ok = ok && info.ops[m].target != root;
    for (int o : info.outputs) ok = ok && !(kOutputRule && o == oi.result);
    if (ok) {
      plan.root[oi.result] = root;
      plan.delta_bytes[oi.result] = plan.delta_bytes[oi.src] +
                                    slice_alias_offset_elems(in, d, r) * int64_t(in.element_size());
    }
    plan.decisions.push_back({k, oi.result, ok, ok ? "test pass: alias" : "test pass: copy"});
  }
  return plan;
}

Backend with_pass(decltype(Backend::pass) pass) {
  Backend b = reference();
  b.name = "test-pass";
  b.pass = pass;
  return b;
}

TEST(RewriteRunner, TheTestPassWithEveryRuleIsSound) {
  const Backend b = with_pass(&test_pass<true, true>);
  for (const char* body : {kOutputSlice, kRootWrittenWhileAliasLive, kChain, kAliasOutlivesRoot,
                           kOverlappingInPlaceCopy}) {
    CaseReport rep = run(body, b);
    EXPECT_FALSE(rep.failed()) << body << describe(rep);
  }
}

TEST(RewriteRunner, PassIgnoringTheOutputRuleIsUnsound) {
  CaseReport rep = run(kOutputSlice, with_pass(&test_pass<false, true>));
  expect_first_failure(rep, FindingKind::UNSOUND_REWRITE, "program output");
  EXPECT_EQ(rep.first_failure()->op, 0);
  EXPECT_EQ(rep.rewritten, 1);
  EXPECT_EQ(rep.arena_bytes, 0) << "an unsound plan must not be executed";
}

TEST(RewriteRunner, PassIgnoringRootMutationIsUnsound) {
  CaseReport rep = run(kRootWrittenWhileAliasLive, with_pass(&test_pass<true, false>));
  expect_first_failure(rep, FindingKind::UNSOUND_REWRITE, "is written by op 1");
}

TEST(RewriteRunner, TheRootMutationHazardIsRealWhenExecuted) {
  // What the runner's decision check prevents: executing the unsound alias makes
  // w see x's update, where the copy took a snapshot (cf. pytorch#198101).
  ParseResult r = parse(kRootWrittenWhileAliasLive);
  const RewritePlan unsound = test_pass<true, false>(r.c, r.info, {});
  ASSERT_TRUE(unsound.is_alias(1));
  const MemoryPlan plan = plan_memory(r.c, r.info, unsound);
  ASSERT_EQ(check_plan(r.c, r.info, unsound, plan), "");
  const PathResult copy = run_copy_path(r.c, r.info, make_input_values(r.info), KernelTable{});
  const RewritePathResult rw = run_rewrite_path(r.c, r.info, make_input_values(r.info), unsound, plan, KernelTable{});
  ASSERT_TRUE(copy.complete() && rw.path.complete());
  std::string why;
  EXPECT_FALSE(compare_values(copy.outputs[0], rw.path.outputs[0], why));
  EXPECT_NE(why.find("element"), std::string::npos) << why;
}

TEST(RewriteRunner, PassThatNeverRewritesMissesRewrites) {
  Backend never = with_pass([](const Case& c, const ProgramInfo& info, const PassContext&) {
    return copy_only_plan(c, info);
  });
  CaseReport rep = run(kChain, never);
  expect_first_failure(rep, FindingKind::MISSED_REWRITE, "could be an et_slice");
  EXPECT_EQ(rep.rewritten, 0);
  never.tolerates_missed_rewrite = true;
  CaseReport tolerated = run(kChain, never);
  EXPECT_FALSE(tolerated.failed()) << describe(tolerated);
  const auto missed = std::count_if(tolerated.findings.begin(), tolerated.findings.end(),
                                    [](const Finding& f) {
                                      return f.kind == FindingKind::MISSED_REWRITE && f.tolerated;
                                    });
  EXPECT_EQ(missed, 3) << describe(tolerated);  // a, b and c, still counted
  // Nothing to miss where nothing is eligible.
  EXPECT_FALSE(run(kOutputSlice, never).failed());
}

// ---- faulty planner ----

// Places every tensor by its own lifetime, then points aliases into their roots:
// root lifetimes are never extended, so a root's bytes may be reused too early.
MemoryPlan planner_without_extension(const Case& c, const ProgramInfo& info,
                                     const RewritePlan& rewrite) {
  MemoryPlan plan = plan_memory(c, info, copy_only_plan(c, info));
  for (TensorPlacement& t : plan.tensors) {
    t.root = rewrite.root[t.value];
    if (rewrite.is_alias(t.value))
      t.offset = plan.tensors[t.root].offset + rewrite.delta_bytes[t.value];
  }
  return plan;
}

TEST(RewriteRunner, PlannerThatDoesNotExtendRootLifetimesIsAPlanViolation) {
  Backend b = reference();
  b.planner = &planner_without_extension;
  expect_first_failure(run(kAliasOutlivesRoot, b), FindingKind::PLAN_VIOLATION,
                       "'t' is used at steps 1..4 (the last through its alias 'y') but the plan "
                       "keeps it alive at steps 1..2");
  // Where no alias outlives its root's own use, the same planner is fine.
  CaseReport fine = run("dtype float32\ninput x [4, 3]\n"
                        "y = slice_copy(x, dim=0, start=1, end=3, step=1)\nw = clone(y)\n"
                        "s = clone(x)\noutput w, s\n", b);
  EXPECT_FALSE(fine.failed()) << describe(fine);
  EXPECT_EQ(fine.rewritten, 1);
}

// ---- faulty et_slice ----

// Takes the alias offset from strides[0] whatever the sliced dim.
void et_slice_stride0(KernelRuntimeContext& ctx, EValue** stack) {
  et_slice(ctx, stack);
  if (!ctx.ok()) return;
  const Tensor& in = *stack[0]->tensor;
  Tensor& out = *stack[5]->tensor;
  const int d = *normalize_dim(stack[1]->int_value, in.rank);
  std::optional<int64_t> start;
  if (stack[2]->is_int()) start = stack[2]->int_value;
  const SliceRange r = normalize_slice(in.sizes[d], start, std::nullopt, 1);
  if (out.numel() > 0) out.data = in.bytes() + r.start * in.strides[0] * in.element_size();
}

TEST(RewriteRunner, EtSliceWithTheWrongStrideIsAnAliasViolation) {
  Backend b = reference();
  b.kernels.et_slice_op = &et_slice_stride0;
  // x [3, 4] order [1, 0]: strides [1, 3]. y = x[:, 1:3] starts at 1 * 3 = 3
  // elements (12 bytes); stride[0] gives 1 element, still inside x.
  expect_first_failure(run(kDenseUnread, b), FindingKind::ALIAS_VIOLATION,
                       "starts 4 bytes into root 'x' but torch's view starts at 12 bytes");
  // Slices of dim 0 have stride[d] == stride[0]: no finding.
  CaseReport dim0 = run(kAliasOutlivesRoot, b);
  EXPECT_FALSE(dim0.failed()) << describe(dim0);
  EXPECT_EQ(dim0.rewritten, 1);
  // x [1, 6, 4]: y = x[:, 2:4] is dense; stride[0] = 24 puts it 48 elements in,
  // past the end of x's 24.
  expect_first_failure(run("dtype float32\ninput x [1, 6, 4]\n"
                           "y = slice_copy(x, dim=1, start=2, end=4, step=1)\noutput x\n", b),
                       FindingKind::ALIAS_VIOLATION, "leave root 'x' (96 bytes)");
}

// The later read also gives wrong values, but the precise alias report comes first
// (alias facts are compared before values).
TEST(RewriteRunner, EtSliceWithTheWrongStrideReadByALaterOpIsReportedAsTheAlias) {
  Backend b = reference();
  b.kernels.et_slice_op = &et_slice_stride0;
  expect_first_failure(run("dtype float32\ninput x [3, 4] dim_order=[1, 0]\n"
                           "y = slice_copy(x, dim=1, start=1, end=3, step=1)\n"
                           "w = clone(y)\noutput w\n", b),
                       FindingKind::ALIAS_VIOLATION, "torch's view starts at");
}

// ---- faulty slice_copy ----

// Validates and resizes like the reference, then copies assuming both tensors are
// laid out row-major (identity dim order), whatever their dim order says.
Tensor& slice_copy_row_major(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                             std::optional<int64_t> start, std::optional<int64_t> end,
                             int64_t step, Tensor& out) {
  slice_copy_Tensor_out(ctx, in, dim, start, end, step, out);
  if (!ctx.ok() || out.numel() == 0) return out;
  const int d = *normalize_dim(dim, in.rank);
  const SliceRange r = normalize_slice(in.sizes[d], start, end, step);
  const size_t es = in.element_size();
  for (int64_t flat = 0; flat < out.numel(); ++flat) {
    int64_t rest = flat, src = 0, in_stride = 1;
    for (int i = in.rank - 1; i >= 0; --i) {
      const int64_t idx = rest % out.sizes[i];
      rest /= out.sizes[i];
      src += (i == d ? r.start + idx * r.step : idx) * in_stride;
      in_stride *= in.sizes[i];
    }
    std::copy_n(in.bytes() + src * es, es, out.bytes() + flat * es);
  }
  return out;
}

// Copies from one element further along than asked (an off-by-one source pointer).
Tensor& slice_copy_off_by_one(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                              std::optional<int64_t> start, std::optional<int64_t> end,
                              int64_t step, Tensor& out) {
  Tensor shifted = in;
  shifted.data = in.bytes() + in.element_size();
  return slice_copy_Tensor_out(ctx, shifted, dim, start, end, step, out);
}

TEST(RewriteRunner, SliceCopyIgnoringTheDimOrderIsAValueMismatch) {
  Backend b = reference();
  b.kernels.boxed_of(OpKind::SliceCopy) = &boxed_slice_args<&slice_copy_row_major>;
  CaseReport rep = run(kNonIdentityCopy, b);
  expect_first_failure(rep, FindingKind::VALUE_MISMATCH, "copy path");
  EXPECT_EQ(rep.first_failure()->path, FindingPath::Copy);
  // With the identity order the fault is invisible: the test kernel is right there.
  EXPECT_FALSE(run("dtype int32\ninput x [3, 4]\n"
                   "y = slice_copy(x, dim=1, start=1, end=3, step=1)\noutput y\n", b).failed());
}

TEST(RewriteRunner, SliceCopyOffByOneElementIsAValueMismatch) {
  Backend b = reference();
  b.kernels.boxed_of(OpKind::SliceCopy) = &boxed_slice_args<&slice_copy_off_by_one>;
  CaseReport rep = run(kInteriorSlice, b);  // x[2:5] of 8: the shifted read stays in x
  expect_first_failure(rep, FindingKind::VALUE_MISMATCH, "element [0]");
  EXPECT_EQ(rep.first_failure()->op, 0);
}

// ---- explain --json agrees with the plan that runs ----

std::string json_escape(const std::string& s) {
  std::string o;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') o += '\\';
    o += ch;
  }
  return o;
}

std::string run_cli(const std::string& args) {
  std::string out;
  FILE* p = popen((std::string(SLICEFUZZ_CLI) + " " + args + " 2>/dev/null").c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

std::vector<std::string> seed_files() {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(fs::path(SLICEFUZZ_SOURCE_DIR) / "corpus/seeds"))
    if (e.path().extension() == ".case") files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ExplainJsonCorpus, HasTheRewriteSeeds) {
  const std::vector<std::string> files = seed_files();
  EXPECT_GE(std::count_if(files.begin(), files.end(),
                          [](const std::string& f) { return f.rfind("rewrite_", 0) == 0; }),
            20);
}

// One CLI run explains every seed (one JSON object per line): starting the CLI
// loads libtorch, which costs seconds under ASan.
TEST(ExplainJson, ShowsTheDecisionsThatExecutionUses) {
  const std::vector<std::string> files = seed_files();
  std::string args = "explain --json";
  for (const std::string& f : files) args += " " + std::string(SLICEFUZZ_SOURCE_DIR) + "/corpus/seeds/" + f;
  std::istringstream lines(run_cli(args));
  std::vector<std::string> json_lines;
  for (std::string line; std::getline(lines, line);) json_lines.push_back(line);
  ASSERT_EQ(json_lines.size(), files.size());
  for (size_t k = 0; k < files.size(); ++k) {
    const std::string file = std::string(SLICEFUZZ_SOURCE_DIR) + "/corpus/seeds/" + files[k];
    const std::string& json = json_lines[k];
    SCOPED_TRACE(file + "\n" + json);
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    ParseResult r = parse_case(text.str(), file);
    ASSERT_TRUE(r.ok) << r.error;
    const RewritePlan plan = reference().pass(r.c, r.info, {});
    const MemoryPlan mem = reference().planner(r.c, r.info, plan);
    ASSERT_EQ(json.rfind("{\"case\":" + json_string(file), 0), 0u);
    EXPECT_EQ(count(json, "\"decision\":"), plan.decisions.size());
    for (const RewriteDecision& d : plan.decisions) {
      const std::string expect = "{\"value\":\"" + r.info.values[d.value].name + "\",\"op\":" +
                                 std::to_string(d.op) + ",\"decision\":\"" +
                                 (d.alias ? "et_slice" : "slice_copy") + "\",\"reason\":\"" +
                                 json_escape(d.reason) + "\"";
      EXPECT_NE(json.find(expect), std::string::npos) << expect;
    }
    EXPECT_NE(json.find("\"arena_bytes\":" + std::to_string(mem.arena_bytes) + ","),
              std::string::npos);
    EXPECT_NE(json.find("\"result\":{\"failed\":false"), std::string::npos);
    // run_case executes the same decisions and the same plan.
    CaseReport rep = run_case(r.c, r.info, reference(), RunOptions{});
    EXPECT_FALSE(rep.failed()) << describe(rep);
    EXPECT_EQ(rep.rewritten, std::count_if(plan.decisions.begin(), plan.decisions.end(),
                                           [](const RewriteDecision& d) { return d.alias; }));
    ASSERT_EQ(rep.rules.size(), plan.decisions.size());
    for (size_t i = 0; i < plan.decisions.size(); ++i)
      EXPECT_EQ(rep.rules[i], plan.decisions[i].rule);
    EXPECT_EQ(rep.arena_bytes, mem.arena_bytes);
  }
}

}  // namespace
}  // namespace slicefuzz
