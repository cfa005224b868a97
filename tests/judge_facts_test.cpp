// The judge's own facts, in a test executable linked against sf_judge alone (no
// kernels, no pass, no planner, no libtorch): if any judge file called the system
// under test's code, this executable would not link. The values below come from
// DESIGN section 2 and torch 1.13, not from the kernels.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>

#include "oracles/analysis.h"
#include "oracles/judge_facts.h"
#include "oracles/plan_check.h"
#include "oracles/values.h"
#include "program/case_format.h"

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

}  // namespace
}  // namespace slicefuzz
