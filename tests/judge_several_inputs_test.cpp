// Several inputs per case (case format version 2), on the judge's side alone
// (this test links sf_judge only): the syntax and its canonical printing, the
// file:line errors, the analysis (each input a value of its own dtype and
// layout, results of their source's dtype, copy_ between dtypes must fail, the
// byte budget over every input), the fill of each input, and the naive
// reference running such programs.
#include <gtest/gtest.h>

#include <string>

#include "oracles/analysis.h"
#include "oracles/judge_facts.h"
#include "oracles/oracle.h"
#include "oracles/values.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

constexpr const char* kTwoInputs =
    "slicefuzz-case 2\n"
    "dtype float32\n"
    "input x [2, 3] dim_order=[1, 0]\n"
    "input y [3] dtype=int8\n"
    "a = slice_copy(x, dim=1, start=1, end=None, step=1)\n"
    "b = clone(y)\n"
    "add_(b, 1)\n"
    "output a, b, y\n";

TEST(SeveralInputsFormat, ParsesEachInputWithItsOwnLayoutAndDtype) {
  const ParseResult r = parse_case(kTwoInputs, "f.case");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.c.inputs.size(), 2u);
  EXPECT_EQ(r.c.inputs[0].name, "x");
  EXPECT_EQ(r.c.inputs[0].sizes, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(r.c.inputs[0].dim_order, (std::vector<int>{1, 0}));
  EXPECT_FALSE(r.c.inputs[0].dtype.has_value());  // the `dtype` line
  EXPECT_EQ(r.c.input_dtype(0), ScalarType::Float);
  EXPECT_EQ(r.c.inputs[1].name, "y");
  EXPECT_EQ(r.c.input_dtype(1), ScalarType::Char);
  EXPECT_EQ(print_case(r.c), kTwoInputs);  // canonical: printed as written
  const ParseResult again = parse_case(print_case(r.c), "g.case");
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_EQ(again.c, r.c);
}

TEST(SeveralInputsFormat, PrinterOmitsADtypeEqualToTheDefaultAndIdentityOrders) {
  const ParseResult r = parse_case(
      "slicefuzz-case 2\ndtype int64\ninput x [2] dtype=int64 dim_order=[0]\n"
      "input y [2, 2] dtype=float16 dim_order=[0, 1]\noutput x, y\n",
      "f.case");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(print_case(r.c),
            "slicefuzz-case 2\ndtype int64\ninput x [2]\ninput y [2, 2] dtype=float16\noutput x, y\n");
  EXPECT_FALSE(r.c.inputs[0].dtype.has_value());
}

TEST(SeveralInputsFormat, VersionTwoOnlyWhereTheCaseNeedsIt) {
  Case c;
  c.inputs[0].sizes = {3};
  c.outputs = {"x"};
  EXPECT_EQ(c.min_version(), 1);
  c.inputs[0].dtype = ScalarType::Float;  // the default: still version 1
  EXPECT_EQ(c.min_version(), 1);
  EXPECT_EQ(print_case(c), "slicefuzz-case 1\ndtype float32\ninput x [3]\noutput x\n");
  c.inputs[0].dtype = ScalarType::Bool;  // one input of its own dtype
  EXPECT_EQ(c.min_version(), 2);
  EXPECT_EQ(print_case(c), "slicefuzz-case 2\ndtype float32\ninput x [3] dtype=bool\noutput x\n");
  c.inputs[0].dtype.reset();
  InputDecl y;
  y.name = "y";
  c.inputs.push_back(y);
  EXPECT_EQ(c.min_version(), 2);
  EXPECT_EQ(print_case(c), "slicefuzz-case 2\ndtype float32\ninput x [3]\ninput y []\noutput x\n");
}

TEST(SeveralInputsFormat, AValueNamedInputIsStillAnOp) {
  const ParseResult r = parse_case(
      "slicefuzz-case 2\ndtype float32\ninput x [2]\ninput = clone(x)\noutput input\n", "f.case");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.c.inputs.size(), 1u);
  EXPECT_EQ(r.c.ops.size(), 1u);
}

struct Bad {
  const char* text;
  const char* where;
  const char* expected;
};

TEST(SeveralInputsFormat, ErrorsNameTheLineAndWhatWasExpected) {
  const Bad cases[] = {
      // a per-input dtype or a second input needs the version-2 header
      {"slicefuzz-case 1\ndtype float32\ninput x [2] dtype=int8\noutput x\n", "f.case:3",
       "a dtype of its own for input 'x' needs the header 'slicefuzz-case 2'"},
      {"slicefuzz-case 1\ndtype float32\ninput x [2]\ninput y [2]\noutput x\n", "f.case:4",
       "several inputs need the header 'slicefuzz-case 2'"},
      // a bad per-input dtype
      {"slicefuzz-case 2\ndtype float32\ninput x [2]\ninput y [2] dtype=int9\noutput x\n", "f.case:4",
       "unknown dtype 'int9' for input 'y'"},
      {"slicefuzz-case 2\ndtype float32\ninput x [2] dtype\noutput x\n", "f.case:3",
       "expected '=' after dtype"},
      {"slicefuzz-case 2\ndtype float32\ninput x [2, 2] dim_order=[1, 0] dtype=int8\noutput x\n",
       "f.case:3", "dtype= comes before dim_order="},
      // a duplicate input name, at the second input's line
      {"slicefuzz-case 2\ndtype float32\ninput x [2]\ninput y [3]\ninput x [4]\noutput x\n",
       "f.case:5", "input 'x' is already defined"},
      // an op may not redefine an input
      {"slicefuzz-case 2\ndtype float32\ninput x [2]\ninput y [2]\ny = clone(x)\noutput y\n",
       "f.case:5", "'y' is already defined"},
      // inputs come first
      {"slicefuzz-case 2\ndtype float32\ninput x [2]\na = clone(x)\ninput y [2]\noutput a\n",
       "f.case:5", "input lines come before the ops"},
      // each input's own checks, at its own line
      {"slicefuzz-case 2\ndtype float32\ninput x [2]\ninput y [2, -1]\noutput x\n", "f.case:4",
       "size -1 is negative"},
      {"slicefuzz-case 2\ndtype float32\ninput x [2]\ninput y [2, 3] dim_order=[1, 1]\noutput x\n",
       "f.case:4", "permutation"},
  };
  for (const Bad& b : cases) {
    const ParseResult r = parse_case(b.text, "f.case");
    EXPECT_FALSE(r.ok) << b.text;
    EXPECT_EQ(r.error.rfind(std::string(b.where) + ": ", 0), 0u) << r.error;
    EXPECT_NE(r.error.find(b.expected), std::string::npos) << r.error;
  }
}

TEST(SeveralInputsFormat, TheByteBudgetCountsEveryInput) {
  // 16 + 16 bytes fit 32; a third input of 8 bytes does not, and its line is named.
  const char* text =
      "slicefuzz-case 2\ndtype float32\ninput x [4]\ninput y [2] dtype=float64\n"
      "input z [1] dtype=int64\noutput x\n";
  const ParseResult r = parse_case(text, "f.case", 32);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.rfind("f.case:5: input 'z' [1] takes the case's tensors over the byte budget", 0), 0u)
      << r.error;
  EXPECT_TRUE(parse_case(text, "f.case", 40).ok);
}

TEST(SeveralInputsAnalysis, InputsAreTheFirstValuesAndResultsTakeTheirSourcesDtype) {
  const ParseResult r = parse_case(kTwoInputs, "f.case");
  ASSERT_TRUE(r.ok) << r.error;
  const ProgramInfo& info = r.info;
  EXPECT_EQ(info.num_inputs, 2);
  ASSERT_EQ(info.values.size(), 4u);
  EXPECT_EQ(info.values[0].name, "x");
  EXPECT_EQ(info.values[0].def_op, -1);
  EXPECT_EQ(info.values[0].dim_order, (std::vector<int>{1, 0}));
  EXPECT_EQ(info.values[1].name, "y");
  EXPECT_EQ(info.values[1].def_op, -1);
  EXPECT_EQ(info.values[1].dtype, ScalarType::Char);
  EXPECT_EQ(info.values[2].dtype, ScalarType::Float);  // a = slice_copy(x)
  EXPECT_EQ(info.values[2].dim_order, (std::vector<int>{1, 0}));
  EXPECT_EQ(info.values[3].dtype, ScalarType::Char);   // b = clone(y)
  EXPECT_EQ(info.total_bytes, 24 + 3 + 16 + 3);
  EXPECT_EQ(info.failing_op, -1);
}

TEST(SeveralInputsAnalysis, CopyBetweenDtypesMustFailThere) {
  const ParseResult r = parse_case(
      "slicefuzz-case 2\ndtype float32\ninput x [2, 3]\ninput y [2, 3] dtype=int64\n"
      "a = clone(y)\ncopy_(a, x)\nb = clone(a)\noutput b\n",
      "f.case");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.info.failing_op, 1);
  EXPECT_EQ(r.info.failing_reason, "copy_: dtypes differ (float32 into int64; slicefuzz programs do not cast)");
  // Same dtype, other dim order: fine.
  const ParseResult ok = parse_case(
      "slicefuzz-case 2\ndtype int64\ninput x [2, 3]\ninput y [2, 3] dim_order=[1, 0]\n"
      "copy_(y, x)\noutput y\n",
      "f.case");
  ASSERT_TRUE(ok.ok) << ok.error;
  EXPECT_EQ(ok.info.failing_op, -1);
}

TEST(SeveralInputsValues, EachInputsFillStartsWhereThePreviousEnds) {
  const ParseResult r = parse_case(kTwoInputs, "f.case");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(input_fill_starts(r.info), (std::vector<int64_t>{0, 6}));
  const std::vector<TensorValue> in = make_input_values(r.info);
  ASSERT_EQ(in.size(), 2u);
  // x: float32 i + 0.5 for i = 0..5 (row-major, whatever its dim order)
  EXPECT_EQ(in[0].bytes, make_input_value(ScalarType::Float, {2, 3}).bytes);
  // y: int8 i % 251 - 125 for i = 6, 7, 8
  ASSERT_EQ(in[1].bytes.size(), 3u);
  EXPECT_EQ(static_cast<int8_t>(in[1].bytes[0]), 6 - 125);
  EXPECT_EQ(static_cast<int8_t>(in[1].bytes[2]), 8 - 125);
  // A version-1 case: input 0 from index 0, as it always was.
  const ParseResult v1 = parse_case("slicefuzz-case 1\ndtype int32\ninput x [3]\noutput x\n", "f.case");
  ASSERT_TRUE(v1.ok);
  EXPECT_EQ(make_input_values(v1.info)[0].bytes, make_input_value(ScalarType::Int, {3}).bytes);
}

TEST(SeveralInputsNaiveReference, RunsEveryInputInItsOwnDtypeAndRefusesCastingCopies) {
  const ParseResult r = parse_case(kTwoInputs, "f.case");
  ASSERT_TRUE(r.ok) << r.error;
  const PathResult p = run_naive_reference(r.c, r.info);
  ASSERT_TRUE(p.complete()) << p.error_message;
  ASSERT_EQ(p.outputs.size(), 3u);
  EXPECT_EQ(p.outputs[0].dtype, ScalarType::Float);
  EXPECT_EQ(p.outputs[0].sizes, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(p.outputs[1].dtype, ScalarType::Char);
  EXPECT_EQ(static_cast<int8_t>(p.outputs[1].bytes[0]), 6 - 125 + 1);  // b = y + 1
  EXPECT_EQ(static_cast<int8_t>(p.outputs[2].bytes[0]), 6 - 125);      // y untouched
  const ParseResult bad = parse_case(
      "slicefuzz-case 2\ndtype float32\ninput x [2]\ninput y [2] dtype=bool\ncopy_(y, x)\noutput y\n",
      "f.case");
  ASSERT_TRUE(bad.ok) << bad.error;
  const PathResult q = run_naive_reference(bad.c, bad.info);
  EXPECT_EQ(q.error_op, 0);
  EXPECT_NE(q.error_message.find("dtypes differ"), std::string::npos) << q.error_message;
}

}  // namespace
}  // namespace slicefuzz
