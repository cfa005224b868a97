#include <gtest/gtest.h>

#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

constexpr const char* kDesignExample = R"(# comment to end of line
slicefuzz-case 1
dtype float32
input x [4, 3, 8] dim_order=[0, 2, 1]
y = slice_copy(x, dim=1, start=0, end=2, step=1)
z = slice_copy(y, dim=-1, start=None, end=-3, step=2)
add_(y, 1)
c = clone(z)
copy_(c, z)
output z, c
)";

TEST(CaseFormat, ParsesTheDesignExample) {
  ParseResult r = parse_case(kDesignExample, "design.case");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.c.dtype, ScalarType::Float);
  EXPECT_EQ(r.c.inputs[0].sizes, (std::vector<int64_t>{4, 3, 8}));
  EXPECT_EQ(r.c.inputs[0].dim_order, (std::vector<int>{0, 2, 1}));
  ASSERT_EQ(r.c.ops.size(), 5u);
  EXPECT_EQ(r.c.ops[1].dim, -1);
  EXPECT_FALSE(r.c.ops[1].start.has_value());
  EXPECT_EQ(r.c.ops[1].end, -3);
  EXPECT_EQ(r.c.outputs, (std::vector<std::string>{"z", "c"}));
  EXPECT_EQ(r.info.values[2].sizes, (std::vector<int64_t>{4, 2, 3}));
  ParseResult again = parse_case(print_case(r.c));
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_EQ(again.c, r.c);
  EXPECT_EQ(print_case(again.c), print_case(r.c));
}

}  // namespace
}  // namespace slicefuzz
