#pragma once
// The parsed texts the fuzz target's custom mutator and cross-over start from.
//
// libFuzzer mutates a corpus unit up to -mutate_depth (5) times in a row, each
// time the mutant it has just run, and crosses over with corpus units it has
// read before. Parsing (and analysing) each of those texts again was ~7% of
// fuzz_program's time with mutation on. This cache remembers them, filled only
// in the mutator (never inside a run: libFuzzer counts a run's mallocs and
// re-executes a run that keeps memory, to look for leaks).
//
// A mutant the mutator has just printed is taken back without parsing only
// when the fuzz target's own parse of that exact text (it parses every input it
// runs, as before: the parser is still fuzzed) said whether it parses; the
// mutator then continues from the case it printed, canonicalised as the printer
// does. Fields an op's printed form does not carry (a select's stale `step`) may
// survive where a re-parse would reset them: that steers which mutants come
// next, never what a run checks.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "vocab/case.h"

namespace slicefuzz {

class MutationSources {
 public:
  explicit MutationSources(int64_t byte_budget) : byte_budget_(byte_budget) {}

  // The case `text` parses to (parse_case with the budget), or nullopt if it
  // does not parse.
  const std::optional<Case>& parsed(std::string_view text);

  // The mutator printed `text` from `c` and hands it to libFuzzer, which runs it
  // next.
  void printed(std::string text, Case c);

  // Called by the fuzz target for every input it runs, with its parse result.
  // Allocates nothing (it runs inside libFuzzer's malloc accounting).
  void ran(std::string_view text, bool parse_ok);

  struct Stats {
    uint64_t hits = 0, misses = 0, printed_taken = 0;
  };
  const Stats& stats() const { return stats_; }

 private:
  static constexpr size_t kMaxEntries = 4096;  // then start again (corpus units are re-read)

  int64_t byte_budget_;
  std::unordered_map<std::string, std::optional<Case>> entries_;
  // The last printed mutant, until the run that parses it says whether it does.
  std::string pending_text_;
  Case pending_case_;
  bool pending_ = false;
  bool pending_ran_ = false, pending_parse_ok_ = false;
  Stats stats_;
};

}  // namespace slicefuzz
