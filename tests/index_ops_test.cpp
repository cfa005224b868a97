// index_copy and index_put (issue 36: the KV cache's update, which the native
// delegate's reinplace makes index_copy_ and exir's default set index_put_): the
// case format reads and writes them, symbols included; the judge's facts
// (oracles/judge_index_copy.h, judge_index_put.h) say which programs must fail,
// at the op torch fails at; libtorch 1.13 and the naive reference agree on every
// element, on hand cases of each rule and on the eager generator's programs.
#include <gtest/gtest.h>

#include "generators/generate.h"
#include "oracles/oracle.h"
#include "oracles/parse_case.h"
#include "oracles/values.h"
#include "vocab/case_format.h"
#include "vocab/concretise.h"

namespace slicefuzz {
namespace {

ParseResult parsed(const std::string& body, const char* dtype = "float32") {
  return parse_case("slicefuzz-case 2\ndtype " + std::string(dtype) + "\n" + body);
}

// Where torch, the naive reference and the analysis disagree ("" when they do
// not): the op that fails, then every output element.
std::string disagreement(const ParseResult& p) {
  const TorchOracleResult torch = run_torch_oracle(p.c, p.info);
  const PathResult naive = run_naive_reference(p.c, p.info);
  if (torch.path.error_op != p.info.failing_op || torch.path.ran_past_failure)
    return "torch failed at op " + std::to_string(torch.path.error_op) + " (" + torch.path.error_message +
           "), the analysis says " + std::to_string(p.info.failing_op) + " (" + p.info.failing_reason + ")";
  if (naive.error_op != p.info.failing_op || naive.ran_past_failure)
    return "the reference failed at op " + std::to_string(naive.error_op) + " (" + naive.error_message +
           "), the analysis says " + std::to_string(p.info.failing_op);
  if (torch.path.outputs.size() != naive.outputs.size()) return "output counts differ";
  for (size_t i = 0; i < torch.path.outputs.size(); ++i) {
    std::string why;
    if (!compare_values(torch.path.outputs[i], naive.outputs[i], why))
      return "output '" + p.c.outputs[i] + "': " + why;
  }
  return "";
}

void expect_agreement(const std::string& body, int failing_op, const char* dtype = "float32") {
  const ParseResult p = parsed(body, dtype);
  ASSERT_TRUE(p.ok) << p.error << "\n" << body;
  EXPECT_EQ(p.info.failing_op, failing_op) << p.info.failing_reason << "\n" << body;
  EXPECT_EQ(disagreement(p), "") << body;
}

TEST(IndexCopy, ParsesPrintsAndRoundTrips) {
  const std::string text =
      "slicefuzz-case 2\ndtype float32\ninput x [2, 4, 3]\n"
      "k = slice_copy(x, dim=1, start=0, end=1, step=1)\n"
      "y = index_copy(x, dim=1, index=[2], source=k)\n"
      "output y\n";
  const ParseResult p = parse_case(text);
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.c.ops[1].kind, OpKind::IndexCopy);
  EXPECT_EQ(p.c.ops[1].other, "k");
  EXPECT_EQ(p.c.ops[1].ints, std::vector<int64_t>{2});
  EXPECT_EQ(print_case(p.c), text);
  // The source must be defined before the op; the argument is named.
  const ParseResult undefined = parsed("input x [2]\ny = index_copy(x, dim=0, index=[0], source=z)\noutput y\n");
  EXPECT_FALSE(undefined.ok);
  EXPECT_NE(undefined.error.find("'z' is not defined"), std::string::npos) << undefined.error;
  const ParseResult positional = parsed("input x [2]\ny = index_copy(x, dim=0, index=[0], x)\noutput y\n");
  EXPECT_FALSE(positional.ok);
  EXPECT_NE(positional.error.find("source="), std::string::npos) << positional.error;
}

// A runtime integer is the index (a KV cache at input_pos): each execution
// writes its own row, and the judge agrees with torch at every one.
TEST(IndexCopy, ARuntimeIntegerIsTheIndex) {
  const std::string text =
      "slicefuzz-case 4\ndtype float32\nsym p in [0, 3]\ninput x [2, 4, 3]\n"
      "k = slice_copy(x, dim=1, start=0, end=1, step=1)\n"
      "y = index_copy(x, dim=1, index=[p], source=k)\n"
      "output y\nrun p=0\nrun p=3\n";
  const ParseResult p = parse_case(text);
  ASSERT_TRUE(p.ok) << p.error;
  ASSERT_EQ(p.c.ops[1].sym_args.size(), 1u);
  EXPECT_EQ(p.c.ops[1].sym_args[0].slot, ArgSlot::Ints);
  EXPECT_EQ(print_case(p.c), text);
  for (const Execution& e : p.c.runs) {
    Case at;
    std::string why;
    ASSERT_TRUE(concretise(p.c, e.values, at, why)) << why;
    EXPECT_EQ(at.ops[1].ints, std::vector<int64_t>{e.values[0]});
    const ParseResult q = parse_case(print_case(at));
    ASSERT_TRUE(q.ok) << q.error;
    EXPECT_EQ(disagreement(q), "");
  }
}

TEST(IndexCopy, TorchAndTheReferenceAgree) {
  // Along each dim of a permuted input, two rows, a repeated index (the last
  // write stays), and every dtype.
  for (const char* dtype : {"float32", "int8", "bool", "float16", "bfloat16", "int64"})
    expect_agreement("input x [3, 4, 2] dim_order=[2, 0, 1]\n"
                     "a = slice_copy(x, dim=1, start=1, end=3, step=1)\n"
                     "b = add(a, 5)\n"
                     "y = index_copy(x, dim=1, index=[3, 0], source=b)\n"
                     "c = slice_copy(x, dim=0, start=0, end=1, step=1)\n"
                     "z = index_copy(y, dim=-3, index=[2], source=c)\n"
                     "d = slice_copy(x, dim=2, start=0, end=2, step=1)\n"
                     "w = index_copy(z, dim=2, index=[1, 1], source=d)\n"
                     "output y, z, w\n",
                     -1, dtype);
  // Through eager views: the source and self are windows onto other storage.
  expect_agreement("input x [4, 3]\n"
                   "v = slice(x, dim=0, start=0, end=None, step=2)\n"
                   "s = select(x, dim=0, index=3)\n"
                   "t = slice(x, dim=0, start=1, end=2, step=1)\n"
                   "y = index_copy(v, dim=0, index=[1], source=t)\n"
                   "add_(x, 1)\n"
                   "output y, x, s\n",
                   -1);
  // 0-dim self (dim 0 or -1, index 0), a 0-dim source into a 1-dim self.
  expect_agreement("input x [3]\nz = select_copy(x, dim=0, index=1)\ns = select_copy(x, dim=0, index=2)\n"
                   "y = index_copy(z, dim=-1, index=[0], source=s)\n"
                   "w = index_copy(x, dim=0, index=[0], source=s)\n"
                   "output y, w\n",
                   -1);
  // No index, or slices of no element: any index passes, as in torch.
  expect_agreement("input x [2, 0]\na = slice_copy(x, dim=0, start=0, end=1, step=1)\n"
                   "y = index_copy(x, dim=0, index=[5], source=a)\noutput y\n",
                   -1);
  expect_agreement("input x [2, 3]\na = slice_copy(x, dim=1, start=0, end=0, step=1)\n"
                   "y = index_copy(x, dim=1, index=[], source=a)\noutput y\n",
                   -1);
}

TEST(IndexCopy, ErrorsAtTheOpTorchFailsAt) {
  const std::string k = "input x [2, 4]\nk = slice_copy(x, dim=1, start=0, end=1, step=1)\n";
  expect_agreement(k + "y = index_copy(x, dim=1, index=[-1], source=k)\noutput y\n", 1);   // negative
  expect_agreement(k + "y = index_copy(x, dim=1, index=[4], source=k)\noutput y\n", 1);    // past the end
  expect_agreement(k + "y = index_copy(x, dim=2, index=[0], source=k)\noutput y\n", 1);    // dim
  expect_agreement(k + "y = index_copy(x, dim=1, index=[0, 1], source=k)\noutput y\n", 1); // count
  expect_agreement(k + "y = index_copy(x, dim=0, index=[0], source=k)\noutput y\n", 1);    // other dims
  expect_agreement(k + "s = select_copy(k, dim=0, index=0)\n"
                       "y = index_copy(x, dim=1, index=[0], source=s)\noutput y\n", 2);     // ranks
  expect_agreement(k + "s = select_copy(k, dim=0, index=0)\nt = select_copy(s, dim=0, index=0)\n"
                       "y = index_copy(x, dim=1, index=[0], source=t)\noutput y\n", 3);     // 0-dim source
  expect_agreement("input x [3]\ns = select_copy(x, dim=0, index=0)\n"
                   "y = index_copy(x, dim=0, index=[0, 1], source=s)\noutput y\n", 1);       // 0-dim, 2 indices
  const ParseResult p = parse_case(
      "slicefuzz-case 2\ndtype float32\ninput x [2]\ninput i [2] dtype=int32\n"
      "y = index_copy(x, dim=0, index=[0, 1], source=i)\noutput y\n");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.info.failing_op, 0);  // dtypes differ: slicefuzz programs do not cast
  EXPECT_EQ(run_naive_reference(p.c, p.info).error_op, 0);
  EXPECT_EQ(run_torch_oracle(p.c, p.info).path.error_op, 0);
}

TEST(IndexPut, TorchAndTheReferenceAgree) {
  // One index tensor at each dim of a permuted input, negative indices, a
  // repeated index (the last write stays), values broadcast, every dtype.
  for (const char* dtype : {"float32", "int8", "bool", "float16", "bfloat16", "int64"})
    expect_agreement("input x [3, 4, 2] dim_order=[2, 0, 1]\n"
                     "a = slice_copy(x, dim=1, start=1, end=3, step=1)\n"
                     "b = add(a, 5)\n"
                     "y = index_put(x, dim=1, index=[-1, 0], values=b)\n"
                     "c = select_copy(b, dim=0, index=0)\n"
                     "z = index_put(y, dim=-2, index=[2, -3], values=c)\n"
                     "d = select_copy(c, dim=0, index=1)\n"
                     "w = index_put(z, dim=0, index=[1, 1], values=d)\n"
                     "e = select_copy(d, dim=0, index=1)\n"
                     "v = index_put(w, dim=2, index=[0], values=e)\n"
                     "output y, z, w, v\n",
                     -1, dtype);
  // Through eager views; no element written (any index passes).
  expect_agreement("input x [4, 3]\n"
                   "v = slice(x, dim=0, start=0, end=None, step=2)\n"
                   "t = slice(x, dim=0, start=1, end=2, step=1)\n"
                   "y = index_put(v, dim=0, index=[-2], values=t)\n"
                   "add_(x, 1)\n"
                   "e = slice_copy(x, dim=1, start=0, end=0, step=1)\n"
                   "f = select_copy(e, dim=0, index=0)\n"
                   "z = index_put(e, dim=0, index=[9], values=f)\n"
                   "output y, x, z\n",
                   -1);
}

TEST(IndexPut, ErrorsAtTheOpTorchFailsAt) {
  const std::string k = "input x [2, 4]\nk = slice_copy(x, dim=1, start=0, end=1, step=1)\n";
  expect_agreement(k + "y = index_put(x, dim=1, index=[-5], values=k)\noutput y\n", 1);    // below -size
  expect_agreement(k + "y = index_put(x, dim=1, index=[4], values=k)\noutput y\n", 1);     // past the end
  expect_agreement(k + "y = index_put(x, dim=-3, index=[0], values=k)\noutput y\n", 1);    // dim
  expect_agreement(k + "y = index_put(x, dim=1, index=[0, 1], values=x)\noutput y\n", 1);  // no broadcast
  expect_agreement(k + "u = view_copy(k, sizes=[1, 2, 1])\n"
                       "y = index_put(x, dim=1, index=[0], values=u)\noutput y\n", 2);     // more dims
  expect_agreement("input x [3]\ns = select_copy(x, dim=0, index=0)\n"
                   "y = index_put(s, dim=0, index=[0], values=s)\noutput y\n", 1);         // 0-dim self
  expect_agreement("input x [0, 3]\nr = slice_copy(x, dim=0, start=0, end=1, step=1)\n"
                   "s = select_copy(x, dim=1, index=0)\n"
                   "y = index_put(x, dim=0, index=[0], values=s)\noutput y\n", 2);         // size 0, a row written
}

// The eager generator makes index_copy and index_put (KV-cache updates, some of
// them of a viewed base with the view read after); on every program that has
// one, the three agree.
TEST(IndexCopy, GeneratedProgramsAgree) {
  int copies = 0, puts = 0, failing = 0, viewed = 0;
  for (uint64_t i = 0; i < 600; ++i) {
    const Case c = generate_case(36, i, /*eager=*/true);
    bool copy = false, put = false;
    for (const Op& op : c.ops) {
      copy = copy || op.kind == OpKind::IndexCopy;
      put = put || op.kind == OpKind::IndexPut;
    }
    if (!copy && !put) continue;
    copies += copy;
    puts += put;
    const ParseResult p = parse_case(print_case(c));
    ASSERT_TRUE(p.ok) << p.error << "\n" << print_case(c);
    auto writes = [&](int k) {
      return c.ops[k].kind == OpKind::IndexCopy || c.ops[k].kind == OpKind::IndexPut;
    };
    if (p.info.failing_op >= 0 && writes(p.info.failing_op)) ++failing;
    for (size_t k = 0; k + 1 < c.ops.size(); ++k)
      if (writes(static_cast<int>(k)) && c.ops[k + 1].kind == OpKind::AddOut) ++viewed;
    EXPECT_EQ(disagreement(p), "") << print_case(c);
  }
  std::printf("of 600 eager programs: index_copy in %d, index_put in %d; %d fail at one; %d followed by a read\n",
              copies, puts, failing, viewed);
  EXPECT_GT(copies, 30);
  EXPECT_GT(puts, 30);
  EXPECT_GT(viewed, 10);
}

}  // namespace
}  // namespace slicefuzz
