// The poisoned arena is what turns a planner or et_slice bug into a loud abort
// instead of silently wrong numbers. These death tests feed run_rewrite_path a
// deliberately broken plan or prim op and require an AddressSanitizer report.
// They only mean something under ASan (the asan preset, which CI runs).
#include <gtest/gtest.h>

#include <string>

#include "oracles/plan_check.h"
#include "oracles/values.h"
#include "kernels/util/slice_util.h"
#include "program/arena_executor.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "program/poison.h"

namespace slicefuzz {
namespace {

struct Program {
  Case c;
  ProgramInfo info;
  RewritePlan rewrite;
  MemoryPlan plan;
  int value(const std::string& name) const {
    for (size_t v = 0; v < info.values.size(); ++v)
      if (info.values[v].name == name) return static_cast<int>(v);
    return -1;
  }
};

Program load(const std::string& body) {
  Program p;
  ParseResult r = parse_case("slicefuzz-case 1\n" + body, "death.case");
  EXPECT_TRUE(r.ok) << r.error;
  p.c = r.c;
  p.info = r.info;
  p.rewrite = replace_slice_copy_with_slice(p.c, p.info);
  p.plan = plan_memory(p.c, p.info, p.rewrite);
  return p;
}

// DESIGN's memory example: y aliases t, and t's own last read is the slice.
constexpr const char* kAliasOutlivesRootsOwnUse =
    "dtype float32\ninput x [4, 8]\n"
    "t = clone(x)\n"                                      // op 0, step 1
    "y = slice_copy(t, dim=0, start=0, end=1, step=1)\n"  // op 1, step 2: t's own last use
    "z = clone(x)\n"                                      // op 2, step 3
    "w = clone(y)\n"                                      // op 3, step 4: reads t's bytes
    "output z, w\n";

// t is last in the arena: x [0, 128) dies at step 1, t [128, 192) lives 1..3 and w
// reuses x's bytes, so the first byte past t is the arena's end (a heap redzone).
constexpr const char* kRootAtTheArenaEnd =
    "dtype float32\ninput x [4, 8]\n"
    "t = slice_copy(x, dim=1, start=0, end=4, step=1)\n"  // not dense: a copy, 64 bytes
    "y = slice_copy(t, dim=0, start=2, end=4, step=1)\n"  // alias of t at byte 32
    "w = clone(y)\n"
    "output w\n";

// et_slice with the right sizes and checks, but out.data just past in's bytes:
// the prim op forgot to add the offset to in.data and added in's size instead.
void et_slice_past_the_root(KernelRuntimeContext& ctx, EValue** stack) {
  et_slice(ctx, stack);
  if (!ctx.ok()) return;
  const Tensor& in = *stack[0]->tensor;
  stack[5]->tensor->data = in.bytes() + in.nbytes();
}

TEST(ArenaSetup, ThePlansTheDeathTestsBreakAreSound) {
  // Guard the assumptions the death tests rely on, so that a changed planner
  // makes them fail here with a reason rather than die for the wrong reason.
  Program a = load(kAliasOutlivesRootsOwnUse);
  const int t = a.value("t");
  ASSERT_TRUE(a.rewrite.is_alias(a.value("y")));
  EXPECT_EQ(a.plan.tensors[t].own_last_step, 2);
  EXPECT_EQ(a.plan.tensors[t].last_step, 4);
  EXPECT_EQ(check_plan(a.c, a.info, a.rewrite, a.plan), "");
  RewritePathResult ok = run_rewrite_path(a.c, a.info, make_input_values(a.info), a.rewrite, a.plan, KernelTable{});
  ASSERT_TRUE(ok.path.complete()) << ok.path.error_message;
  ASSERT_EQ(ok.aliases.size(), 1u);
  EXPECT_EQ(ok.aliases[0].delta_bytes, 0);

  Program b = load(kRootAtTheArenaEnd);
  const TensorPlacement& root = b.plan.tensors[b.value("t")];
  ASSERT_FALSE(b.rewrite.is_alias(b.value("t")));
  ASSERT_TRUE(b.rewrite.is_alias(b.value("y")));
  EXPECT_EQ(root.offset + root.nbytes, b.plan.arena_bytes) << "t must end the arena";
  RewritePathResult ok2 = run_rewrite_path(b.c, b.info, make_input_values(b.info), b.rewrite, b.plan, KernelTable{});
  ASSERT_TRUE(ok2.path.complete()) << ok2.path.error_message;
  ASSERT_EQ(ok2.aliases.size(), 1u);
  EXPECT_EQ(ok2.aliases[0].delta_bytes, 32);
}

#ifdef SLICEFUZZ_HAS_ASAN

class ArenaDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { ::testing::FLAGS_gtest_death_test_style = "threadsafe"; }
};

TEST_F(ArenaDeathTest, AliasReadAfterTheRootWasPoisonedAborts) {
  Program p = load(kAliasOutlivesRootsOwnUse);
  // A planner bug: the root's lifetime is not extended to its alias's last read,
  // so the executor poisons t after step 2 and w = clone(y) reads dead bytes.
  TensorPlacement& t = p.plan.tensors[p.value("t")];
  ASSERT_GT(t.last_step, t.own_last_step);
  t.last_step = t.own_last_step;
  EXPECT_DEATH(run_rewrite_path(p.c, p.info, make_input_values(p.info), p.rewrite, p.plan, KernelTable{}),
               "AddressSanitizer: use-after-poison");
}

TEST_F(ArenaDeathTest, AliasReadAfterAnInputRootDiedAborts) {
  // Same bug with the input as the root and a chain of two aliases.
  Program p = load("dtype int16\ninput x [3, 5]\n"
                   "a = slice_copy(x, dim=0, start=1, end=3, step=1)\n"
                   "b = slice_copy(a, dim=0, start=1, end=2, step=1)\n"
                   "s = clone(x)\nc = clone(s)\nd = clone(b)\noutput c, d\n");
  ASSERT_TRUE(p.rewrite.is_alias(p.value("b")));
  TensorPlacement& x = p.plan.tensors[0];
  ASSERT_EQ(x.own_last_step, 3);
  ASSERT_EQ(x.last_step, 5);
  x.last_step = x.own_last_step;
  EXPECT_DEATH(run_rewrite_path(p.c, p.info, make_input_values(p.info), p.rewrite, p.plan, KernelTable{}),
               "AddressSanitizer");
}

TEST_F(ArenaDeathTest, AliasPointingPastItsRootAborts) {
  Program p = load(kRootAtTheArenaEnd);
  KernelTable k;
  k.et_slice_op = &et_slice_past_the_root;
  EXPECT_DEATH(run_rewrite_path(p.c, p.info, make_input_values(p.info), p.rewrite, p.plan, k),
               "AddressSanitizer: heap-buffer-overflow");
}

TEST_F(ArenaDeathTest, AliasPointingIntoADeadRegionAborts) {
  // x [0, 128), t [128, 256), r [256, 384): r dies at step 4, before w reads the
  // alias y of t at step 5, and nothing live then sits on r's first 32 bytes. An
  // alias pointing just past t lands there: inside the arena, but poisoned.
  Program p = load("dtype float32\ninput x [4, 8]\n"
                   "t = clone(x)\n"                                      // step 1
                   "r = clone(x)\n"                                      // step 2
                   "y = slice_copy(t, dim=0, start=3, end=4, step=1)\n"  // step 3
                   "u = slice_copy(r, dim=1, start=0, end=1, step=1)\n"  // step 4: r's last use
                   "w = clone(y)\n"                                      // step 5
                   "output w, u\n");
  ASSERT_TRUE(p.rewrite.is_alias(p.value("y")));
  const TensorPlacement& t = p.plan.tensors[p.value("t")];
  const TensorPlacement& r = p.plan.tensors[p.value("r")];
  ASSERT_EQ(r.offset, t.offset + t.nbytes);  // r sits right after t
  ASSERT_LT(r.last_step, 5);                 // and is dead when w reads y
  for (const TensorPlacement& o : p.plan.tensors)
    if (!p.rewrite.is_alias(o.value) && o.last_step >= 5 && o.nbytes > 0)
      ASSERT_TRUE(o.offset >= r.offset + 32 || o.offset + o.nbytes <= r.offset) << o.value;
  KernelTable k;
  k.et_slice_op = &et_slice_past_the_root;
  EXPECT_DEATH(run_rewrite_path(p.c, p.info, make_input_values(p.info), p.rewrite, p.plan, k),
               "AddressSanitizer: use-after-poison");
}

#else

TEST(ArenaDeathTest, RequiresAsan) {
  GTEST_SKIP() << "the poisoned-arena death tests need an ASan build (cmake --preset asan)";
}

#endif

}  // namespace
}  // namespace slicefuzz
