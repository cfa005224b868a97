// The fuzzer's structure-aware mutator: edits a parsed case (sizes, dim order,
// slice arguments, dtype, ops, sources, outputs, mutations) and repairs it into a
// well-formed program, so libFuzzer spends its time on programs, not on syntax.
#pragma once
#include <cstdint>
#include <random>

#include "program/program_info.h"
#include "program/case.h"

namespace slicefuzz {

// The byte budget the fuzzer and campaigns use per case: small tensors keep the
// executions per second high, and slicing bugs do not need big ones.
inline constexpr int64_t kFuzzByteBudget = int64_t{64} << 10;
// Ops per mutated case: slicing bugs need short programs, and long ones cost
// executions per second (a 60-op program runs ~10x slower than an 8-op one).
inline constexpr size_t kFuzzMaxOps = 12;

// Applies 1..3 random structural mutations, then repairs. The result always
// passes analyze() with `byte_budget`.
void mutate_case(Case& c, std::mt19937_64& rng, int64_t byte_budget = kFuzzByteBudget);

// Splices a prefix of a's ops with a suffix of b's (renamed, re-sourced), then
// repairs. The result always passes analyze() with `byte_budget`.
Case crossover_cases(const Case& a, const Case& b, std::mt19937_64& rng,
                     int64_t byte_budget = kFuzzByteBudget);

// Makes any case well-formed: fresh unique names, sources and targets that are
// defined earlier, at least one valid output, a valid dim order, at most 16 dims
// and `max_ops` ops, and sizes shrunk until the tensors fit `byte_budget`.
void repair_case(Case& c, int64_t byte_budget, size_t max_ops = kMaxOps);

}  // namespace slicefuzz
