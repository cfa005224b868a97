// Every mutator keeps a dynamic case's symbols consistent (issue 37): each
// input's `sym_sizes` has one entry per dim, names a declared symbol, and a
// dynamic dim's size is its symbol's top (the bound), whatever the mutator did
// to the sizes, the rank or the inputs; a constant stays static. The mutant
// prints and parses (a mutation the dynamic analysis would refuse did not
// apply: apply_mutator undoes it), and every execution is within reach of its
// ranges (at most one past a top, which the input check refuses).
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "generators/generate.h"
#include "generators/mutator.h"
#include "oracles/parse_case.h"
#include "vocab/case_format.h"

namespace slicefuzz {
namespace {

std::vector<Case> dynamic_seeds() {
  namespace fs = std::filesystem;
  std::vector<Case> seeds;
  for (const auto& e : fs::directory_iterator(fs::path(SLICEFUZZ_SOURCE_DIR) / "corpus/seeds/dynamic")) {
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    ParseResult p = parse_case(text.str(), e.path().string());
    EXPECT_TRUE(p.ok) << p.error;
    if (p.ok) seeds.push_back(p.c);
  }
  return seeds;
}

// `runs_within_reach`: every execution at most one past a top. The generator's
// own past-the-bound execution goes further (dynamic_gen.cpp), so a case made
// dynamic is not held to it.
std::string inconsistency(const Case& c, bool runs_within_reach = true) {
  for (const InputDecl& in : c.inputs) {
    if (in.sym_sizes.empty()) continue;
    if (in.constant) return in.name + ": a constant with symbols";
    if (in.sym_sizes.size() != in.sizes.size()) return in.name + ": sym_sizes and sizes differ in length";
    for (size_t d = 0; d < in.sizes.size(); ++d) {
      const int s = in.sym_sizes[d];
      if (s < -1 || s >= static_cast<int>(c.syms.size())) return in.name + ": names no symbol";
      if (s >= 0 && in.sizes[d] != c.syms[s].hi) return in.name + ": a dynamic dim's size is not its bound";
    }
  }
  for (const Execution& e : c.runs) {
    if (e.values.size() != c.syms.size()) return "an execution without a value per symbol";
    if (!runs_within_reach) continue;
    for (size_t s = 0; s < e.values.size(); ++s)
      if (e.values[s] < c.syms[s].lo || e.values[s] > c.syms[s].hi + 1) return "an execution out of reach";
  }
  return "";
}

TEST(MutatorsKeepSymbols, EveryMutatorOnEveryDynamicSeed) {
  const std::vector<Case> seeds = dynamic_seeds();
  ASSERT_GE(seeds.size(), 5u);
  std::mt19937_64 rng(37);
  for (const CaseMutator& m : case_mutators()) {
    int applied = 0;
    for (const Case& seed : seeds)
      for (int t = 0; t < 40; ++t) {
        Case c = seed;
        if (!apply_mutator(m, c, rng)) continue;
        ++applied;
        const std::string why = inconsistency(c);
        EXPECT_EQ(why, "") << m.name << "\n" << print_case(c);
        if (!why.empty()) break;
        if (!c.is_dynamic()) continue;
        const ParseResult again = parse_case(print_case(c), "mutant.case");
        EXPECT_TRUE(again.ok) << m.name << ": " << again.error << "\n" << print_case(c);
        if (!again.ok) break;
      }
    // A mutator that never applies to a dynamic case is not tested here: say so.
    if (applied == 0) std::printf("note: %s does not apply to the dynamic seeds\n", m.name);
  }
}

// MakeDynamic is the fuzzer's way from a static corpus into dynamic programs: it
// applies to a static copy-semantics case and gives one that parses with its
// symbols; a campaign at version 3 never picks it, so its mutants stay static.
TEST(MutatorsKeepSymbols, MakeDynamicTurnsStaticSeedsDynamicOnlyAtVersionFour) {
  namespace fs = std::filesystem;
  const CaseMutator* make = nullptr;
  for (const CaseMutator& m : case_mutators())
    if (std::string(m.name) == "MakeDynamic") make = &m;
  ASSERT_NE(make, nullptr);
  EXPECT_EQ(make->makes_version, kDynamicCaseVersion);
  std::vector<Case> statics;
  for (const auto& e : fs::directory_iterator(fs::path(SLICEFUZZ_SOURCE_DIR) / "corpus/seeds")) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    ParseResult p = parse_case(text.str(), e.path().string());
    if (p.ok && !p.c.is_dynamic() && !p.c.has_eager_ops()) statics.push_back(p.c);
  }
  ASSERT_GE(statics.size(), 50u);
  std::mt19937_64 rng(4);
  int made = 0;
  for (const Case& seed : statics) {
    Case c = seed;
    if (!apply_mutator(*make, c, rng)) continue;
    ++made;
    ASSERT_TRUE(c.is_dynamic()) << print_case(c);
    EXPECT_EQ(inconsistency(c, false), "") << print_case(c);
    const ParseResult again = parse_case(print_case(c), "made-dynamic.case");
    EXPECT_TRUE(again.ok) << again.error << "\n" << print_case(c);
    Case twice = c;
    EXPECT_FALSE(apply_mutator(*make, twice, rng)) << "applied to a case that already has symbols";
  }
  EXPECT_GE(made, static_cast<int>(statics.size()) / 4) << "made dynamic: " << made << " of " << statics.size();
  // At version 3, 2000 mutants of the static seeds: none has symbols.
  for (int t = 0; t < 2000; ++t) {
    Case c = statics[t % statics.size()];
    std::vector<const char*> applied;
    mutate_case(c, rng, kFuzzByteBudget, &applied, 3);
    ASSERT_FALSE(c.is_dynamic()) << "a version-3 campaign made a dynamic mutant:\n" << print_case(c);
  }
}

// A MakeDynamic mutant the dynamic analysis refuses (a rank that depends on a
// symbol, say) is undone: the case is as it was, and mutation goes on from it.
// It was once "undone" from the copy apply_mutator takes of a dynamic case only,
// an empty one for a static case: fuzz_program's mutator then read garbage (a
// SEGV copying the case, found by the self-test on executorch-runtime, seed 2).
TEST(MutatorsKeepSymbols, AMakeDynamicMutantTheAnalysisRefusesIsUndone) {
  const CaseMutator* make = nullptr;
  for (const CaseMutator& m : case_mutators())
    if (std::string(m.name) == "MakeDynamic") make = &m;
  ASSERT_NE(make, nullptr);
  int refused = 0, tried = 0;
  std::mt19937_64 rng(7);
  for (uint64_t i = 0; i < 8000 && refused < 5; ++i) {
    // Static mutants, as a version-4 fuzz corpus holds them (ops broken on
    // purpose among them), the sort the fuzzer's refusals came from.
    Case start = generate_case(17, i);
    repair_case(start, kFuzzByteBudget, kFuzzMaxOps);
    for (int m = 0; m < 3; ++m) mutate_case(start, rng, kFuzzByteBudget, nullptr, kLastStaticCaseVersion);
    std::mt19937_64 same = rng;  // the mutator's own draws, as apply_mutator will make them
    Case probe = start;
    const bool applies = make->apply(probe, same);
    Case c = start;
    const bool kept = apply_mutator(*make, c, rng);
    ++tried;
    if (kept) continue;
    EXPECT_EQ(print_case(c), print_case(start)) << "a refused MakeDynamic mutant was not undone";
    if (applies) ++refused;
  }
  EXPECT_GT(refused, 0) << "no MakeDynamic mutant was refused by the analysis in " << tried << " cases";
}

}  // namespace
}  // namespace slicefuzz
