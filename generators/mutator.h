// The fuzzer's structure-aware mutator: edits a parsed case (sizes, dim order,
// op arguments, dtype, ops, sources, outputs, mutations, and the version-2 view
// ops) and repairs it into a well-formed program, so libFuzzer spends its time on
// programs, not on syntax. Built like libFuzzer's FuzzerMutate.cpp: a table of
// small named mutators, each of which returns false (cheaply, leaving the case
// untouched) when it does not apply, and a driver that picks among them.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "vocab/program_info.h"
#include "vocab/case.h"

namespace slicefuzz {

// The byte budget the fuzzer and campaigns use per case: small tensors keep the
// executions per second high, and slicing bugs do not need big ones.
inline constexpr int64_t kFuzzByteBudget = int64_t{64} << 10;
// Ops per mutated case: slicing bugs need short programs, and long ones cost
// executions per second (a 60-op program runs ~10x slower than an 8-op one).
inline constexpr size_t kFuzzMaxOps = 12;
// Inputs per mutated case (version 2 allows several; generated cases have 1..3).
inline constexpr size_t kFuzzMaxInputs = 3;

// One named structural mutation. `apply` returns false, with `c` untouched,
// when it does not apply (e.g. "change a view's sizes" on a case without
// view_copy). `refits`: afterwards the driver usually (9 times in 10) refits the
// ops' arguments to the layouts they now see (refit_to_layouts), because the
// mutation changed a shape under them; mutators that break an op on purpose
// (an invalid index, a wrong element count) say false.
struct CaseMutator {
  const char* name;
  bool (*apply)(Case& c, std::mt19937_64& rng);
  bool refits;
  // A mutator that raises a case's format version (MakeDynamic: 4) is left out
  // of a campaign that generates an older version (mutate_case's max_version).
  int makes_version = 0;
  // A mutator that can give a static case symbols (MakeDynamic): apply_mutator
  // keeps a copy of the case to undo a mutant the dynamic analysis refuses.
  bool adds_symbols = false;
};

// Every mutator, version-1 ones first (mutators_v1.cpp), then those of the view
// ops (mutators_view_ops.cpp), then version 4's executions and ranges
// (mutators_dynamic.cpp).
const std::vector<CaseMutator>& case_mutators();

// One step of mutate_case: applies `m`, repairs, and for a mutator that refits,
// 9 times in 10 refits the ops the mutation broke (and, 3 times in 10 of those,
// the ops that failed before it too), then repairs again (a refit view may need
// bytes). False, with `c` untouched, when `m` does not apply, or when it made a
// dynamic case that the dynamic analysis refuses (the parser would).
bool apply_mutator(const CaseMutator& m, Case& c, std::mt19937_64& rng,
                   int64_t byte_budget = kFuzzByteBudget);

// Applies 1..3 random structural mutations (each a mutator from the table that
// applied), then repairs. The result always passes analyze() with `byte_budget`.
// `applied`, when given, gets the name of every mutator that applied, in order
// (fuzz_program shows them with a finding, as libFuzzer's MS: line does its own).
// `max_version`: the newest case format version the campaign generates
// (fuzz_program's SLICEFUZZ_FORMAT_VERSION); mutators that make a newer one are
// not picked.
void mutate_case(Case& c, std::mt19937_64& rng, int64_t byte_budget = kFuzzByteBudget,
                 std::vector<const char*>* applied = nullptr,
                 int max_version = kNewestReadableCaseVersion);

// Splices a prefix of a's ops with a suffix of b's (renamed, re-sourced), then
// repairs. The result always passes analyze() with `byte_budget`.
Case crossover_cases(const Case& a, const Case& b, std::mt19937_64& rng,
                     int64_t byte_budget = kFuzzByteBudget);

// Makes any case well-formed: fresh unique names, sources and targets that are
// defined earlier, at least one valid output, a valid dim order, at most 16 dims
// and `max_ops` ops, op argument lists the parser reads back, and sizes shrunk
// until the tensors fit `byte_budget` (sizes past 2^20 survive only beside a
// size-0 dim, where they take no bytes).
void repair_case(Case& c, int64_t byte_budget, size_t max_ops = kMaxOps);

// Version 4, part of repair_case: each input's `sym_sizes` one per dim and naming
// a declared symbol (a constant's none), and a dynamic dim's size its symbol's
// top; a dim whose size a mutator changed moves its symbol's top (every dim it
// sizes, the range's bottom and the executions follow).
void keep_symbols_consistent(Case& c);
// Version 4, part of repair_case: an op that writes a constant (or a view of
// one) is dropped: a constant lives in the program and is never written.
void drop_writes_to_constants(Case& c);

// Refits the arguments of view-copy ops and clone dim orders that a shape change
// made invalid without meaning to: view_copy sizes to the source's element count
// (keeping the entries' spelling where they divide it), select/unsqueeze/squeeze
// dims and select indices into range, clone dim orders to the source's rank.
// Walks the ops in order with the judge's layouts and stops at the first op that
// still fails. slice_copy and copy_ are left alone (as in version 1). With
// `before` (the case before a mutation), an op that already failed there (by its
// result's name) is left alone too: deliberately invalid ops stay invalid.
void refit_to_layouts(Case& c, const Case* before = nullptr);

}  // namespace slicefuzz
