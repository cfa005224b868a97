// `explain --svg` and the text picture mark a failing rewrite: the failure label,
// the failing alias, and the strided footprint its slice really reads (gaps and
// all, not the one block the alias claims); the copy-only plan is drawn beside.
// A passing case carries no failure mark. Runs the built CLI.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include "test_temp_dir.h"

namespace {

struct Explained {
  int status = -1;
  std::string text;  // stdout
  std::string svg;
};

Explained explain(const std::string& case_name, const std::string& backend) {
  const std::string svg =
      (slicefuzz::testing::process_temp_dir() / (backend + "_" + case_name + ".svg")).string();
  std::filesystem::remove(svg);
  const std::string cmd = std::string(SLICEFUZZ_CLI) + " explain " + SLICEFUZZ_SOURCE_DIR +
                          "/corpus/seeds/" + case_name + " --backend " + backend + " --svg " +
                          svg + " 2>/dev/null";
  Explained e;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while (p && (n = fread(buf, 1, sizeof buf, p)) > 0) e.text.append(buf, n);
  const int st = p ? pclose(p) : -1;
  e.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::ifstream in(svg);
  std::stringstream ss;
  ss << in.rdbuf();
  e.svg = ss.str();
  return e;
}

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

// faulty-density-step aliases y = x[0::2] of a [6, 2] float32 x: rows 0, 2, 4
// are bytes [0, 8) [16, 24) [32, 40) of x, while the alias claims [0, 24).
TEST(ExplainPicture, FailingAliasIsMarkedWithItsStridedFootprint) {
  const Explained e = explain("rewrite_step_gaps_blocked.case", "faulty-density-step");
  EXPECT_EQ(e.status, 1);
  ASSERT_FALSE(e.svg.empty());
  EXPECT_NE(e.svg.find("<g id=\"failure\">"), std::string::npos);
  EXPECT_NE(e.svg.find("FAIL UNSOUND_REWRITE"), std::string::npos);
  EXPECT_EQ(count(e.svg, "class=\"failure-mark\""), 1u);
  EXPECT_EQ(count(e.svg, "the slice reads bytes"), 3u);  // one band per row, gaps between
  EXPECT_NE(e.svg.find("[16, 24) of its root"), std::string::npos);
  EXPECT_NE(e.svg.find("copy-only: arena"), std::string::npos);
  // The text picture says the same.
  EXPECT_NE(e.text.find("<-- FAIL"), std::string::npos);
  EXPECT_NE(e.text.find("the slice reads bytes [0, 8) [16, 24) [32, 40) of 'x' (3 runs); "
                        "the alias 'y' claims [0, 24)"),
            std::string::npos);
  EXPECT_NE(e.text.find("copy-only plan (no aliases)"), std::string::npos);
}

TEST(ExplainPicture, PassingCaseHasNoFailureMark) {
  const Explained e = explain("rewrite_step_gaps_blocked.case", "reference");
  EXPECT_EQ(e.status, 0);
  ASSERT_FALSE(e.svg.empty());
  EXPECT_EQ(e.svg.find("id=\"failure\""), std::string::npos);
  EXPECT_EQ(e.svg.find("failure-mark"), std::string::npos);
  EXPECT_EQ(e.svg.find("the slice reads bytes"), std::string::npos);
  EXPECT_NE(e.svg.find("copy-only: arena"), std::string::npos);  // always beside
  EXPECT_EQ(e.text.find("FAIL"), std::string::npos);
}

// The design's memory-regression example: the copy-only plan is smaller, and the
// picture says the rewrite grew the arena.
TEST(ExplainPicture, CopyOnlyPlanBesideShowsGrowth) {
  const Explained e = explain("rewrite_design_memory_regression.case", "reference");
  EXPECT_NE(e.svg.find("(the rewrite grew it)"), std::string::npos) << e.text;
}

}  // namespace
