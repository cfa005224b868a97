// The judge's own facts, in a test executable linked against sf_judge alone (no
// kernels, no pass, no planner, no libtorch): if any judge file called the system
// under test's code, this executable would not link. The values below come from
// DESIGN section 2 and torch 1.13, not from the kernels.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>

#include "oracles/analysis.h"
#include "oracles/judge_facts.h"
#include "oracles/judge_layouts.h"
#include "oracles/judge_overlap.h"
#include "oracles/plan_check.h"
#include "oracles/values.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

using judge::SliceSpan;

SliceSpan span(std::vector<int64_t> sizes, int64_t dim, std::optional<int64_t> start,
               std::optional<int64_t> end, int64_t step) {
  return judge::normalize_slice_args(sizes, dim, start, end, step);
}

TEST(JudgeFacts, DimNormalisation) {
  EXPECT_EQ(judge::dim_index(3, -3), 0);
  EXPECT_EQ(judge::dim_index(3, -1), 2);
  EXPECT_EQ(judge::dim_index(3, 3), -1);
  EXPECT_EQ(judge::dim_index(3, -4), -1);
  EXPECT_EQ(judge::dim_index(0, 0), -1);
  EXPECT_EQ(judge::dim_index(16, INT64_MIN), -1);
  EXPECT_EQ(judge::dim_index(16, INT64_MAX), -1);
  EXPECT_EQ(judge::slice_error(2, -2, 1), "");
  EXPECT_NE(judge::slice_error(0, 0, 1), "");
  EXPECT_NE(judge::slice_error(2, 2, 1), "");
  EXPECT_NE(judge::slice_error(2, 0, 0), "");
  EXPECT_NE(judge::slice_error(2, 0, INT64_MIN), "");
}

TEST(JudgeFacts, SliceNormalisationFollowsAtenSlice) {
  SliceSpan s = span({5}, 0, std::nullopt, std::nullopt, 1);
  EXPECT_EQ(s.start, 0);
  EXPECT_EQ(s.length, 5);
  s = span({5}, -1, -2, std::nullopt, 1);  // negative start + size
  EXPECT_EQ(s.start, 3);
  EXPECT_EQ(s.length, 2);
  s = span({5}, 0, 7, 9, 1);  // clamped past the end: empty
  EXPECT_EQ(s.start, 5);
  EXPECT_EQ(s.length, 0);
  s = span({5}, 0, 4, 1, 1);  // end < start: empty
  EXPECT_EQ(s.length, 0);
  s = span({5}, 0, 1, 5, 3);  // ceil(4 / 3)
  EXPECT_EQ(s.length, 2);
  s = span({5}, 0, INT64_MIN, INT64_MAX, INT64_MAX);  // no intermediate overflows
  EXPECT_EQ(s.start, 0);
  EXPECT_EQ(s.length, 1);
  s = span({2, 7}, 1, -INT64_MAX, -1, 2);
  EXPECT_EQ(s.dim, 1);
  EXPECT_EQ(s.start, 0);
  EXPECT_EQ(s.length, 3);
}

TEST(JudgeFacts, StrideRuleTreatsSizeZeroAsOne) {
  EXPECT_EQ(judge::strides_for({2, 3, 4}, {}), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(judge::strides_for({2, 3, 4, 5}, {0, 2, 3, 1}), (std::vector<int64_t>{60, 1, 15, 3}));
  EXPECT_EQ(judge::strides_for({2, 0, 4}, {}), (std::vector<int64_t>{4, 4, 1}));
  EXPECT_EQ(judge::strides_for({}, {}), (std::vector<int64_t>{}));
}

TEST(JudgeFacts, SliceViewAndDensityAsTorchHasThem) {
  // x [4, 3, 8] dim_order [0, 2, 1]: strides [24, 1, 3].
  const std::vector<int> order{0, 2, 1};
  judge::StridedView v = judge::slice_view({4, 3, 8}, order, span({4, 3, 8}, 1, 1, 3, 1));
  EXPECT_EQ(v.sizes, (std::vector<int64_t>{4, 2, 8}));
  EXPECT_EQ(v.strides, (std::vector<int64_t>{24, 1, 3}));
  EXPECT_EQ(v.offset, 1);
  EXPECT_FALSE(judge::view_is_dense(v, order));  // dim 2 comes before 1 and has size 8
  v = judge::slice_view({4, 3, 8}, order, span({4, 3, 8}, 0, 1, 3, 1));
  EXPECT_EQ(v.offset, 24);
  EXPECT_TRUE(judge::view_is_dense(v, order));
  v = judge::slice_view({6}, {}, span({6}, 0, 0, 6, 2));  // gaps
  EXPECT_FALSE(judge::view_is_dense(v, {}));
  v = judge::slice_view({6}, {}, span({6}, 0, 5, 6, INT64_MAX));  // one element: dense
  EXPECT_TRUE(judge::view_is_dense(v, {}));
  EXPECT_EQ(v.offset, 5);
  v = judge::slice_view({3, 0}, {}, span({3, 0}, 0, 2, 3, 1));  // empty: dense at offset 0
  EXPECT_TRUE(judge::view_is_dense(v, {}));
  EXPECT_EQ(v.offset, 0);
}

TEST(JudgeFacts, ByteCountsNeverOverflow) {
  EXPECT_EQ(judge::tensor_bytes({2, 3}, ScalarType::Float), 24);
  EXPECT_EQ(judge::tensor_bytes({}, ScalarType::Double), 8);
  EXPECT_EQ(judge::tensor_bytes({INT64_MAX / 2, 0}, ScalarType::Byte), 0);
  EXPECT_EQ(judge::tensor_bytes({int64_t{1} << 62, int64_t{1} << 62, 0}, ScalarType::Byte),
            std::nullopt);
  EXPECT_EQ(judge::tensor_bytes({-1}, ScalarType::Byte), std::nullopt);
}

uint16_t as16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

TEST(JudgeFacts, ReducedFloatAddMatchesTorch) {
  uint8_t e[8];
  // float16: 1 + 2048 = 2049 is not representable; ties to even 2048.
  judge::fill_element(ScalarType::Half, 1021, e);  // (1021 % 2039 - 1019) / 2 = 1
  EXPECT_EQ(as16(e), 0x3C00);
  judge::add_to_element(ScalarType::Half, e, 2048);
  EXPECT_EQ(as16(e), 0x6800);  // 2048
  judge::add_to_element(ScalarType::Half, e, 100000);  // past 65504: inf
  EXPECT_EQ(as16(e), 0x7C00);
  // bfloat16: 1 + 256 = 257 ties to 256; 256 + 2 = 258.
  judge::fill_element(ScalarType::BFloat16, 126, e);  // 126 - 125 = 1
  EXPECT_EQ(as16(e), 0x3F80);
  judge::add_to_element(ScalarType::BFloat16, e, 256);
  EXPECT_EQ(as16(e), 0x4380);
  judge::add_to_element(ScalarType::BFloat16, e, 2);
  EXPECT_EQ(as16(e), 0x4381);
  EXPECT_EQ(judge::element_text(ScalarType::BFloat16, e), "258");
}

// Sums above the largest finite float16 (65504) but below 65520, the midpoint to
// the next power of two, round down to 65504; 65520 itself ties to infinity.
TEST(JudgeFacts, HalfSumJustAboveTheLargestFiniteRoundsDown) {
  uint8_t e[8];
  judge::fill_element(ScalarType::Half, 1980, e);  // (1980 - 1019) / 2 = 480.5
  judge::add_to_element(ScalarType::Half, e, 65024);  // 65504.5
  EXPECT_EQ(as16(e), 0x7BFF);
  judge::fill_element(ScalarType::Half, 2010, e);  // 495.5: 65519.5
  judge::add_to_element(ScalarType::Half, e, 65024);
  EXPECT_EQ(as16(e), 0x7BFF);
  judge::fill_element(ScalarType::Half, 2011, e);  // 496: 65520
  judge::add_to_element(ScalarType::Half, e, 65024);
  EXPECT_EQ(as16(e), 0x7C00);
}

TEST(JudgeFacts, IntegersWrapAndBoolAddsModuloTwo) {
  uint8_t e[8];
  judge::fill_element(ScalarType::Byte, 250, e);
  judge::add_to_element(ScalarType::Byte, e, 10);
  EXPECT_EQ(e[0], 4);
  judge::fill_element(ScalarType::Long, INT64_MAX, e);
  judge::add_to_element(ScalarType::Long, e, 1);
  EXPECT_EQ(judge::element_text(ScalarType::Long, e), std::to_string(INT64_MIN));
  judge::fill_element(ScalarType::Bool, 1, e);
  EXPECT_EQ(judge::element_text(ScalarType::Bool, e), "true");
  judge::add_to_element(ScalarType::Bool, e, -4);
  EXPECT_EQ(judge::element_text(ScalarType::Bool, e), "true");
  judge::add_to_element(ScalarType::Bool, e, -3);
  EXPECT_EQ(judge::element_text(ScalarType::Bool, e), "false");
}

TEST(JudgeAnalysis, PredictsTheFailingOpAndSizes) {
  ParseResult p = parse_case(
      "slicefuzz-case 1\ndtype int8\ninput x [4, 3]\n"
      "a = slice_copy(x, dim=-2, start=-3, end=None, step=2)\n"
      "b = slice_copy(a, dim=2, start=0, end=1, step=1)\noutput a\n");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.info.values[1].sizes, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(p.info.failing_op, 1);
  EXPECT_NE(p.info.failing_reason.find("dim 2"), std::string::npos) << p.info.failing_reason;
  ParseResult big = parse_case("slicefuzz-case 1\ndtype int8\ninput x [4611686018427387904, "
                               "4611686018427387904, 0]\noutput x\n");
  EXPECT_FALSE(big.ok);
  EXPECT_NE(big.error.find("<input>:3:"), std::string::npos) << big.error;
}

// check_plan's own lifetimes: a plan that puts two co-live tensors on the same
// bytes, or ends a lifetime before the program's last use, is a violation.
TEST(JudgePlanCheck, LifetimesComeFromTheProgramNotThePlan) {
  ParseResult p = parse_case("slicefuzz-case 1\ndtype float32\ninput x [4]\n"
                             "a = clone(x)\nb = clone(x)\noutput a, b\n");
  ASSERT_TRUE(p.ok) << p.error;
  RewritePlan rw;
  rw.root = {0, 1, 2};
  rw.delta_bytes = {0, 0, 0};
  MemoryPlan plan;
  plan.arena_bytes = 48;
  plan.end_step = 3;
  plan.tensors = {{0, 0, 0, 16, 0, 2, 2}, {1, 1, 16, 16, 1, 3, 3}, {2, 2, 32, 16, 2, 3, 3}};
  EXPECT_EQ(check_plan(p.c, p.info, rw, plan), "");
  plan.tensors[2].offset = 16;  // b on a's bytes while a is still an output
  EXPECT_NE(check_plan(p.c, p.info, rw, plan).find("overlap in bytes"), std::string::npos);
  plan.tensors[2].offset = 32;
  plan.tensors[0].last_step = 1;  // x is read by op 1 (step 2)
  EXPECT_NE(check_plan(p.c, p.info, rw, plan).find("'x' is used at steps 0..2"), std::string::npos)
      << check_plan(p.c, p.info, rw, plan);
  plan.tensors[0].last_step = 2;
  plan.arena_bytes = 64;
  plan.tensors[2].offset = 40;  // misaligned
  EXPECT_NE(check_plan(p.c, p.info, rw, plan).find("not aligned"), std::string::npos);
}

// ---------------------------------------------------------------- judge_layouts

using judge::Layout;
using V = std::vector<int64_t>;
using O = std::vector<int>;

Op op_of(OpKind kind) {
  Op op;
  op.kind = kind;
  op.src = "x";
  op.result = "y";
  return op;
}
Op select_op(int64_t dim, int64_t index) {
  Op op = op_of(OpKind::SelectCopy);
  op.dim = dim;
  op.index = index;
  return op;
}
Op squeeze_op(V dims) {
  Op op = op_of(OpKind::SqueezeCopy);
  op.ints = std::move(dims);
  return op;
}
Op unsqueeze_op(int64_t dim) {
  Op op = op_of(OpKind::UnsqueezeCopy);
  op.dim = dim;
  return op;
}
Op view_op(V sizes) {
  Op op = op_of(OpKind::ViewCopy);
  op.ints = std::move(sizes);
  return op;
}
Op clone_op(std::optional<O> order) {
  Op op = op_of(OpKind::Clone);
  op.dim_order = std::move(order);
  return op;
}
Op slice_op(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  Op op = op_of(OpKind::SliceCopy);
  op.dim = dim;
  op.start = start;
  op.end = end;
  op.step = step;
  return op;
}

std::string error_of(const Op& op, const Layout& in) { return judge::op_result(op, in).error; }
Layout layout_of(const Op& op, const Layout& in) {
  judge::OpOutcome r = judge::op_result(op, in);
  EXPECT_EQ(r.error, "") << print_op(op);
  return r.layout;
}
// torch's view over a fresh tensor of `in`'s layout.
judge::StridedView view_of(const Op& op, const Layout& in) {
  const auto v = judge::op_view(op, judge::StridedView{in.sizes, judge::strides_for(in.sizes, in.dim_order), 0});
  EXPECT_TRUE(v.has_value()) << print_op(op);
  return v.value_or(judge::StridedView{});
}

const Layout kContiguous{{2, 3, 4}, {0, 1, 2}};
const Layout kChannelsLast{{2, 3, 4, 5}, {0, 2, 3, 1}};  // strides [60, 1, 15, 3]

TEST(JudgeLayouts, ErrorsOfEveryOp) {
  // select_copy: rank 0, dim, index in [-size, size) (torch 1.13 and ExecuTorch).
  EXPECT_NE(error_of(select_op(0, 0), Layout{{}, {}}), "");
  EXPECT_NE(error_of(select_op(3, 0), kContiguous), "");
  EXPECT_NE(error_of(select_op(-4, 0), kContiguous), "");
  EXPECT_EQ(error_of(select_op(1, -3), kContiguous), "");
  EXPECT_NE(error_of(select_op(1, -4), kContiguous), "");
  EXPECT_NE(error_of(select_op(1, 3), kContiguous), "");
  EXPECT_NE(error_of(select_op(1, INT64_MIN), kContiguous), "");
  EXPECT_NE(error_of(select_op(INT64_MAX, 0), kContiguous), "");
  EXPECT_NE(error_of(select_op(0, 0), Layout{{0, 3}, {0, 1}}), "");  // nothing to select
  // squeeze_copy: dims in range (a 0-dim tensor takes 0 and -1), none twice.
  EXPECT_EQ(error_of(squeeze_op({0}), Layout{{}, {}}), "");
  EXPECT_EQ(error_of(squeeze_op({-1}), Layout{{}, {}}), "");
  EXPECT_NE(error_of(squeeze_op({1}), Layout{{}, {}}), "");
  EXPECT_NE(error_of(squeeze_op({0, -1}), Layout{{}, {}}), "");  // the same dim twice
  EXPECT_NE(error_of(squeeze_op({1, -2}), kContiguous), "");
  EXPECT_NE(error_of(squeeze_op({3}), kContiguous), "");
  EXPECT_NE(error_of(squeeze_op({INT64_MIN}), kContiguous), "");
  EXPECT_EQ(error_of(squeeze_op({0, 1, 2}), kContiguous), "");  // sizes > 1: no-ops, no error
  // unsqueeze_copy: dim in [-(r+1), r], result rank at most 16.
  EXPECT_EQ(error_of(unsqueeze_op(3), kContiguous), "");
  EXPECT_EQ(error_of(unsqueeze_op(-4), kContiguous), "");
  EXPECT_NE(error_of(unsqueeze_op(4), kContiguous), "");
  EXPECT_NE(error_of(unsqueeze_op(-5), kContiguous), "");
  EXPECT_NE(error_of(unsqueeze_op(0), Layout{V(16, 1), judge::identity_order(16)}), "");
  EXPECT_EQ(error_of(unsqueeze_op(0), Layout{V(15, 1), judge::identity_order(15)}), "");
  EXPECT_EQ(error_of(unsqueeze_op(-1), Layout{{}, {}}), "");
  // view_copy: one -1, no size below -1, no -1 beside a 0, the count kept, rank <= 16.
  EXPECT_EQ(error_of(view_op({4, -1}), kContiguous), "");
  EXPECT_NE(error_of(view_op({-1, -1}), kContiguous), "");
  EXPECT_NE(error_of(view_op({-2, -12}), kContiguous), "");
  EXPECT_NE(error_of(view_op({5, -1}), kContiguous), "");
  EXPECT_NE(error_of(view_op({25}), kContiguous), "");
  EXPECT_NE(error_of(view_op({0, -1}), Layout{{2, 0}, {0, 1}}), "");
  EXPECT_EQ(error_of(view_op({0, 5}), Layout{{2, 0}, {0, 1}}), "");
  EXPECT_NE(error_of(view_op(V(17, 1)), Layout{{1}, {0}}), "");
  // Products past int64 (found as a judge_layouts bug: the saturated product was
  // narrowed to int64 for the remainder, a division by zero).
  EXPECT_NE(error_of(view_op({int64_t{1} << 40, int64_t{1} << 40, -1}), kContiguous), "");
  EXPECT_NE(error_of(view_op({3, 6148914691236517206}), Layout{{2}, {0}}), "");
  EXPECT_NE(error_of(view_op({INT64_MAX, INT64_MAX, INT64_MAX}), kContiguous), "");
  // clone(dim_order=P): P a permutation of the dims.
  EXPECT_EQ(error_of(clone_op(O{2, 0, 1}), kContiguous), "");
  EXPECT_NE(error_of(clone_op(O{0, 1}), kContiguous), "");
  EXPECT_NE(error_of(clone_op(O{0, 0, 1}), kContiguous), "");
  EXPECT_NE(error_of(clone_op(O{0, 1, 3}), kContiguous), "");
  EXPECT_EQ(error_of(clone_op(O{}), Layout{{}, {}}), "");
}

TEST(JudgeLayouts, ViewSizesInferTheMinusOne) {
  std::string why;
  EXPECT_EQ(judge::view_sizes(24, {2, -1, 3}, why), (V{2, 4, 3}));
  EXPECT_EQ(judge::view_sizes(0, {5, -1}, why), (V{5, 0}));  // torch: 0 / 5
  EXPECT_EQ(judge::view_sizes(0, {int64_t{1} << 62, -1}, why), (V{int64_t{1} << 62, 0}));
  EXPECT_EQ(judge::view_sizes(1, {}, why), (V{}));
  EXPECT_EQ(judge::view_sizes(1, {-1}, why), (V{1}));
  EXPECT_EQ(judge::view_sizes(0, {int64_t{1} << 40, int64_t{1} << 40, -1}, why),
            (V{int64_t{1} << 40, int64_t{1} << 40, 0}));  // the analysis' byte span refuses it
  EXPECT_EQ(judge::view_sizes(24, {INT64_MAX, -1}, why), std::nullopt);
  EXPECT_NE(why, "");
}

TEST(JudgeLayouts, ResultDimOrders) {
  // slice_copy and clone keep the source's order; clone(dim_order=P) takes P.
  EXPECT_EQ(layout_of(slice_op(1, 0, 2, 1), kChannelsLast).dim_order, (O{0, 2, 3, 1}));
  EXPECT_EQ(layout_of(clone_op(std::nullopt), kChannelsLast).dim_order, (O{0, 2, 3, 1}));
  EXPECT_EQ(layout_of(clone_op(O{3, 1, 0, 2}), kChannelsLast).dim_order, (O{3, 1, 0, 2}));
  // select_copy: the dim leaves the order, later dims renumbered.
  Layout l = layout_of(select_op(1, 2), kChannelsLast);
  EXPECT_EQ(l.sizes, (V{2, 4, 5}));
  EXPECT_EQ(l.dim_order, (O{0, 1, 2}));
  l = layout_of(select_op(-1, 0), kChannelsLast);
  EXPECT_EQ(l.sizes, (V{2, 3, 4}));
  EXPECT_EQ(l.dim_order, (O{0, 2, 1}));
  l = layout_of(select_op(0, 1), Layout{{3}, {0}});
  EXPECT_EQ(l.sizes, (V{}));
  EXPECT_EQ(l.dim_order, (O{}));
  // squeeze_copy: listed dims of size 1 leave the order; listed dims of size > 1 stay.
  const Layout nchw1{{4, 1, 3, 1}, {0, 2, 3, 1}};
  l = layout_of(squeeze_op({1, 3}), nchw1);
  EXPECT_EQ(l.sizes, (V{4, 3}));
  EXPECT_EQ(l.dim_order, (O{0, 1}));
  l = layout_of(squeeze_op({-1, 0}), nchw1);
  EXPECT_EQ(l.sizes, (V{4, 1, 3}));
  EXPECT_EQ(l.dim_order, (O{0, 2, 1}));
  l = layout_of(squeeze_op({0}), Layout{{}, {}});
  EXPECT_EQ(l.sizes, (V{}));
  // unsqueeze_copy(d): dims >= d shift up; d sits just outside the dim it precedes,
  // innermost when d == rank.
  l = layout_of(unsqueeze_op(1), kChannelsLast);
  EXPECT_EQ(l.sizes, (V{2, 1, 3, 4, 5}));
  EXPECT_EQ(l.dim_order, (O{0, 3, 4, 1, 2}));
  l = layout_of(unsqueeze_op(-1), kChannelsLast);
  EXPECT_EQ(l.sizes, (V{2, 3, 4, 5, 1}));
  EXPECT_EQ(l.dim_order, (O{0, 2, 3, 1, 4}));
  l = layout_of(unsqueeze_op(0), kChannelsLast);
  EXPECT_EQ(l.dim_order, (O{0, 1, 3, 4, 2}));
  l = layout_of(unsqueeze_op(0), Layout{{}, {}});
  EXPECT_EQ(l.sizes, (V{1}));
  EXPECT_EQ(l.dim_order, (O{0}));
  // view_copy: row-major, whatever the source's order.
  l = layout_of(view_op({6, -1}), kChannelsLast);
  EXPECT_EQ(l.sizes, (V{6, 20}));
  EXPECT_EQ(l.dim_order, (O{0, 1}));
}

// op_view: torch 1.13's views (strides and storage offsets measured with
// /usr/bin/python3 on torch 1.13: x = torch.arange(24.).reshape(2, 3, 4) etc.).
TEST(JudgeLayouts, ViewsAsTorchHasThem) {
  judge::StridedView v = view_of(select_op(1, -1), kContiguous);  // x.select(1, -1)
  EXPECT_EQ(v.sizes, (V{2, 4}));
  EXPECT_EQ(v.strides, (V{12, 1}));
  EXPECT_EQ(v.offset, 8);
  EXPECT_FALSE(judge::view_is_dense(v, layout_of(select_op(1, -1), kContiguous).dim_order));
  v = view_of(select_op(0, 1), kContiguous);
  EXPECT_EQ(v.offset, 12);
  EXPECT_TRUE(judge::view_is_dense(v, {0, 1}));
  // channels-last select of a channel: strided (stride 3 along W).
  v = view_of(select_op(1, 2), kChannelsLast);
  EXPECT_EQ(v.strides, (V{60, 15, 3}));
  EXPECT_EQ(v.offset, 2);
  EXPECT_FALSE(judge::view_is_dense(v, {0, 1, 2}));
  // ... of a batch: dense in the result's order [0, 2, 1].
  v = view_of(select_op(0, 1), kChannelsLast);
  EXPECT_EQ(v.strides, (V{1, 15, 3}));
  EXPECT_EQ(v.offset, 60);
  EXPECT_TRUE(judge::view_is_dense(v, layout_of(select_op(0, 1), kChannelsLast).dim_order));
  // squeeze keeps the other dims' strides (x = torch.zeros(2, 1, 3)).
  const Layout x213{{2, 1, 3}, {0, 1, 2}};
  v = view_of(squeeze_op({1}), x213);
  EXPECT_EQ(v.sizes, (V{2, 3}));
  EXPECT_EQ(v.strides, (V{3, 1}));
  EXPECT_EQ(v.offset, 0);
  // unsqueeze: the new dim's stride is size * stride of the dim it precedes, 1 at
  // the end (x.unsqueeze(0).stride() == (6, 3, 3, 1); unsqueeze(3): (3, 3, 1, 1)).
  v = view_of(unsqueeze_op(0), x213);
  EXPECT_EQ(v.strides, (V{6, 3, 3, 1}));
  v = view_of(unsqueeze_op(3), x213);
  EXPECT_EQ(v.strides, (V{3, 3, 1, 1}));
  v = view_of(unsqueeze_op(1), kChannelsLast);
  EXPECT_EQ(v.strides, (V{60, 3, 1, 15, 3}));
  EXPECT_TRUE(judge::view_is_dense(v, layout_of(unsqueeze_op(1), kChannelsLast).dim_order));
  // view: torch's own viewability (channels-last [2, 3, 4, 5]: view(-1) fails,
  // view(2, 3, 20) gives (60, 1, 3), view(2, 3, 4, 5, 1) gives (60, 1, 15, 3, 3)).
  EXPECT_EQ(judge::op_view(view_op({-1}),
                           judge::StridedView{kChannelsLast.sizes, {60, 1, 15, 3}, 0}),
            std::nullopt);
  v = view_of(view_op({2, 3, 20}), kChannelsLast);
  EXPECT_EQ(v.strides, (V{60, 1, 3}));
  EXPECT_FALSE(judge::view_is_dense(v, {0, 1, 2}));
  v = view_of(view_op({2, 3, 4, 5, 1}), kChannelsLast);
  EXPECT_EQ(v.strides, (V{60, 1, 15, 3, 3}));
  // x.transpose(0, 2) of a [2, 3, 4]: view(4, 3, 2, 1) -> (1, 4, 12, 12),
  // view(4, 3, 1, 2) -> (1, 4, 24, 12).
  const judge::StridedView t{{4, 3, 2}, {1, 4, 12}, 0};
  EXPECT_EQ(judge::op_view(view_op({4, 3, 2, 1}), t)->strides, (V{1, 4, 12, 12}));
  EXPECT_EQ(judge::op_view(view_op({4, 3, 1, 2}), t)->strides, (V{1, 4, 24, 12}));
  EXPECT_EQ(judge::op_view(view_op({12, 2}), t), std::nullopt);
  // A slice keeps its step on the stride of a dim it leaves one element long, as
  // torch does (x = torch.arange(10).reshape(2, 5): x[1:2:2].stride() == (10, 1)),
  // by the step torch is given (a step past the size is given as the size:
  // oracles/domain_adapter.h). copy_ between two views of one storage compares
  // whole stride lists, so x[1:].copy_(x[1:2:3]) is refused (torch 1.13 raises;
  // the judge once kept stride 5 there and accepted it: kill matrix 2026-12-02,
  // torch-fx-reinplace seed 3, an ORACLE_DISAGREEMENT).
  const judge::StridedView x25{{2, 5}, {5, 1}, 0};
  EXPECT_EQ(judge::op_view(slice_op(0, 1, 2, 2), x25)->strides, (V{10, 1}));
  EXPECT_EQ(judge::op_view(slice_op(0, 1, 2, 3), x25)->strides, (V{10, 1}));
  EXPECT_EQ(judge::op_view(slice_op(0, 1, 2, 1), x25)->strides, (V{5, 1}));
  EXPECT_EQ(judge::op_view(slice_op(1, 4, 5, 3), x25)->strides, (V{5, 3}));
  EXPECT_EQ(judge::copy_overlap(*judge::op_view(slice_op(0, 1, std::nullopt, 1), x25),
                                *judge::op_view(slice_op(0, 1, 2, 3), x25)),
            judge::CopyOverlap::TorchRefuses);
  EXPECT_EQ(judge::copy_overlap(*judge::op_view(slice_op(0, 1, std::nullopt, 1), x25),
                                *judge::op_view(slice_op(0, 1, 2, 1), x25)),
            judge::CopyOverlap::SameElements);
  // A row-major source: always viewable, row-major strides.
  v = view_of(view_op({4, -1}), kContiguous);
  EXPECT_EQ(v.sizes, (V{4, 6}));
  EXPECT_EQ(v.strides, (V{6, 1}));
  EXPECT_TRUE(judge::view_is_dense(v, {0, 1}));
  // Empty sources: torch's row-major strides (size 0 as 1), or the source's own.
  v = view_of(view_op({0, 6}), Layout{{2, 0, 3}, {0, 1, 2}});
  EXPECT_EQ(v.strides, (V{6, 1}));
  v = view_of(view_op({2, 0, 3}), Layout{{2, 0, 3}, {2, 1, 0}});
  EXPECT_EQ(v.strides, (V{1, 2, 2}));
}

TEST(JudgeAnalysis, EveryValueHasItsOwnLayout) {
  ParseResult p = parse_case(
      "slicefuzz-case 2\ndtype int16\ninput x [2, 3, 4, 5] dim_order=[0, 2, 3, 1]\n"
      "a = select_copy(x, dim=1, index=-1)\n"
      "b = unsqueeze_copy(a, dim=3)\n"
      "c = squeeze_copy(b, dims=[3, 0])\n"
      "d = clone(c, dim_order=[1, 0, 2])\n"
      "e = view_copy(d, sizes=[-1])\n"
      "f = squeeze_copy(e, dims=[0, 0])\n"
      "output e\n");
  ASSERT_TRUE(p.ok) << p.error;
  const auto& v = p.info.values;
  EXPECT_EQ(v[1].sizes, (V{2, 4, 5}));
  EXPECT_EQ(v[1].dim_order, (O{0, 1, 2}));
  EXPECT_EQ(v[2].sizes, (V{2, 4, 5, 1}));
  EXPECT_EQ(v[2].dim_order, (O{0, 1, 2, 3}));
  EXPECT_EQ(v[3].sizes, (V{2, 4, 5}));  // dim 0 has size 2: it stays
  EXPECT_EQ(v[4].dim_order, (O{1, 0, 2}));
  EXPECT_EQ(v[5].sizes, (V{40}));
  EXPECT_EQ(v[5].dtype, ScalarType::Short);
  EXPECT_EQ(p.info.failing_op, 5);
  EXPECT_NE(p.info.failing_reason.find("more than once"), std::string::npos) << p.info.failing_reason;
}

// Aliases of any kind (here et_select) lie inside their root at torch's delta.
TEST(JudgePlanCheck, AliasDeltasOfAnyKind) {
  ParseResult p = parse_case("slicefuzz-case 2\ndtype float32\ninput x [2, 3]\n"
                             "a = select_copy(x, dim=0, index=-1)\nb = clone(a)\noutput b\n");
  ASSERT_TRUE(p.ok) << p.error;
  RewritePlan rw;
  rw.root = {0, 0, 2};
  rw.delta_bytes = {0, 12, 0};
  MemoryPlan plan;
  plan.arena_bytes = 48;
  plan.end_step = 3;
  plan.tensors = {{0, 0, 0, 24, 0, 2, 1}, {1, 0, 12, 12, 1, 2, 2}, {2, 2, 32, 12, 2, 3, 3}};
  const std::vector<int64_t> torch_delta{0, 12, 0};
  EXPECT_EQ(check_plan(p.c, p.info, rw, plan, torch_delta), "");
  plan.tensors[1].offset = 0;  // the index taken as 0
  EXPECT_NE(check_plan(p.c, p.info, rw, plan, torch_delta).find("torch's view starts 12 bytes in"),
            std::string::npos);
  plan.tensors[1].offset = 16;  // past the root's end
  EXPECT_NE(check_plan(p.c, p.info, rw, plan, torch_delta).find("outside its root"), std::string::npos);
  plan.tensors[1].offset = 12;
  plan.tensors[0].last_step = 1;  // the root dies before its alias is read
  EXPECT_NE(check_plan(p.c, p.info, rw, plan, torch_delta).find("through its alias 'a'"),
            std::string::npos)
      << check_plan(p.c, p.info, rw, plan, torch_delta);
}

}  // namespace
}  // namespace slicefuzz
