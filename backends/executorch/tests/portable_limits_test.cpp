// executorch-portable's declared limits, per op and per value layout (version 2
// values each have their own dim order): what the portable kernels' checks refuse.
#include "backends/executorch/portable_limits.h"
#include "backends/executorch/process_killers.h"

#include <fstream>

#include <gtest/gtest.h>

#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

std::string limits_of(const char* text) {
  const ParseResult r = parse_case(text);
  EXPECT_TRUE(r.ok) << r.error;
  return et_limits::portable_limits(r.c, r.info);
}

TEST(PortableLimits, ChannelsLastSliceIsInside) {
  EXPECT_EQ(limits_of("slicefuzz-case 1\ndtype float32\ninput x [1, 2, 1, 2] dim_order=[0, 2, 3, 1]\n"
                      "a = slice_copy(x, dim=1, start=None, end=None, step=2)\noutput a\n"),
            "");
}

TEST(PortableLimits, OtherDimOrdersAreOutside) {
  EXPECT_EQ(limits_of("slicefuzz-case 1\ndtype float32\ninput x [2, 3] dim_order=[1, 0]\n"
                      "a = slice_copy(x, dim=1, start=None, end=None, step=1)\noutput a\n"),
            "dim order other than contiguous and channels-last");
}

TEST(PortableLimits, BoolAddIsOutside) {
  EXPECT_EQ(limits_of("slicefuzz-case 1\ndtype bool\ninput x [2]\ny = clone(x)\nadd_(y, 1)\noutput y\n"),
            "add_ on bool (ExecuTorch's add refuses bool + int)");
}

TEST(PortableLimits, SelectOfChannelsLast5dKeepingChannelsLastIsInside) {
  EXPECT_EQ(limits_of("slicefuzz-case 2\ndtype float32\ninput x [1, 2, 2, 1, 1] dim_order=[0, 2, 3, 4, 1]\n"
                      "a = select_copy(x, dim=2, index=1)\noutput a\n"),
            "");
}

TEST(PortableLimits, SelectOfChannelsLast4dIsOutside) {
  EXPECT_EQ(limits_of("slicefuzz-case 2\ndtype float32\ninput x [2, 3, 4, 5] dim_order=[0, 2, 3, 1]\n"
                      "a = select_copy(x, dim=1, index=0)\noutput a\n"),
            "select_copy: input and result not both contiguous or both channels-last");
}

TEST(PortableLimits, SqueezeAndViewNeedTheDefaultOrder) {
  EXPECT_NE(limits_of("slicefuzz-case 2\ndtype float32\ninput x [1, 2, 1, 2] dim_order=[0, 2, 3, 1]\n"
                      "a = squeeze_copy(x, dim=0)\noutput a\n")
                .find("squeeze_copy"),
            std::string::npos);
  EXPECT_NE(limits_of("slicefuzz-case 2\ndtype float32\ninput x [1, 2, 1, 2] dim_order=[0, 2, 3, 1]\n"
                      "a = view_copy(x, sizes=[4])\noutput a\n")
                .find("view_copy"),
            std::string::npos);
  EXPECT_EQ(limits_of("slicefuzz-case 2\ndtype float32\ninput x [1, 2, 1, 2]\n"
                      "a = view_copy(x, sizes=[-1])\nb = squeeze_copy(x, dims=[0, 2])\noutput a, b\n"),
            "");
}

TEST(PortableLimits, EachValueHasItsOwnOrder) {
  // clone into a transposed order: outside (only contiguous and channels-last targets).
  EXPECT_EQ(limits_of("slicefuzz-case 2\ndtype float32\ninput x [2, 3]\n"
                      "a = clone(x, dim_order=[1, 0])\noutput a\n"),
            "clone: dim_order other than contiguous and channels-last");
  // unsqueeze of channels-last is inside; its 5-D result's order (0, 1, 3, 4, 2)
  // is neither, so slicing it is outside.
  EXPECT_EQ(limits_of("slicefuzz-case 2\ndtype float32\ninput x [1, 2, 1, 2] dim_order=[0, 2, 3, 1]\n"
                      "a = unsqueeze_copy(x, dim=0)\noutput a\n"),
            "");
  EXPECT_EQ(limits_of("slicefuzz-case 2\ndtype float32\ninput x [1, 2, 1, 2] dim_order=[0, 2, 3, 1]\n"
                      "a = unsqueeze_copy(x, dim=0)\nb = slice_copy(a, dim=0, start=None, end=None, step=1)\n"
                      "output b\n"),
            "dim order other than contiguous and channels-last");
  // copy_ from a channels-last value into a contiguous one.
  EXPECT_EQ(limits_of("slicefuzz-case 2\ndtype float32\ninput x [1, 2, 1, 2] dim_order=[0, 2, 3, 1]\n"
                      "a = clone(x, dim_order=[0, 1, 2, 3])\ncopy_(a, x)\noutput a\n"),
            "copy_: one side contiguous, the other channels-last");
}

TEST(PortableLimits, CopyBetweenDtypesIsOutsideBecauseExecuTorchCasts) {
  // Two inputs of one sizes, int8 and float32: the case language's copy_ must fail
  // there, ExecuTorch's casts.
  EXPECT_EQ(limits_of("slicefuzz-case 2\ndtype float32\ninput x [2, 3]\ninput y [2, 3] dtype=int8\n"
                      "copy_(y, x)\noutput y\n"),
            "copy_ between dtypes (ExecuTorch casts; slicefuzz programs do not)");
  // Inputs of different dtypes are otherwise inside.
  EXPECT_EQ(limits_of("slicefuzz-case 2\ndtype float32\ninput x [2, 3]\ninput y [2, 3] dtype=int8\n"
                      "a = slice_copy(y, dim=0, start=1, end=None, step=1)\nb = clone(x)\ncopy_(b, x)\n"
                      "output a, b\n"),
            "");
}

// Defect 7's predicate (process_killers.h): exactly the view_copy sizes for which
// get_view_copy_target_size divides by zero, and the signature it names is the
// one corpus/known/executorch-portable lists (fuzz_program skips only a listed one).
Case view_copy_case(std::vector<int64_t> sizes) {
  const ParseResult r = parse_case("slicefuzz-case 2\ndtype float32\ninput x [2, 3]\n"
                                   "a = view_copy(x, sizes=[6])\noutput a\n");
  EXPECT_TRUE(r.ok) << r.error;
  Case c = r.c;
  c.ops[0].ints = std::move(sizes);
  return c;
}
std::string killer_of(std::vector<int64_t> sizes) {
  const Case c = view_copy_case(std::move(sizes));
  return et_limits::process_killing_known_finding(c, ProgramInfo{});
}

TEST(ProcessKillers, ViewCopyZeroBesideMinusOne) {
  const std::string sig = killer_of({0, -1});
  EXPECT_EQ(sig, "SANITIZER:copy:get_view_copy_target_size@kernels/portable/cpu/util/copy_ops_util.cpp");
  EXPECT_EQ(killer_of({-1, 3, 0}), sig);
  // A product that wraps to 0 in size_t divides by zero too.
  EXPECT_EQ(killer_of({int64_t{1} << 32, int64_t{1} << 32, -1}), sig);
  std::ifstream f(std::string(SLICEFUZZ_SOURCE_DIR) +
                  "/corpus/known/executorch-portable/view_copy_zero_and_inferred.case");
  std::string first;
  std::getline(f, first);
  EXPECT_EQ(first, "# signature: " + sig);
}

TEST(ProcessKillers, ViewCopyWithoutTheDivisionIsRun) {
  EXPECT_EQ(killer_of({2, -1}), "");
  EXPECT_EQ(killer_of({0, 6}), "");       // no -1: no division (a plain refusal)
  EXPECT_EQ(killer_of({-1, -1, 0}), "");  // the second -1 returns false first
  EXPECT_EQ(killer_of({int64_t{1} << 32, 3, -1}), "");
}

std::string killer_of_case(const char* text) {
  const ParseResult r = parse_case(text);
  EXPECT_TRUE(r.ok) << r.error;
  return et_limits::process_killing_known_finding(r.c, r.info);
}

TEST(ProcessKillers, SqueezeDimsStillNegativeAfterOneNormalisation) {
  const std::string sig = killer_of_case(
      "slicefuzz-case 2\ndtype float32\ninput x [1, 1, 1, 1]\ny = squeeze_copy(x, dims=[3, -7])\noutput y\n");
  EXPECT_EQ(sig, "SANITIZER:copy:get_squeeze_copy_dims_out_target_size@kernels/portable/cpu/util/"
                 "copy_ops_util.cpp");
  std::ifstream f(std::string(SLICEFUZZ_SOURCE_DIR) +
                  "/corpus/known/executorch-portable/squeeze_dims_double_normalised_abort.case");
  std::string first;
  std::getline(f, first);
  EXPECT_EQ(first, "# signature: " + sig);
  // The fuzzer's find: a chain whose squeeze reads a rank-1 value.
  EXPECT_EQ(killer_of_case("slicefuzz-case 2\ndtype float32\ninput x [6]\n"
                           "c = squeeze_copy(x, dims=[0, -2])\noutput c\n"),
            sig);
}

TEST(ProcessKillers, SqueezeDimsThatExecuTorchRefusesOrRunsAreRun) {
  const char* head = "slicefuzz-case 2\ndtype float32\n";
  auto with = [&](const char* rest) { return killer_of_case((std::string(head) + rest).c_str()); };
  EXPECT_EQ(with("input x [1, 1]\ny = squeeze_copy(x, dims=[0, -1])\noutput y\n"), "");  // in range
  EXPECT_EQ(with("input x [1, 1]\ny = squeeze_copy(x, dim=-3)\noutput y\n"), "");  // .dim form
  EXPECT_EQ(with("input x [1, 1]\ny = squeeze_copy(x, dims=[0, -5])\noutput y\n"), "");  // refused
  EXPECT_EQ(with("input x []\ny = squeeze_copy(x, dims=[0, -2])\noutput y\n"), "");  // rank 0
  EXPECT_EQ(with("input x [1, 1] dim_order=[1, 0]\ny = squeeze_copy(x, dims=[0, -3])\noutput y\n"),
            "");  // not the default dim order: refused first
}

// narrow_copy with a negative dim: check_narrow_copy_args calls in.size(dim)
// with it and aborts (found again by the kill matrix's fuzz row, 2026-12-02: the
// defect was known but not declared a process killer).
TEST(ProcessKillers, NarrowNegativeDim) {
  const char* head = "slicefuzz-case 3\ndtype float32\ninput x [2, 3]\n";
  auto with = [&](const char* rest) { return killer_of_case((std::string(head) + rest).c_str()); };
  const std::string sig = with("y = narrow_copy(x, dim=-1, start=0, length=3)\noutput y\n");
  EXPECT_EQ(sig, "SANITIZER:copy:check_narrow_copy_args@kernels/portable/cpu/util/slice_util.cpp");
  std::ifstream f(std::string(SLICEFUZZ_SOURCE_DIR) +
                  "/corpus/known/executorch-portable/narrow_copy_check_args_abort_and_overflow.case");
  std::string first;
  std::getline(f, first);
  EXPECT_EQ(first, "# signature: " + sig);
  EXPECT_EQ(with("y = narrow_copy(x, dim=1, start=0, length=3)\noutput y\n"), "");    // dim as is
  EXPECT_EQ(with("y = narrow_copy(x, dim=-3, start=0, length=1)\noutput y\n"), "");   // refused
}

}  // namespace
}  // namespace slicefuzz
