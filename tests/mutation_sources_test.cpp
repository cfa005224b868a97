// The fuzz target's cache of parsed mutation sources (harness/fuzz/mutation_sources.h)
// must give the mutator exactly what parsing the text would: otherwise which
// mutants come next would depend on whether a text was cached.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "generators/generate.h"
#include "generators/mutator.h"
#include "harness/fuzz/mutation_sources.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {
namespace {

constexpr int64_t kBudget = 256 * 1024;

TEST(MutationSources, AParsedTextIsWhatTheParserGives) {
  MutationSources sources(kBudget);
  const std::string text = print_case(generate_case(7, 3));
  const ParseResult p = parse_case(text, "t", kBudget);
  ASSERT_TRUE(p.ok) << p.error;
  for (int again = 0; again < 2; ++again) {  // parsed, then read back from the cache
    const std::optional<Case>& got = sources.parsed(text);
    ASSERT_TRUE(got.has_value());
    EXPECT_TRUE(*got == p.c) << text;
  }
  EXPECT_EQ(sources.stats().misses, 1u);
  EXPECT_EQ(sources.stats().hits, 1u);
}

TEST(MutationSources, TextThatDoesNotParseIsNoSource) {
  MutationSources sources(kBudget);
  EXPECT_FALSE(sources.parsed("slicefuzz-case 1\ndtype float32\ninput x [2]\noutput nope\n"));
  EXPECT_FALSE(sources.parsed("not a case"));
}

TEST(MutationSources, APrintedMutantIsTakenBackOnlyAfterItsRunParsedIt) {
  MutationSources sources(kBudget);
  Case c = generate_case(11, 5);
  const std::string text = print_case(c);
  sources.printed(text, c);
  // Not run yet: the cache cannot know whether it parses, so it parses.
  ASSERT_TRUE(sources.parsed(text).has_value());
  EXPECT_EQ(sources.stats().printed_taken, 0u);
  EXPECT_EQ(sources.stats().misses, 1u);

  // Run (the target's parse said "does not parse", say for a budget): that
  // verdict is kept, even though the cache would have parsed it.
  MutationSources other(kBudget);
  other.printed(text, c);
  other.ran(text, false);
  EXPECT_FALSE(other.parsed(text).has_value());
  EXPECT_EQ(other.stats().printed_taken, 1u);

  // A run of some other text leaves the pending mutant unconfirmed.
  MutationSources third(kBudget);
  third.printed(text, c);
  third.ran("slicefuzz-case 1\n", true);
  ASSERT_TRUE(third.parsed(text).has_value());
  EXPECT_EQ(third.stats().printed_taken, 0u);
}

// The property the fuzz target relies on: for the mutator's own mutants (with
// whatever it left in fields their printed form does not carry), the case taken
// back equals a fresh parse of the printed text.
TEST(MutationSources, MutantsTakenBackEqualTheirParse) {
  int taken = 0;
  for (uint64_t seed = 0; seed < 800; ++seed) {
    MutationSources sources(kBudget);
    std::mt19937_64 rng(seed);
    Case c = generate_case(seed, seed % 97);
    for (int depth = 0; depth < 5; ++depth) {  // libFuzzer's -mutate_depth
      mutate_case(c, rng, kBudget);
      const std::string text = print_case(c);
      sources.printed(text, c);
      const ParseResult p = parse_case(text, "t", kBudget);
      sources.ran(text, p.ok);
      const std::optional<Case>& got = sources.parsed(text);
      ASSERT_EQ(got.has_value(), p.ok) << text;
      if (!got) break;
      ASSERT_TRUE(*got == p.c) << "seed " << seed << " depth " << depth << "\n" << text;
      ++taken;
      c = *got;
    }
  }
  EXPECT_GT(taken, 1500);
}

}  // namespace
}  // namespace slicefuzz
