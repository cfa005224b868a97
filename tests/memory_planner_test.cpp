// plan_memory and check_plan: lifetimes, alias placement, root lifetime extension,
// the memory regression of DESIGN section 2, and check_plan catching hand-broken
// plans. A property over generated programs re-derives every invariant here,
// without calling check_plan's code.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "oracles/analysis.h"
#include "oracles/plan_check.h"
#include "oracles/values.h"
#include "generators/generate.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "program/arena_executor.h"
#include "program/copy_executor.h"
#include "program/memory_planner.h"

namespace slicefuzz {
namespace {

struct Planned {
  Case c;
  ProgramInfo info;
  RewritePlan rewrite;
  MemoryPlan plan;
  int value(const std::string& name) const {
    for (size_t v = 0; v < info.values.size(); ++v)
      if (info.values[v].name == name) return static_cast<int>(v);
    ADD_FAILURE() << "no value named " << name;
    return 0;
  }
  const TensorPlacement& t(const std::string& name) const { return plan.tensors[value(name)]; }
  TensorPlacement& t(const std::string& name) { return plan.tensors[value(name)]; }
  std::string check() const { return check_plan(c, info, rewrite, plan); }
};

Planned plan_text(const std::string& body, bool rewrite = true) {
  Planned p;
  ParseResult r = parse_case("slicefuzz-case 1\n" + body, "test.case");
  EXPECT_TRUE(r.ok) << r.error;
  p.c = r.c;
  p.info = r.info;
  p.rewrite = rewrite ? replace_slice_copy_with_slice(p.c, p.info) : copy_only_plan(p.c, p.info);
  p.plan = plan_memory(p.c, p.info, p.rewrite);
  return p;
}

// DESIGN section 2: with the alias, t is kept alive until w reads y, so t and z
// coexist; with the copy, t dies right after the slice.
std::string memory_example() {
  return "dtype float32\ninput x [4, 8]\n"
         "t = clone(x)\n"                                      // op 0, step 1
         "y = slice_copy(t, dim=0, start=0, end=1, step=1)\n"  // op 1, step 2
         "z = clone(x)\n"                                      // op 2, step 3
         "w = clone(y)\n"                                      // op 3, step 4
         "output z, w\n";                                      // step 5
}

TEST(MemoryPlanner, LifetimesOfTheDesignMemoryExample) {
  Planned p = plan_text(memory_example());
  ASSERT_TRUE(p.rewrite.is_alias(p.value("y")));
  EXPECT_EQ(p.plan.end_step, 5);
  ASSERT_EQ(p.plan.tensors.size(), 5u);
  EXPECT_EQ(p.t("x").first_step, 0);
  EXPECT_EQ(p.t("x").last_step, 3);  // z = clone(x) is op 2
  EXPECT_EQ(p.t("t").first_step, 1);
  EXPECT_EQ(p.t("t").own_last_step, 2);  // t's own last read: the slice
  EXPECT_EQ(p.t("t").last_step, 4);      // extended to w = clone(y)
  EXPECT_EQ(p.t("y").first_step, 2);
  EXPECT_EQ(p.t("y").last_step, 4);
  EXPECT_EQ(p.t("y").root, p.value("t"));
  EXPECT_EQ(p.t("y").offset, p.t("t").offset);  // row 0: delta 0
  EXPECT_EQ(p.t("y").nbytes, 32);
  EXPECT_EQ(p.t("z").first_step, 3);
  EXPECT_EQ(p.t("z").last_step, 5);  // output
  EXPECT_EQ(p.t("w").last_step, 5);
  EXPECT_EQ(p.check(), "");
}

TEST(MemoryPlanner, TheRewriteGrowsTheArenaOfTheDesignMemoryExample) {
  Planned rw = plan_text(memory_example());
  Planned copy = plan_text(memory_example(), /*rewrite=*/false);
  ASSERT_EQ(copy.check(), "");
  ASSERT_EQ(rw.check(), "");
  // x, t and z (128 bytes each) are all live at step 3 with the alias.
  EXPECT_GE(rw.plan.arena_bytes, 3 * 128);
  // Copy-only: t dies at step 2, so z can take its bytes.
  EXPECT_FALSE(copy.rewrite.is_alias(copy.value("y")));
  EXPECT_EQ(copy.t("t").last_step, 2);
  EXPECT_LT(copy.plan.arena_bytes, 3 * 128);
  EXPECT_GT(rw.plan.arena_bytes, copy.plan.arena_bytes);
}

TEST(MemoryPlanner, AliasesTakeNoBytesAndLieInsideTheirRoot) {
  Planned p = plan_text("dtype float32\ninput x [6, 4]\nt = clone(x)\n"
                        "a = slice_copy(t, dim=0, start=1, end=3, step=1)\n"
                        "b = slice_copy(a, dim=0, start=1, end=2, step=1)\n"
                        "c = clone(b)\noutput c\n");
  ASSERT_TRUE(p.rewrite.is_alias(p.value("a")));
  ASSERT_TRUE(p.rewrite.is_alias(p.value("b")));
  const TensorPlacement& t = p.t("t");
  EXPECT_EQ(p.t("a").root, p.value("t"));
  EXPECT_EQ(p.t("b").root, p.value("t"));  // resolved through the chain
  EXPECT_EQ(p.t("a").offset, t.offset + 16);
  EXPECT_EQ(p.t("b").offset, t.offset + 32);
  EXPECT_EQ(p.t("b").nbytes, 16);
  // x, t and c are the only tensors that own bytes: 96 + 96 + 16 at most.
  EXPECT_LE(p.plan.arena_bytes, 96 + 96 + 16);
  // t lives until c reads b (op 3, step 4), though its own last read is op 1.
  EXPECT_EQ(t.own_last_step, 2);
  EXPECT_EQ(t.last_step, 4);
  EXPECT_EQ(p.check(), "");
}

TEST(MemoryPlanner, InputRootIsExtendedToItsAliasesLastRead) {
  Planned p = plan_text("dtype int64\ninput x [3, 2]\n"
                        "a = slice_copy(x, dim=0, start=2, end=3, step=1)\n"
                        "s = clone(x)\nb = clone(s)\nc = clone(b)\nd = clone(a)\noutput d, c\n");
  ASSERT_TRUE(p.rewrite.is_alias(p.value("a")));
  EXPECT_EQ(p.t("x").own_last_step, 2);
  EXPECT_EQ(p.t("x").last_step, 5);
  EXPECT_EQ(p.t("a").offset, p.t("x").offset + 32);
  // b and c may not reuse x's bytes while a is still to be read.
  for (const char* v : {"s", "b", "c", "d"}) {
    const TensorPlacement& o = p.t(v);
    const TensorPlacement& x = p.t("x");
    if (o.first_step <= x.last_step)
      EXPECT_TRUE(o.offset >= x.offset + x.nbytes || o.offset + o.nbytes <= x.offset) << v;
  }
  EXPECT_EQ(p.check(), "");
}

TEST(MemoryPlanner, DeadTensorsShareBytes) {
  // a dies before c is defined: greedy placement may put c on a's bytes, and the
  // arena is smaller than the sum of all tensors.
  Planned p = plan_text("dtype float32\ninput x [8, 8]\n"
                        "a = clone(x)\nb = slice_copy(a, dim=1, start=0, end=4, step=1)\n"
                        "c = clone(b)\nd = clone(c)\noutput d\n");
  ASSERT_FALSE(p.rewrite.is_alias(p.value("b")));  // not dense: a copy
  int64_t sum = 0;
  for (const TensorPlacement& t : p.plan.tensors) sum += t.nbytes;
  EXPECT_LT(p.plan.arena_bytes, sum);
  for (const TensorPlacement& t : p.plan.tensors) EXPECT_EQ(t.offset % kArenaAlignment, 0);
  EXPECT_EQ(p.check(), "");
}

TEST(MemoryPlanner, OnlyValuesBeforeTheFailingOpArePlanned) {
  Planned p = plan_text("dtype float32\ninput x [4]\n"
                        "a = slice_copy(x, dim=0, start=0, end=2, step=1)\n"
                        "b = slice_copy(a, dim=0, start=0, end=1, step=0)\n"  // step 0 fails
                        "c = clone(b)\noutput c\n");
  ASSERT_EQ(p.info.failing_op, 1);
  EXPECT_EQ(p.plan.tensors.size(), 2u);  // x and a
  EXPECT_EQ(p.plan.end_step, 2);
  EXPECT_EQ(p.check(), "");
}

// ---- check_plan must reject broken plans ----

TEST(CheckPlan, RootThatDiesBeforeItsAlias) {
  Planned p = plan_text(memory_example());
  ASSERT_EQ(p.check(), "");
  p.t("t").last_step = p.t("t").own_last_step;  // the planner forgot the extension
  const std::string v = p.check();
  EXPECT_NE(v.find("used at steps 1..4"), std::string::npos) << v;
  EXPECT_NE(v.find("alive at steps 1..2"), std::string::npos) << v;
  EXPECT_NE(v.find("'y'"), std::string::npos) << v;
}

TEST(CheckPlan, OverlappingCoLiveTensors) {
  Planned p = plan_text(memory_example());
  ASSERT_LE(p.t("z").first_step, p.t("x").last_step);  // co-live at step 3
  p.t("z").offset = p.t("x").offset + 16;
  const std::string v = p.check();
  EXPECT_NE(v.find("overlap in bytes"), std::string::npos) << v;
}

TEST(CheckPlan, AliasOutsideItsRoot) {
  Planned p = plan_text(memory_example());
  p.t("y").offset = p.t("t").offset + p.t("t").nbytes - 16;  // half of y sticks out
  const std::string v = p.check();
  EXPECT_NE(v.find("outside its root"), std::string::npos) << v;
  Planned q = plan_text(memory_example());
  q.t("y").offset = q.t("t").offset - 4;
  EXPECT_NE(q.check().find("outside its root"), std::string::npos) << q.check();
}

TEST(CheckPlan, TensorOutsideTheArena) {
  Planned p = plan_text(memory_example());
  p.plan.arena_bytes -= 16;
  EXPECT_NE(p.check().find("outside the"), std::string::npos) << p.check();
}

// ---- property: every invariant, re-derived, over many programs ----

// Re-derives lifetimes and checks placements without check_plan; returns "" or why.
std::string independent_check(const Case& c, const ProgramInfo& info, const RewritePlan& rw,
                              const MemoryPlan& plan) {
  const int ran = info.failing_op >= 0 ? info.failing_op : static_cast<int>(c.ops.size());
  int known = 0;
  for (const ValueInfo& v : info.values) known += v.known;
  if (static_cast<int>(plan.tensors.size()) != known) return "tensor count";
  if (plan.end_step != ran + 1) return "end_step";
  const int nv = known;
  std::vector<int> last(nv, 0);
  for (int v = 0; v < nv; ++v) last[v] = info.values[v].def_op + 1;
  for (int k = 0; k < ran; ++k)
    for (int v : {info.ops[k].src, info.ops[k].target})
      if (v >= 0) last[v] = std::max(last[v], k + 1);
  for (int v : info.outputs)
    if (v < nv) last[v] = plan.end_step;
  for (int v = 0; v < nv; ++v) {
    const TensorPlacement& t = plan.tensors[v];
    const std::string name = "'" + info.values[v].name + "': ";
    if (t.value != v || t.root != rw.root[v]) return name + "value/root";
    if (t.first_step != info.values[v].def_op + 1) return name + "first_step";
    if (t.last_step < last[v]) return name + "dies before its last use";
    if (static_cast<size_t>(t.nbytes) != value_meta(info.values[v]).nbytes()) return name + "nbytes";
    if (rw.is_alias(v)) {
      const TensorPlacement& r = plan.tensors[t.root];
      if (rw.is_alias(t.root)) return name + "root is an alias";
      if (t.offset != r.offset + rw.delta_bytes[v]) return name + "offset != root + delta";
      if (t.offset < r.offset || t.offset + t.nbytes > r.offset + r.nbytes)
        return name + "outside root";
      if (r.last_step < last[v]) return name + "root dies before the alias is read";
      continue;
    }
    if (t.offset % kArenaAlignment) return name + "unaligned";
    if (t.offset < 0 || t.offset + t.nbytes > plan.arena_bytes) return name + "outside arena";
    for (int u = 0; u < v; ++u) {
      const TensorPlacement& o = plan.tensors[u];
      if (rw.is_alias(u) || t.nbytes == 0 || o.nbytes == 0) continue;
      const bool co_live = t.first_step <= o.last_step && o.first_step <= t.last_step;
      const bool overlap = t.offset < o.offset + o.nbytes && o.offset < t.offset + t.nbytes;
      if (co_live && overlap) return name + "overlaps co-live '" + info.values[u].name + "'";
    }
  }
  return "";
}

// A small program builder biased toward aliases, chains and mutations of roots
// (the generator covers breadth; this one piles hazards onto one storage).
Case small_program(std::mt19937_64& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  Case c;
  c.dtype = pick(2) ? ScalarType::Float : ScalarType::Short;
  const int rank = 1 + pick(3);
  for (int i = 0; i < rank; ++i) c.inputs[0].sizes.push_back(pick(5) ? 1 + pick(4) : 1);
  std::vector<int> order(rank);
  for (int i = 0; i < rank; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  c.inputs[0].dim_order = order;
  canonicalize(c);
  std::vector<std::pair<std::string, std::vector<int64_t>>> vals{{"x", c.inputs[0].sizes}};
  const int nops = 1 + pick(8);
  for (int k = 0; k < nops; ++k) {
    const auto& [src, sizes] = vals[pick(static_cast<int>(vals.size()))];
    Op op;
    const std::string name = "v" + std::to_string(k);
    const int kind = pick(6);
    if (kind <= 2) {
      op.kind = OpKind::SliceCopy;
      op.result = name, op.src = src;
      op.dim = pick(rank);
      const int64_t n = sizes[op.dim];
      op.start = pick(4) ? std::optional<int64_t>(pick(static_cast<int>(n) + 1)) : std::nullopt;
      op.end = pick(4) ? std::optional<int64_t>(pick(static_cast<int>(n) + 1)) : std::nullopt;
      op.step = pick(3) ? 1 : 1 + pick(3);
      std::vector<int64_t> out = sizes;
      int64_t s = op.start.value_or(0), e = op.end.value_or(n);
      out[op.dim] = e > s ? (e - s - 1) / op.step + 1 : 0;
      vals.push_back({name, out});
    } else if (kind == 3) {
      op.kind = OpKind::Clone, op.result = name, op.src = src;
      vals.push_back({name, sizes});
    } else if (kind == 4) {
      op.kind = OpKind::Add, op.target = src, op.scalar = 1 + pick(3);
    } else {
      std::vector<std::string> same;
      for (const auto& [n2, s2] : vals)
        if (s2 == sizes) same.push_back(n2);
      op.kind = OpKind::Copy, op.target = src, op.src = same[pick(static_cast<int>(same.size()))];
    }
    c.ops.push_back(op);
  }
  c.outputs.push_back(vals.back().first);
  if (pick(2)) c.outputs.push_back(vals[pick(static_cast<int>(vals.size()))].first);
  if (c.outputs.size() == 2 && c.outputs[0] == c.outputs[1]) c.outputs.pop_back();
  return c;
}

void check_program(const Case& c, int& aliases, int& checked) {
  ProgramInfo info;
  AnalysisError err;
  ASSERT_TRUE(analyze(c, kDefaultByteBudget, info, err)) << err.message << "\n" << print_case(c);
  for (bool rewrite : {true, false}) {
    RewritePlan rw = rewrite ? replace_slice_copy_with_slice(c, info) : copy_only_plan(c, info);
    MemoryPlan plan = plan_memory(c, info, rw);
    for (size_t v = 0; v < plan.tensors.size(); ++v) aliases += rw.is_alias(static_cast<int>(v));
    ASSERT_EQ(independent_check(c, info, rw, plan), "") << print_case(c);
    ASSERT_EQ(check_plan(c, info, rw, plan), "") << print_case(c);
    // The plan also runs: on the poisoned arena (any dead or out-of-root read
    // aborts under ASan) it gives what the copy path gives.
    const PathResult copy = run_copy_path(c, info, make_input_values(info), KernelTable{});
    const RewritePathResult arena = run_rewrite_path(c, info, make_input_values(info), rw, plan, KernelTable{});
    ASSERT_EQ(copy.error_op, arena.path.error_op) << print_case(c);
    ASSERT_EQ(copy.outputs.size(), arena.path.outputs.size()) << print_case(c);
    for (size_t i = 0; i < copy.outputs.size(); ++i) {
      std::string why;
      ASSERT_TRUE(compare_values(copy.outputs[i], arena.path.outputs[i], why))
          << why << "\n" << print_case(c);
    }
    ++checked;
  }
}

TEST(MemoryPlannerProperty, HandBuiltProgramsKeepEveryInvariant) {
  std::mt19937_64 rng(20240917);
  int aliases = 0, checked = 0;
  for (int i = 0; i < 3000; ++i) {
    check_program(small_program(rng), aliases, checked);
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_EQ(checked, 6000);
  EXPECT_GT(aliases, 1000);  // the property really exercised aliases
}

TEST(MemoryPlannerProperty, TheIndependentCheckCatchesAPlannerWithoutExtension) {
  // The property has teeth: the planner with root extension switched off breaks it.
  std::mt19937_64 rng(20240917);
  int broken = 0;
  for (int i = 0; i < 500; ++i) {
    const Case c = small_program(rng);
    ProgramInfo info;
    AnalysisError err;
    ASSERT_TRUE(analyze(c, kDefaultByteBudget, info, err));
    const RewritePlan rw = replace_slice_copy_with_slice(c, info);
    const MemoryPlan plan = plan_memory_with(c, info, rw, /*extend_roots_to_alias_reads=*/false);
    const std::string why = independent_check(c, info, rw, plan);
    if (why.empty()) continue;
    ++broken;
    EXPECT_NE(why.find("root dies before the alias is read"), std::string::npos) << why;
    EXPECT_NE(check_plan(c, info, rw, plan), "") << print_case(c);
  }
  EXPECT_GT(broken, 20);
}

TEST(MemoryPlannerProperty, GeneratedProgramsKeepEveryInvariant) {
  int aliases = 0, checked = 0;
  // Version-1 programs (independent_check models one layout for every value).
  for (uint64_t i = 0, v1 = 0; v1 < 1500; ++i) {
    const Case c = generate_case(7, i);
    if (c.min_version() > 1) continue;
    ++v1;
    check_program(c, aliases, checked);
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_EQ(checked, 3000);
  EXPECT_GT(aliases, 50);
}

}  // namespace
}  // namespace slicefuzz
