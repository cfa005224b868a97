// pr21552-rule pinned to PR 21552's head (a18eb2a8a3,
// ../shared/pr21552/replace_slice_copy_with_slice_pass.py): for every gate of
// ReplaceSliceCopyWithSlicePass.call that slicefuzz's program reaches, one program
// on each side of it, with the decision the PR makes there, and the byte offset
// of every alias the PR makes (_compute_slice_byte_offset, worked out by hand).
#include <gtest/gtest.h>

#include <string>

#include "backends/backend.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

struct Decided {
  bool alias = false;
  std::string rule;
  int64_t delta = -1;  // bytes into the root, for an alias
};

// The decision the backend's pass makes for value `name` of the program.
Decided decide(const std::string& body, const std::string& name) {
  ParseResult r = parse_case("slicefuzz-case 2\ndtype float32\n" + body, "pr21552.case");
  EXPECT_TRUE(r.ok) << r.error;
  Decided d;
  if (!r.ok) return d;
  const Backend* b = find_backend("pr21552-rule");
  EXPECT_NE(b, nullptr);
  if (!b) return d;
  const RewritePlan plan = b->pass(r.c, r.info, {});
  for (size_t v = 0; v < r.info.values.size(); ++v) {
    if (r.info.values[v].name != name) continue;
    for (const RewriteDecision& s : plan.decisions)
      if (s.value == static_cast<int>(v)) {
        d.alias = s.alias;
        d.rule = s.rule;
        if (s.alias) d.delta = plan.delta_bytes[v];
        return d;
      }
  }
  ADD_FAILURE() << "no decision for " << name;
  return d;
}

// `is_contiguous_slice_copy`: `if step != 1: return False`.
TEST(Pr21552Rule, StepGate) {
  EXPECT_EQ(decide("input x [6]\na = slice_copy(x, dim=0, start=0, end=4, step=2)\nb = clone(a)\noutput b\n", "a").rule,
            "pr21552-step");
  const Decided one = decide("input x [6]\na = slice_copy(x, dim=0, start=2, end=4, step=1)\nb = clone(a)\noutput b\n", "a");
  EXPECT_TRUE(one.alias);
  EXPECT_EQ(one.delta, 2 * 1 * 4);
}

// `_normalize_dim(dim, rank)` then `dim == 0`: -rank normalises to 0.
TEST(Pr21552Rule, DimGate) {
  EXPECT_EQ(decide("input x [2, 3]\na = slice_copy(x, dim=1, start=0, end=3, step=1)\nb = clone(a)\noutput b\n", "a").rule,
            "pr21552-dim");
  EXPECT_EQ(decide("input x [2, 3]\na = slice_copy(x, dim=-1, start=0, end=3, step=1)\nb = clone(a)\noutput b\n", "a").rule,
            "pr21552-dim");
  const Decided neg = decide("input x [2, 3]\na = slice_copy(x, dim=-2, start=1, end=2, step=1)\nb = clone(a)\noutput b\n", "a");
  EXPECT_TRUE(neg.alias);
  EXPECT_EQ(neg.delta, 1 * 3 * 4);  // start * base.stride[-2] (Python indexing: stride[0]) * 4
}

// `all(u.op != "output" for u in node.users)`.
TEST(Pr21552Rule, OutputUserGate) {
  EXPECT_EQ(decide("input x [4]\na = slice_copy(x, dim=0, start=1, end=3, step=1)\noutput a\n", "a").rule, "output");
  EXPECT_TRUE(decide("input x [4]\na = slice_copy(x, dim=0, start=1, end=3, step=1)\nb = clone(a)\noutput b\n", "a").alias);
  // The base being an output is not a gate of the head's.
  EXPECT_TRUE(decide("input x [4]\nt = clone(x)\na = slice_copy(t, dim=0, start=1, end=3, step=1)\nb = clone(a)\noutput b, t\n", "a").alias);
}

// `_has_default_dim_order(base.meta["spec"])`: the base's strides must sort to the
// identity (dim_order_from_stride, a stable sort: ties of size-1 dims keep their order).
TEST(Pr21552Rule, BaseDimOrderGate) {
  EXPECT_EQ(decide("input x [2, 3] dim_order=[1, 0]\na = slice_copy(x, dim=0, start=1, end=2, step=1)\nb = clone(a)\noutput b\n", "a").rule,
            "pr21552-base-dim-order");
  EXPECT_EQ(decide("input x [2, 3, 4, 5] dim_order=[0, 2, 3, 1]\na = slice_copy(x, dim=0, start=1, end=2, step=1)\nb = clone(a)\noutput b\n", "a").rule,
            "pr21552-base-dim-order");
  // A clone into another layout is a base with that dim order.
  EXPECT_EQ(decide("input x [2, 3]\nt = clone(x, dim_order=[1, 0])\na = slice_copy(t, dim=0, start=1, end=2, step=1)\nb = clone(a)\noutput b\n", "a").rule,
            "pr21552-base-dim-order");
  // [1, 2, 3] in dim order (1, 0, 2) has strides (3, 3, 1): sorted stably, (0, 1, 2).
  EXPECT_TRUE(decide("input x [1, 2, 3] dim_order=[1, 0, 2]\na = slice_copy(x, dim=0, start=0, end=1, step=1)\nb = clone(a)\noutput b\n", "a").alias);
  EXPECT_TRUE(decide("input x [2, 3] dim_order=[0, 1]\na = slice_copy(x, dim=0, start=1, end=2, step=1)\nb = clone(a)\noutput b\n", "a").alias);
}

// `if _is_aliasing_base(base): continue`: a slice of a memory.slice stays a copy;
// a slice of a slice that stayed a copy may alias it.
TEST(Pr21552Rule, AliasingBaseGate) {
  const std::string chain =
      "input x [7]\nt = clone(x)\nc = slice_copy(t, dim=0, start=4, end=6, step=1)\n"
      "d = slice_copy(c, dim=0, start=1, end=2, step=1)\ne = clone(d)\noutput e\n";
  EXPECT_TRUE(decide(chain, "c").alias);
  EXPECT_EQ(decide(chain, "c").delta, 4 * 4);
  EXPECT_EQ(decide(chain, "d").rule, "pr21552-aliasing-base");
  const std::string copied =
      "input x [7]\nt = clone(x)\nc = slice_copy(t, dim=0, start=0, end=6, step=2)\n"
      "d = slice_copy(c, dim=0, start=1, end=2, step=1)\ne = clone(d)\noutput e\n";
  EXPECT_EQ(decide(copied, "c").rule, "pr21552-step");
  EXPECT_TRUE(decide(copied, "d").alias);
}

// `if _slice_start_as_int(start) < 0: continue` (None = 0); a start past the
// dim's size is taken as written (_compute_slice_byte_offset does not clamp).
TEST(Pr21552Rule, StartGateAndUnclampedOffset) {
  EXPECT_EQ(decide("input x [3]\na = slice_copy(x, dim=0, start=-1, end=None, step=1)\nb = clone(a)\noutput b\n", "a").rule,
            "pr21552-negative-start");
  const Decided none = decide("input x [3]\na = slice_copy(x, dim=0, start=None, end=-1, step=1)\nb = clone(a)\noutput b\n", "a");
  EXPECT_TRUE(none.alias);
  EXPECT_EQ(none.delta, 0);
  const Decided past = decide("input x [3, 2]\na = slice_copy(x, dim=0, start=9, end=None, step=1)\nb = clone(a)\noutput b\n", "a");
  EXPECT_TRUE(past.alias);
  EXPECT_EQ(past.delta, 9 * 2 * 4);  // torch's view would start at the clamped 3 * 2 * 4
  // A negative end is not a gate: only the start's sign is.
  EXPECT_TRUE(decide("input x [5] dtype=int16\na = slice_copy(x, dim=0, start=1, end=-1, step=1)\nb = clone(a)\noutput b\n", "a").alias);
  EXPECT_EQ(decide("input x [5] dtype=int16\na = slice_copy(x, dim=0, start=1, end=-1, step=1)\nb = clone(a)\noutput b\n", "a").delta, 1 * 1 * 2);
}

// Only slice_copy is the pass's: the other view-copy ops stay copies.
TEST(Pr21552Rule, OnlySliceCopy) {
  ParseResult r = parse_case(
      "slicefuzz-case 2\ndtype float32\ninput x [2, 3]\na = select_copy(x, dim=0, index=1)\n"
      "v = view_copy(x, sizes=[6])\nb = clone(a)\nw = clone(v)\noutput b, w\n",
      "pr21552.case");
  ASSERT_TRUE(r.ok) << r.error;
  const RewritePlan plan = find_backend("pr21552-rule")->pass(r.c, r.info, {});
  EXPECT_TRUE(plan.decisions.empty());
  for (size_t v = 0; v < r.info.values.size(); ++v) EXPECT_FALSE(plan.is_alias(static_cast<int>(v)));
}

}  // namespace
}  // namespace slicefuzz
