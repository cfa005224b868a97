// Exit statuses and messages of the CLI, by running the built binary: 2 for bad
// usage and I/O errors (with a message naming the problem), 1 for findings, and
// never a green exit for a typo'd path or an empty directory.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include "test_temp_dir.h"

namespace {

namespace fs = std::filesystem;

struct CliResult {
  int status = -1;     // exit status, or 128 + signal
  std::string output;  // stdout and stderr together
  std::string out;     // stdout only (when asked for)
};

// `prefix` goes before the command (a `cd DIR && ` or an environment change).
CliResult cli(const std::string& args, bool stdout_only = false, const std::string& prefix = "") {
  CliResult r;
  const std::string cmd =
      prefix + std::string(SLICEFUZZ_CLI) + " " + args + (stdout_only ? " 2>/dev/null" : " 2>&1");
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while (p && (n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int st = p ? pclose(p) : -1;
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  if (stdout_only) r.out = r.output;
  return r;
}

std::string tmpdir(const std::string& name) {
  return slicefuzz::testing::fresh_temp_subdir(name).string();
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CliExits, CheckOfAMissingFileIsAnIoErrorNotAFinding) {
  CliResult r = cli("check /nonexistent/missing.case");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("/nonexistent/missing.case: no such file or directory"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("PARSE_ERROR"), std::string::npos) << r.output;
}

TEST(CliExits, CheckOfADirectoryWithoutCasesFails) {
  const std::string d = tmpdir("empty");
  CliResult r = cli("check " + d);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("no *.case files found"), std::string::npos) << r.output;
}

TEST(CliExits, TriageWithoutArgumentsOrWithAMissingFileIsAUsageError) {
  CliResult none = cli("triage");
  EXPECT_EQ(none.status, 2) << none.output;
  EXPECT_NE(none.output.find("usage: slicefuzz triage"), std::string::npos) << none.output;
  CliResult missing = cli("triage /nonexistent/missing.case");
  EXPECT_EQ(missing.status, 2) << missing.output;
  EXPECT_NE(missing.output.find("missing.case: no such file"), std::string::npos) << missing.output;
}

TEST(CliExits, NegativeCountsNameTheBadValue) {
  const std::string d = tmpdir("negative");
  CliResult gen = cli("gen --count -1 --seed 1 --out " + d);
  EXPECT_EQ(gen.status, 2) << gen.output;
  EXPECT_NE(gen.output.find("--count must be >= 0, got -1"), std::string::npos) << gen.output;
  CliResult run = cli("run --count -1");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("--count must be at least 1, got -1"), std::string::npos) << run.output;
  CliResult word = cli("run --count many");
  EXPECT_EQ(word.status, 2) << word.output;
  EXPECT_NE(word.output.find("'many'"), std::string::npos) << word.output;
}

TEST(CliExits, RunTimeZeroIsRejected) {
  CliResult r = cli("run --time 0");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--time must be at least 1 second, got 0"), std::string::npos) << r.output;
}

TEST(CliExits, GenRequiresASeed) {
  const std::string d = tmpdir("noseed");
  CliResult r = cli("gen --count 3 --out " + d);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--seed S is required"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::is_empty(d));
}

TEST(CliExits, GenIndexWritesExactlyThatCaseOfTheSeed) {
  const std::string one = tmpdir("index_one"), all = tmpdir("index_all");
  CliResult a = cli("gen --index 41 --seed 3 --out " + one);
  ASSERT_EQ(a.status, 0) << a.output;
  CliResult b = cli("gen --count 42 --seed 3 --out " + all);
  ASSERT_EQ(b.status, 0) << b.output;
  int files = 0;
  for (const auto& e : fs::directory_iterator(one)) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
  const std::string x = read(one + "/gen-3-000041.case");
  EXPECT_FALSE(x.empty());
  EXPECT_EQ(x, read(all + "/gen-3-000041.case"));
}

TEST(CliExits, NoIsolateKeepsEveryPassLinePrintedBeforeASanitizerAbort) {
  // faulty-stride0-offset points this alias past x's bytes: clone reads poisoned
  // arena bytes and ASan aborts the (unisolated) process.
  const std::string d = tmpdir("flush");
  std::ofstream(d + "/a_good.case") << "slicefuzz-case 1\ndtype float32\ninput x [3]\ny = clone(x)\n"
                                       "output y\n";
  std::ofstream(d + "/b_crash.case")
      << "slicefuzz-case 1\ndtype float32\ninput x [1, 2]\n"
         "a = slice_copy(x, dim=1, start=-1, end=None, step=1)\nb = clone(a)\noutput b\n";
  CliResult r = cli("check --no-isolate --backend faulty-stride0-offset " + d + "/a_good.case " + d +
                        "/b_crash.case",
                    /*stdout_only=*/true);
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("PASS " + d + "/a_good.case\n"), std::string::npos) << r.out;
  // With --no-isolate no harness outlives the report to symbolize it, so ASan
  // symbolizes its own (the CLI's default symbolize=0 is for isolated workers).
  r = cli("check --no-isolate --backend faulty-stride0-offset " + d + "/b_crash.case", /*stdout_only=*/false);
  EXPECT_NE(r.output.find("ERROR: AddressSanitizer"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" in slicefuzz::"), std::string::npos) << r.output;
}

// The default list of known findings is relative to the working directory: run
// from elsewhere without --known or SLICEFUZZ_KNOWN, the verb says that none was
// loaded (every known finding would count as new); with --known it says nothing.
TEST(CliExits, OutsideTheCheckoutANoteSaysNoKnownFindingsWereLoaded) {
  const std::string d = tmpdir("known_note");
  std::ofstream(d + "/ok.case") << "slicefuzz-case 1\ndtype float32\ninput x [4]\n"
                                   "a = slice_copy(x, dim=0, start=1, end=3, step=1)\noutput a\n";
  auto run = [&](const std::string& args) { return cli(args, false, "cd " + d + " && env -u SLICEFUZZ_KNOWN "); };
  const std::string note = "slicefuzz: note: no known findings loaded";
  CliResult r = run("check ok.case");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find(note), std::string::npos) << r.output;
  fs::create_directories(d + "/known");
  r = run("check ok.case --known " + d + "/known");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find(note), std::string::npos) << r.output;
}

}  // namespace
