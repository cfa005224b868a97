// libFuzzer executes an input a second time after every run that made more
// mallocs than frees (its cheap leak pre-check, FuzzerLoop.cpp), and runs an
// LSan pass if the second run is unbalanced too. State kept across cases
// (caches, scratch buffers) must therefore hold the same heap blocks from case
// to case once warm, or a campaign spends its executions on re-runs (issue 11:
// 8% of them, from the judge's input cache and its layout scratch). This test
// runs the benchmark corpus as fuzz_program does, warms every kept buffer with
// two passes, and requires a third pass to allocate no block it does not free.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "generators/mutator.h"
#include "harness/run/runner.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "program/poison.h"

#ifdef SLICEFUZZ_HAS_ASAN
#include <sanitizer/allocator_interface.h>

namespace slicefuzz {
namespace {

std::atomic<long long> g_mallocs{0}, g_frees{0};
void on_malloc(const volatile void*, size_t) { ++g_mallocs; }
void on_free(const volatile void*) { ++g_frees; }

std::vector<std::string> bench_cases() {
  namespace fs = std::filesystem;
  std::vector<std::string> texts;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(SLICEFUZZ_SOURCE_DIR) / "corpus/bench"))
    if (e.path().extension() == ".case") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::stringstream text;
    text << in.rdbuf();
    texts.push_back(text.str());
  }
  return texts;
}

TEST(HeapBalance, AWarmRunOfAnyBenchCaseFreesEveryBlockItAllocates) {
  const std::vector<std::string> texts = bench_cases();
  ASSERT_GE(texts.size(), 100u);
  const Backend& backend = *find_backend("reference");
  RunOptions options;
  options.byte_budget = kFuzzByteBudget;  // fuzz_program's default
  // As LLVMFuzzerTestOneInput: parse, then every path of the case.
  auto run = [&](const std::string& text) {
    ParseResult p = parse_case(text, "bench", options.byte_budget);
    if (p.ok) (void)run_case(p.c, p.info, backend, options);
  };
  for (int pass = 0; pass < 2; ++pass)
    for (const std::string& text : texts) run(text);
  ASSERT_GT(__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free), 0);
  std::vector<std::string> unbalanced;
  for (const std::string& text : texts) {
    const long long m0 = g_mallocs, f0 = g_frees;
    run(text);
    const long long kept = (g_mallocs - m0) - (g_frees - f0);
    if (kept > 0) unbalanced.push_back(std::to_string(kept) + " blocks kept by:\n" + text);
  }
  EXPECT_TRUE(unbalanced.empty()) << unbalanced.size() << " of " << texts.size()
                                  << " warm runs kept heap blocks; the first "
                                  << unbalanced.front();
}

}  // namespace
}  // namespace slicefuzz

#else
TEST(HeapBalance, NeedsAsan) { GTEST_SKIP() << "malloc hooks come with ASan"; }
#endif
