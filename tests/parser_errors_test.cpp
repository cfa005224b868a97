// Malformed and absurd .case files: a PARSE_ERROR naming file:line and what was
// expected, never a crash, never an allocation of a claimed size.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "test_temp_dir.h"

namespace slicefuzz {
namespace {

struct Bad {
  const char* text;
  const char* where;     // "f.case:LINE"
  const char* expected;  // substring of the message
};

constexpr const char* H = "slicefuzz-case 1\ndtype float32\n";

std::string with_header(const char* body) { return std::string(H) + body; }

TEST(ParserErrors, NameTheLineAndWhatWasExpected) {
  const Bad cases[] = {
      {"", "f.case:1", "expected the header"},
      {"slicefuzz-case 5\n", "f.case:1", "format version 5 is not supported"},
      {"slicefuzz-case 1\ndtype float33\n", "f.case:2", "unknown dtype 'float33'"},
      {"slicefuzz-case 1\ndtype float32\n", "f.case:3", "expected 'input NAME [SIZES]'"},
      {"slicefuzz-case 1\ndtype float32\ninput x [2]\n", "f.case:4", "'output NAME, ...'"},
      {"slicefuzz-case 1\ndtype float32\ninput x [2, -1]\noutput x\n", "f.case:3", "negative"},
      {"slicefuzz-case 1\ndtype float32\ninput x [2, 3] dim_order=[0, 0]\noutput x\n", "f.case:3",
       "permutation"},
      {"slicefuzz-case 1\ndtype float32\ninput x [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]\noutput x\n",
       "f.case:3", "rank 17 exceeds the maximum of 16"},
      {"slicefuzz-case 1\ndtype float32\ninput x [4]\ny = slice_copy(z, dim=0, start=0, end=1, step=1)\noutput y\n",
       "f.case:4", "'z' is not defined"},
      {"slicefuzz-case 1\ndtype float32\ninput x [4]\ny = slice_copy(x, dim=0, start=0, end=1)\noutput y\n",
       "f.case:4", "expected ',' before step="},
      {"slicefuzz-case 1\ndtype float32\ninput x [4]\ny = slice_copy(x, dim=0, end=1, start=0, step=1)\noutput y\n",
       "f.case:4", "expected 'start='"},
      {"slicefuzz-case 1\ndtype float32\ninput x [4]\ny = slice_copy(x, dim=99999999999999999999, start=0, end=1, step=1)\noutput y\n",
       "f.case:4", "outside the int64 range"},
      {"slicefuzz-case 1\ndtype float32\ninput x [4]\ny = clone(x)\ny = clone(x)\noutput y\n",
       "f.case:5", "'y' is already defined"},
      {"slicefuzz-case 1\ndtype float32\ninput x [4]\nadd_(x)\noutput x\n", "f.case:4",
       "expected ','"},
      {"slicefuzz-case 1\ndtype float32\ninput x [4]\noutput q\n", "f.case:4",
       "output 'q' is not defined"},
      {"slicefuzz-case 1\ndtype float32\ninput x [4]\noutput x\nclone(x)\n", "f.case:5",
       "nothing may follow the output line"},
      {"slicefuzz-case 1\ndtype float32\ninput x [4]\ny = view(x)\noutput y\n", "f.case:4",
       "expected slice_copy or clone"},
      {"slicefuzz-case 1\ndtype float32\ninput None [4]\noutput x\n", "f.case:3", "'None' cannot"},
      {"slicefuzz-case 1\ndtype float32\ninput x [4]\ny = clone(x)\noutput y, x, y\n", "f.case:5",
       "output 'y' is listed twice"},
  };
  for (const Bad& b : cases) {
    ParseResult r = parse_case(b.text, "f.case");
    EXPECT_FALSE(r.ok) << b.text;
    EXPECT_EQ(r.error.rfind(std::string(b.where) + ": ", 0), 0u) << r.error << "\n" << b.text;
    EXPECT_NE(r.error.find(b.expected), std::string::npos) << r.error << "\n" << b.text;
  }
}

TEST(ParserErrors, AbsurdSizesAreRejectedBeforeAnyAllocation) {
  // 2^62 elements would be 16 EiB: the budget check runs on overflow-checked
  // arithmetic, so this fails fast and allocates nothing (ASan would notice).
  ParseResult r = parse_case(with_header("input x [4611686018427387904, 4]\noutput x\n"), "f.case");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("byte budget"), std::string::npos) << r.error;
  // Overflowing products, even with a zero dim, are rejected too.
  r = parse_case(with_header("input x [9223372036854775807, 9223372036854775807, 0]\noutput x\n"),
                 "f.case");
  EXPECT_FALSE(r.ok);
  // Over the budget only through the ops' tensors.
  r = parse_case(with_header("input x [1024, 1024]\na = clone(x)\nb = clone(a)\nc = clone(b)\n"
                             "d = clone(c)\ne = clone(d)\nf = clone(e)\ng = clone(f)\n"
                             "h = clone(g)\ni = clone(h)\ni2 = clone(i)\ni3 = clone(i2)\n"
                             "i4 = clone(i3)\ni5 = clone(i4)\ni6 = clone(i5)\ni7 = clone(i6)\n"
                             "i8 = clone(i7)\noutput i8\n"),
                 "f.case");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("f.case:19"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("'i8' takes the case's tensors over the byte budget"), std::string::npos)
      << r.error;
  // A smaller budget can be asked for.
  r = parse_case(with_header("input x [64]\noutput x\n"), "f.case", 100);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(parse_case(with_header("input x [64]\noutput x\n"), "f.case", 256).ok);
}

TEST(ParserErrors, BinaryGarbageAndHugeLinesAreErrorsNotCrashes) {
  std::string garbage;
  for (int i = 0; i < 5000; ++i) garbage += static_cast<char>((i * 7919) % 256);
  EXPECT_FALSE(parse_case(garbage, "g.case").ok);
  EXPECT_FALSE(parse_case(std::string(H) + "input x [" + std::string(10000, '1') + "]\noutput x\n",
                          "g.case").ok);
  EXPECT_FALSE(parse_case(std::string("slicefuzz-case 1\0", 17), "g.case").ok);
}

TEST(ParserErrors, InvalidArgumentsAreValidProgramsThatMustFailAtTheirOp) {
  // dim out of range, step 0, rank 0, copy_ of different sizes: well-formed files
  // whose op must fail in every path (DESIGN section 2), so they parse.
  for (const char* body : {"input x [4]\ny = slice_copy(x, dim=1, start=None, end=None, step=1)\noutput y\n",
                           "input x [4]\ny = slice_copy(x, dim=0, start=None, end=None, step=0)\noutput y\n",
                           "input x []\ny = slice_copy(x, dim=0, start=None, end=None, step=1)\noutput y\n",
                           "input x [4]\ny = slice_copy(x, dim=0, start=0, end=2, step=1)\ncopy_(x, y)\noutput x\n"}) {
    ParseResult r = parse_case(with_header(body), "f.case");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_GE(r.info.failing_op, 0) << body;
  }
}

std::string run_cli(const std::string& args, int& status) {
  std::string out;
  FILE* p = popen((std::string(SLICEFUZZ_CLI) + " " + args + " 2>/dev/null").c_str(), "r");
  char buf[4096];
  size_t n;
  while (p && (n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  status = p ? pclose(p) : -1;
  return out;
}

TEST(CheckCli, GarbageAndAbsurdFilesAreFailLinesWithExitOne) {
  const std::string dir = slicefuzz::testing::fresh_temp_subdir("check_cli").string() + "/";
  std::ofstream(dir + "garbage.case") << "\x01\x02 not a case at all \xff\n";
  std::ofstream(dir + "absurd.case") << with_header("input x [4611686018427387904]\noutput x\n");
  std::ofstream(dir + "good.case") << with_header("input x [3]\ny = clone(x)\noutput y\n");
  int status = 0;
  const std::string out = run_cli("check " + dir + "garbage.case " + dir + "absurd.case " + dir +
                                      "good.case",
                                  status);
  EXPECT_EQ(WEXITSTATUS(status), 1) << out;
  EXPECT_NE(out.find("FAIL " + dir + "garbage.case PARSE_ERROR: " + dir + "garbage.case:1: "),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("FAIL " + dir + "absurd.case PARSE_ERROR: " + dir + "absurd.case:3: "),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("PASS " + dir + "good.case"), std::string::npos) << out;
  EXPECT_NE(out.find("\n1 passed, 2 failed\n"), std::string::npos) << out;
}

}  // namespace
}  // namespace slicefuzz
