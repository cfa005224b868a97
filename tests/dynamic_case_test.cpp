// Version 4 (docs/design.md section 8), step 1: symbols, constants and
// executions in the case format; concretisation; the judge's bounds by
// enumeration; each execution run as its own static case.
#include <gtest/gtest.h>

#include <algorithm>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "backends/backend.h"
#include "generators/generate.h"
#include "generators/mutator.h"
#include "harness/run/runner.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "vocab/concretise.h"
#include "test_temp_dir.h"

namespace slicefuzz {
namespace {

// A KV cache read at the live length S, a RoPE-like table (a constant) sliced at
// a runtime position, a view with -1 over the dynamic dim.
const char* const kKv =
    "slicefuzz-case 4\n"
    "dtype float32\n"
    "sym S in [1, 8]\n"
    "sym pos in [0, 8]\n"
    "input cache [2, 8, 4]\n"
    "input q [2, S, 4]\n"
    "const freqs [16, 4]\n"
    "k = slice_copy(cache, dim=1, start=0, end=S, step=1)\n"
    "f = slice_copy(freqs, dim=0, start=pos, end=pos+1, step=1)\n"
    "c = clone(q)\n"
    "add_(c, 1)\n"
    "v = view_copy(c, sizes=[-1, S])\n"
    "output k, f, v\n"
    "run S=8 pos=0\n"
    "run S=1 pos=8\n"
    "run S=3 pos=2\n";

TEST(DynamicCase, PrintsCanonicallyAndRoundTrips) {
  ParseResult p = parse_case(kKv, "kv.case");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(print_case(p.c), kKv);
  ParseResult again = parse_case(print_case(p.c), "again.case");
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_TRUE(again.c == p.c);
  ASSERT_EQ(p.c.syms.size(), 2u);
  EXPECT_EQ(p.c.inputs[1].sym_sizes, (std::vector<int>{-1, 0, -1}));
  EXPECT_EQ(p.c.inputs[1].sizes, (std::vector<int64_t>{2, 8, 4}));  // the bound
  EXPECT_TRUE(p.c.inputs[2].constant);
  ASSERT_NE(p.c.ops[1].sym_at(ArgSlot::End), nullptr);
  EXPECT_EQ(p.c.ops[1].sym_at(ArgSlot::End)->add, 1);
  EXPECT_EQ(p.c.ops[4].sym_at(ArgSlot::Ints, 1)->sym, 0);
  EXPECT_EQ(p.c.runs.size(), 3u);
  // A symbol differs from a literal: the same text with `end=8` is another case.
  ParseResult literal = parse_case(std::string(kKv).replace(std::string(kKv).find("end=S"), 5, "end=8"));
  ASSERT_TRUE(literal.ok) << literal.error;
  EXPECT_FALSE(literal.c == p.c);
}

TEST(DynamicCase, ConcretisePutsEachValueInPlace) {
  ParseResult p = parse_case(kKv, "kv.case");
  ASSERT_TRUE(p.ok) << p.error;
  Case one;
  std::string why;
  ASSERT_TRUE(concretise(p.c, {3, 2}, one, why)) << why;
  EXPECT_FALSE(one.is_dynamic());
  EXPECT_EQ(one.inputs[1].sizes, (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(one.ops[0].end, std::optional<int64_t>(3));
  EXPECT_EQ(one.ops[1].start, std::optional<int64_t>(2));
  EXPECT_EQ(one.ops[1].end, std::optional<int64_t>(3));
  EXPECT_EQ(one.ops[4].ints, (std::vector<int64_t>{-1, 3}));
  EXPECT_EQ(one.version, 4);  // it keeps a constant
  // A sum past int64 is refused, not wrapped.
  const std::string near_max =
      "slicefuzz-case 4\ndtype int8\nsym p in [0, 1]\ninput x [4]\n"
      "y = slice_copy(x, dim=0, start=p+9223372036854775806, end=None, step=1)\noutput y\nrun p=1\n";
  ParseResult q = parse_case(near_max, "near_max.case");
  ASSERT_TRUE(q.ok) << q.error;  // p=0 and p=1 fit
  EXPECT_TRUE(concretise(q.c, {1}, one, why));
  EXPECT_FALSE(concretise(q.c, {2}, one, why));
  EXPECT_NE(why.find("int64"), std::string::npos) << why;
  // ... and the judge refuses a case whose ranges reach it.
  ParseResult over = parse_case(
      std::string(near_max).replace(near_max.find("[0, 1]"), 6, "[0, 4]"), "over.case");
  EXPECT_FALSE(over.ok);
  EXPECT_NE(over.error.find("at p=2"), std::string::npos) << over.error;
}

TEST(DynamicCase, TheJudgeBoundsEveryValueOverEveryAssignment) {
  ParseResult p = parse_case(kKv, "kv.case");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.dynamic.assignments, 8 * 9);
  using V = std::vector<int64_t>;
  const auto& b = p.dynamic.bound_sizes;
  ASSERT_EQ(b.size(), 7u);                // cache q freqs k f c v
  EXPECT_EQ(b[1], (V{2, 8, 4}));          // q at its bound
  EXPECT_EQ(b[3], (V{2, 8, 4}));          // k = cache[:, :S]
  EXPECT_EQ(b[4], (V{1, 4}));             // f: one row at every pos (pos=8+1 <= 16)
  EXPECT_EQ(b[6], (V{8, 8}));             // v = view(c, -1, S): 8S elements as [8, S]
  ASSERT_EQ(p.dynamic.runs.size(), 3u);
  EXPECT_EQ(p.dynamic.runs[1].info.values[3].sizes, (V{2, 1, 4}));
  // Not monotone in the symbol: the largest slice is in the middle of the range.
  ParseResult mid = parse_case(
      "slicefuzz-case 4\ndtype int8\nsym p in [0, 10]\ninput x [10]\n"
      "y = slice_copy(x, dim=0, start=p-5, end=p, step=1)\noutput y\nrun p=0\n",
      "mid.case");
  ASSERT_TRUE(mid.ok) << mid.error;
  // p=0: x[-5:0] is empty; p=5: x[0:5]; p=10: x[5:10]; never more than 5.
  EXPECT_EQ(mid.dynamic.bound_sizes[1], (V{5}));
  EXPECT_EQ(mid.dynamic.runs[0].info.values[1].sizes, (V{0}));
}

struct Bad {
  const char* body;  // after "slicefuzz-case 4\ndtype float32\n"
  int line;
  const char* expected;
};

TEST(DynamicCase, MalformedCasesNameTheLine) {
  const Bad cases[] = {
      {"sym S in [1, 8]\ninput x [S]\noutput x\n", 5, "at least one 'run"},
      {"sym S in [1, 8]\ninput x [S]\noutput x\nrun\n", 6, "no value to symbol 'S'"},
      {"sym S in [1, 8]\ninput x [S]\noutput x\nrun S=1 S=2\n", 6, "given twice"},
      {"sym S in [1, 8]\ninput x [S]\noutput x\nrun T=1\n", 6, "'T' is not a declared symbol"},
      {"sym S in [8, 1]\ninput x [S]\noutput x\nrun S=1\n", 3, "0 <= LO <= HI"},
      {"sym S in [1, 8]\nsym S in [1, 2]\ninput x [S]\noutput x\nrun S=1\n", 4, "declared twice"},
      {"input x [S]\noutput x\n", 3, "'S' is not a declared symbol"},
      {"sym S in [1, 8]\ninput x [S+1]\noutput x\nrun S=1\n", 4, "a symbol alone"},
      {"sym S in [1, 8]\ninput x [8]\ny = slice_copy(x, dim=S, start=0, end=1, step=1)\noutput y\nrun S=1\n",
       5, "expected an integer for dim"},
      {"sym S in [1, 8]\ninput x [8]\ny = slice_copy(x, dim=0, start=0, end=S+, step=1)\noutput y\nrun S=1\n",
       5, "non-negative integer after 'S+'"},
      {"sym S in [1, 8]\ninput x [8]\noutput x\nrun S=1\ny = clone(x)\n", 7, "nothing but 'run' lines"},
      {"input x [8]\nconst w [4]\nadd_(w, 1)\noutput x\n", 5, "'w' is a constant"},
      {"input x [8]\nconst w [4]\nv = slice(w, dim=0, start=1, end=None, step=1)\ncopy_(v, v)\noutput x\n",
       6, "a view of constant 'w'"},
      {"sym x in [1, 8]\ninput x [x]\noutput x\nrun x=1\n", 3, "also names a tensor"},
      {"sym S in [0, 100]\nsym T in [0, 100]\ninput x [S, T]\noutput x\nrun S=1 T=1\n", 3,
       "allow 10201 assignments"},
      {"sym S in [0, 8]\nconst w [S]\noutput w\nrun S=1\n", 4, "a constant's sizes are static"},
      // Found by fuzz_program (an 8 GiB allocation at the bounds, every execution
      // empty): a value's rank may not depend on a symbol ...
      {"sym S in [1, 4]\ninput x [S, 0, 3]\nt = squeeze_copy(x, dims=[0])\noutput t\nrun S=1\n", 3,
       "rank may not depend on a symbol"},
      // ... and the bytes at the bounds, each dim's largest from another assignment
      // ([1, 8192] at S=1, [4096, 2] at S=4096: [4096, 8192]), count against the budget.
      {"sym S in [1, 4096]\ninput x [8192]\nz = view_copy(x, sizes=[S, -1])\nw = clone(z)\noutput w\nrun S=2\n",
       3, "at their bounds the case's tensors take more than the byte budget"},
  };
  for (const Bad& b : cases) {
    const std::string text = std::string("slicefuzz-case 4\ndtype float32\n") + b.body;
    ParseResult p = parse_case(text, "f.case");
    EXPECT_FALSE(p.ok) << text;
    EXPECT_NE(p.error.find("f.case:" + std::to_string(b.line) + ":"), std::string::npos)
        << p.error << "\n" << text;
    EXPECT_NE(p.error.find(b.expected), std::string::npos) << p.error << "\n" << text;
  }
  // Version-4 words need the version-4 header; older files keep their meaning.
  ParseResult v3 = parse_case("slicefuzz-case 3\ndtype float32\nsym S in [1, 2]\ninput x [S]\noutput x\nrun S=1\n", "f.case");
  EXPECT_FALSE(v3.ok);
  EXPECT_NE(v3.error.find("needs the header 'slicefuzz-case 4'"), std::string::npos) << v3.error;
  ParseResult names = parse_case(
      "slicefuzz-case 2\ndtype float32\ninput x [2]\nrun = clone(x)\nconst = clone(run)\noutput const\n", "f.case");
  EXPECT_TRUE(names.ok) << names.error;
}

// Each execution runs as a static case: a bug of the system under test that
// shows only at a negative end (faulty-negative-end) is found at the execution
// that makes one, and the finding says which.
TEST(DynamicCase, EachExecutionIsJudgedAndAFindingNamesIt) {
  const std::string text =
      "slicefuzz-case 4\ndtype int32\nsym p in [0, 4]\ninput x [6]\n"
      "y = slice_copy(x, dim=0, start=0, end=p-3, step=1)\noutput y\nrun p=4\nrun p=1\n";
  ParseResult p = parse_case(text, "neg.case");
  ASSERT_TRUE(p.ok) << p.error;
  const Backend* faulty = find_backend("faulty-negative-end");
  ASSERT_NE(faulty, nullptr);
  CaseReport r = run_case(p.c, p.info, *faulty, RunOptions{});
  ASSERT_NE(r.first_failure(), nullptr);
  EXPECT_EQ(r.first_failure()->execution, 1);
  EXPECT_NE(r.first_failure()->message.find("execution 2 (p=1)"), std::string::npos)
      << r.first_failure()->message;
  EXPECT_EQ(r.slices, 1);  // one per program: the rewrite is decided once for every execution
  EXPECT_EQ(run_case(p.c, p.info, *find_backend("reference"), RunOptions{}).first_failure(), nullptr);
  // Only the first execution: no negative end, nothing to find.
  ParseResult first_only = parse_case(text.substr(0, text.find("run p=1")), "neg1.case");
  ASSERT_TRUE(first_only.ok) << first_only.error;
  EXPECT_EQ(run_case(first_only.c, first_only.info, *faulty, RunOptions{}).first_failure(), nullptr);
  // p sizes no input: a value outside its range could be refused by no input
  // check, so the file is malformed.
  ParseResult outside = parse_case(text + "run p=5\n", "outside.case");
  EXPECT_FALSE(outside.ok);
  EXPECT_NE(outside.error.find("outside.case:9: 'p' sizes no input"), std::string::npos) << outside.error;
}

// An input past its bound in one dim, within it in element count: refused where
// the inputs are set (the reference's per-dim check), accepted by a check of the
// element count alone (pytorch/executorch issue 20546, faulty-input-numel-only);
// the next execution runs either way.
TEST(DynamicCase, AnInputPastItsBoundInOneDimIsRefusedAtSetInput) {
  const std::string text =
      "slicefuzz-case 4\ndtype float32\nsym S in [1, 4]\nsym T in [1, 4]\ninput x [S, T]\n"
      "y = slice_copy(x, dim=0, start=0, end=1, step=1)\nz = clone(y)\noutput z\n"
      "run S=4 T=4\nrun S=2 T=8\nrun S=1 T=3\n";
  ParseResult p = parse_case(text, "past.case");
  ASSERT_TRUE(p.ok) << p.error;
  ASSERT_EQ(p.dynamic.runs.size(), 3u);
  EXPECT_FALSE(p.dynamic.runs[1].in_range);
  CaseReport ok = run_case(p.c, p.info, *find_backend("reference"), RunOptions{});
  EXPECT_EQ(ok.first_failure(), nullptr);
  EXPECT_EQ(ok.executions, 3);
  CaseReport bad = run_case(p.c, p.info, *find_backend("faulty-input-numel-only"), RunOptions{});
  ASSERT_NE(bad.first_failure(), nullptr);
  EXPECT_EQ(bad.first_failure()->kind, FindingKind::ERROR_MISMATCH);
  EXPECT_EQ(bad.first_failure()->path, FindingPath::Inputs);
  EXPECT_EQ(bad.first_failure()->rule, BrokenRule(InputRule::DimPastBound));
  EXPECT_EQ(bad.first_failure()->execution, 1);
  // Past the bound in element count too: both refuse it.
  ParseResult more = parse_case(
      std::string(text).replace(text.find("run S=2 T=8"), 11, "run S=4 T=8"), "more.case");
  ASSERT_TRUE(more.ok) << more.error;
  EXPECT_EQ(run_case(more.c, more.info, *find_backend("faulty-input-numel-only"), RunOptions{}).first_failure(),
            nullptr);
}

// The copy path allocates every tensor at its bound (DYNAMIC_BOUND): a kernel
// that never resizes its out (pytorch/executorch PR 22411's class,
// faulty-out-not-resized) is right at the bound and caught below it.
TEST(DynamicCase, AKernelThatNeverResizesIsCaughtBelowTheBoundOnly) {
  const std::string at_bound =
      "slicefuzz-case 4\ndtype int32\nsym S in [1, 8]\ninput x [8, 4]\n"
      "y = slice_copy(x, dim=0, start=0, end=S, step=1)\nz = clone(y)\noutput z\nrun S=8\n";
  const Backend* faulty = find_backend("faulty-out-not-resized");
  ASSERT_NE(faulty, nullptr);
  ParseResult p = parse_case(at_bound, "at_bound.case");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(run_case(p.c, p.info, *faulty, RunOptions{}).first_failure(), nullptr);
  ParseResult below = parse_case(at_bound + "run S=3\n", "below.case");
  ASSERT_TRUE(below.ok) << below.error;
  CaseReport r = run_case(below.c, below.info, *faulty, RunOptions{});
  ASSERT_NE(r.first_failure(), nullptr);
  EXPECT_EQ(r.first_failure()->kind, FindingKind::VALUE_MISMATCH);
  EXPECT_EQ(r.first_failure()->path, FindingPath::Copy);
  EXPECT_EQ(r.first_failure()->execution, 1);
  EXPECT_NE(r.first_failure()->message.find("sizes [3, 4] expected, got [8, 4]"), std::string::npos)
      << r.first_failure()->message;
  // The same execution as a static case (each tensor exactly its size): invisible.
  Case s3;
  std::string why;
  ASSERT_TRUE(concretise(below.c, {3}, s3, why)) << why;
  ParseResult st = parse_case(print_case(s3), "static.case");
  ASSERT_TRUE(st.ok) << st.error;
  EXPECT_EQ(run_case(st.c, st.info, *faulty, RunOptions{}).first_failure(), nullptr);
  EXPECT_EQ(run_case(below.c, below.info, *find_backend("reference"), RunOptions{}).first_failure(), nullptr);
}

// --format-version 4: a share of the copy-semantics cases get symbols, a share
// version 4's own ops; every other case is, byte for byte, the version-3 case of
// the same key.
TEST(DynamicCase, GeneratedVersion4CasesAreWellFormedAndTheRestUnchanged) {
  int dynamic = 0, runtime_integers = 0, dynamic_dims = 0, past_the_bound = 0;
  constexpr int kCases = 400;
  for (int i = 0; i < kCases; ++i) {
    const Case v3 = generate_case(11, i, false, 3);
    const Case v4 = generate_case(11, i, false, 4);
    if (!v4.is_dynamic()) {
      // Or it got one of version 4's own ops (permute_copy), from a stream of its own.
      bool newer_op = false;
      for (const Op& op : v4.ops) newer_op = newer_op || op_kind_info(op.kind).min_version > 3;
      if (!newer_op) EXPECT_EQ(print_case(v4), print_case(v3)) << "case " << i;
      continue;
    }
    ++dynamic;
    const std::string text = print_case(v4);
    ParseResult p = parse_case(text, "gen.case");
    ASSERT_TRUE(p.ok) << p.error << "\n" << text;
    EXPECT_EQ(print_case(p.c), text);
    ASSERT_FALSE(v4.runs.empty());
    for (size_t k = 0; k < v4.syms.size(); ++k) EXPECT_EQ(v4.runs[0].values[k], v4.syms[k].hi) << text;
    // Past the bound only in one dim, within it in element count (the input
    // check's test); every other execution within the ranges.
    for (const ExecutionInfo& e : p.dynamic.runs) past_the_bound += !e.in_range;
    for (const InputDecl& in : v4.inputs) dynamic_dims += in.is_dynamic();
    for (const Op& op : v4.ops) runtime_integers += !op.sym_args.empty();
  }
  EXPECT_GT(dynamic, kCases / 10);
  EXPECT_LT(dynamic, kCases / 2);
  EXPECT_GT(dynamic_dims, 0);
  EXPECT_GT(runtime_integers, 0);
  EXPECT_GT(past_the_bound, 0);
}

// The fuzzer's mutators edit the parsed case without knowing its symbols: every
// mutant of a dynamic seed must print (and then parse, or be refused with a
// message). fuzz_program found the printer reading past sym_sizes after a
// mutant changed an input's rank (an ASan report inside the custom mutator).
TEST(DynamicCase, MutantsOfDynamicSeedsPrintAndParse) {
  namespace fs = std::filesystem;
  int parsed = 0, refused = 0;
  for (const auto& e : fs::directory_iterator(fs::path(SLICEFUZZ_SOURCE_DIR) / "corpus/seeds/dynamic")) {
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    ParseResult seed = parse_case(text.str(), e.path().string());
    ASSERT_TRUE(seed.ok) << seed.error;
    for (uint64_t k = 0; k < 300; ++k) {
      Case c = seed.c;
      std::mt19937_64 rng(k);
      mutate_case(c, rng);
      const ParseResult p = parse_case(print_case(c), "mutant.case");
      (p.ok ? parsed : refused) += 1;
      if (!p.ok) EXPECT_NE(p.error.find("mutant.case:"), std::string::npos) << p.error;
    }
  }
  EXPECT_GT(parsed, 0);
  // A rank changed under a symbol: the dims past sym_sizes print as static.
  ParseResult p = parse_case(kKv, "kv.case");
  ASSERT_TRUE(p.ok) << p.error;
  p.c.inputs[1].sizes.push_back(5);
  EXPECT_NE(print_case(p.c).find("input q [2, S, 4, 5]"), std::string::npos) << print_case(p.c);
}

std::string cli(const std::string& args, int& status) {
  std::string out;
  FILE* p = popen((std::string(SLICEFUZZ_CLI) + " " + args + " 2>&1").c_str(), "r");
  char buf[4096];
  size_t n;
  while (p && (n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  status = p ? pclose(p) : -1;
  return out;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The CLI on version 4: run --format-version 4 finds a bound bug and writes the
// case with its symbols and a Python reproducer that runs every execution;
// export writes one (and the gtest), and refuses a Python script for an
// out-of-process backend, whose protocol carries one static program (exit 2, one
// line); minimize shrinks one.
TEST(DynamicCase, TheCliRunsFindsAndRefusesClearly) {
  namespace fs = std::filesystem;
  const fs::path dir = slicefuzz::testing::fresh_temp_subdir("dynamic_cli");
  int status = 0;
  const std::string out = cli("run --count 400 --seed 1 --format-version 4 --backend faulty-out-not-resized "
                              "--stop-at-first --no-minimize --out " + dir.string(), status);
  EXPECT_NE(status, 0) << out;
  EXPECT_NE(out.find("with symbols"), std::string::npos) << out;
  int cases = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.size() < 9 || name.substr(name.size() - 9) != ".min.case") continue;
    ++cases;
    EXPECT_NE(slurp(e.path()).find("\nsym "), std::string::npos) << name;
    const fs::path py = dir / (name.substr(0, name.size() - 9) + ".py");
    ASSERT_TRUE(fs::exists(py)) << py;
    const std::string text = slurp(py);
    EXPECT_NE(text.find("#   sym "), std::string::npos) << "the reproducer holds the case with its symbols";
    EXPECT_NE(text.find("EXECUTION = 'execution 1 ("), std::string::npos) << "every execution in order";
    EXPECT_NE(text.find("EXECUTION = 'execution 2 ("), std::string::npos);
  }
  EXPECT_GE(cases, 1);
  const fs::path kv = dir / "kv.case";
  std::ofstream(kv) << kKv;
  const std::string exported = cli("export --python " + kv.string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << exported;
  EXPECT_NE(exported.find("problems += ['%s: %s' % (EXECUTION, p) for p in replay()]"), std::string::npos)
      << "each execution replays the rewrite";
  const std::string gtest = cli("export --gtest " + kv.string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << gtest;
  EXPECT_NE(gtest.find("//   2: S="), std::string::npos) << gtest;
  const std::string refused = cli("export --python " + kv.string() + " --backend torch-fx-reinplace", status);
  EXPECT_EQ(WEXITSTATUS(status), 2) << refused;
  EXPECT_NE(refused.find("has symbols (version 4)"), std::string::npos) << refused;
  EXPECT_EQ(std::count(refused.begin(), refused.end(), '\n'), 1) << refused;
  // minimize: a passing case has nothing to shrink (exit 1, nothing written); a
  // failing one shrinks and keeps what makes it fail below the bound.
  const std::string passing = cli("minimize " + kv.string() + " -o " + (dir / "m.case").string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 1) << passing;
  EXPECT_FALSE(fs::exists(dir / "m.case"));
  const std::string minimized =
      cli("minimize " + std::string(SLICEFUZZ_SOURCE_DIR) + "/corpus/regression/slice_below_the_bound.case -o " +
              (dir / "m.case").string() + " --backend faulty-out-not-resized --time 60",
          status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << minimized;
  EXPECT_NE(slurp(dir / "m.case").find("\nsym S in ["), std::string::npos) << slurp(dir / "m.case");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace slicefuzz
