// The independent eligibility (oracles/eligibility.h) on view-copy ops of every
// kind: density from torch's views, and hazards through aliases of any kind,
// given the pass's decisions (rules 1-5, DESIGN 2). No pass runs here.
#include <gtest/gtest.h>

#include "oracles/eligibility.h"
#include "oracles/oracle.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

ParseResult parsed(const std::string& body) {
  ParseResult p = parse_case("slicefuzz-case 2\ndtype float32\n" + body);
  EXPECT_TRUE(p.ok) << p.error;
  return p;
}

std::vector<EligibilityVerdict> verdicts(const ParseResult& p, const std::vector<int>& aliased) {
  const TorchOracleResult t = run_torch_oracle(p.c, p.info);
  return judge_eligibility(p.c, p.info, t.op_views, aliased);
}

TEST(Eligibility, EveryViewCopyOpGetsAVerdict) {
  const ParseResult p = parsed("input x [2, 3, 4] dim_order=[0, 2, 1]\n"
                               "a = select_copy(x, dim=0, index=1)\n"   // dense
                               "b = select_copy(x, dim=1, index=1)\n"   // strided
                               "c = view_copy(x, sizes=[-1])\n"         // torch cannot view
                               "d = unsqueeze_copy(a, dim=0)\n"
                               "e = squeeze_copy(d, dims=[0])\n"
                               "f = clone(e)\n"
                               "output f, b, c\n");
  const auto v = verdicts(p, {});
  ASSERT_EQ(v.size(), 5u);
  EXPECT_TRUE(v[0].eligible) << v[0].reason;
  EXPECT_NE(v[1].reason.find("not dense"), std::string::npos) << v[1].reason;
  EXPECT_NE(v[2].reason.find("not dense"), std::string::npos) << v[2].reason;
  EXPECT_TRUE(v[3].eligible) << v[3].reason;
  EXPECT_TRUE(v[4].eligible) << v[4].reason;
}

TEST(Eligibility, MutationThroughAnAliasOfAnyKind) {
  const ParseResult p = parsed("input x [2, 3]\n"
                               "t = clone(x)\n"
                               "y = select_copy(t, dim=0, index=1)\n"
                               "z = view_copy(y, sizes=[3, 1])\n"
                               "add_(z, 1)\n"
                               "w = clone(y)\n"
                               "output w, z\n");
  // z stays a copy: y's bytes are safe from add_(z).
  auto v = verdicts(p, {});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_TRUE(v[0].eligible) << v[0].reason;
  EXPECT_NE(v[1].reason.find("program output"), std::string::npos) << v[1].reason;
  // With z an alias of y, add_(z) writes y's bytes.
  v = verdicts(p, {2});
  EXPECT_FALSE(v[0].eligible);
  EXPECT_NE(v[0].reason.find("'z', an alias of 'y', is mutated in place by op 3"), std::string::npos)
      << v[0].reason;
}

TEST(Eligibility, RootWrittenWhileAnAliasIsRead) {
  const ParseResult p = parsed("input x [1, 4]\n"
                               "t = clone(x)\n"
                               "y = squeeze_copy(t, dims=[0])\n"
                               "z = unsqueeze_copy(y, dim=1)\n"
                               "add_(t, 1)\n"
                               "w = clone(z)\n"
                               "output w\n");
  auto v = verdicts(p, {1, 2});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_NE(v[0].reason.find("'t' is written by op 3 while 'y' is still read (through its alias 'z')"),
            std::string::npos)
      << v[0].reason;
  EXPECT_NE(v[1].reason.find("'t' is written by op 3 while 'z' is still read"), std::string::npos)
      << v[1].reason;
  // z a copy taken before the write: y may alias t.
  v = verdicts(p, {1});
  EXPECT_TRUE(v[0].eligible) << v[0].reason;
  // y a copy: z lives in y's bytes, which nobody writes.
  v = verdicts(p, {2});
  EXPECT_TRUE(v[1].eligible) << v[1].reason;
}

// Rule 5: an exported program whose metadata gives the result another layout
// than the op produces (here: row-major for a channels-last select) is no alias.
TEST(Eligibility, TheResultLayoutMustBeTheOps) {
  ParseResult p = parsed("input x [2, 3, 4, 5] dim_order=[0, 2, 3, 1]\n"
                         "a = select_copy(x, dim=0, index=1)\nb = clone(a)\noutput b\n");
  EXPECT_TRUE(verdicts(p, {})[0].eligible);
  const TorchOracleResult t = run_torch_oracle(p.c, p.info);
  p.info.values[1].dim_order = {0, 1, 2};
  const auto v = judge_eligibility(p.c, p.info, t.op_views, {});
  EXPECT_FALSE(v[0].eligible);
  EXPECT_NE(v[0].reason.find("layout"), std::string::npos) << v[0].reason;
}

}  // namespace
}  // namespace slicefuzz
