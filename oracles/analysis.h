// The judge's analysis of a case, before anything runs: names resolve, which op
// must fail and why, every value's sizes, the byte budget. Computed with the
// judge's own facts (judge_facts.h), never the kernels' utilities, so that a
// normalisation bug in the system under test is a finding about it, not a
// corrupted expectation. The CLI process, the generators and the mutator call
// this; it runs no code of the system under test.
#pragma once
#include <cstdint>

#include "vocab/case.h"
#include "vocab/program_info.h"

namespace slicefuzz {

// Returns false and fills `err` for a case that is not a well-formed program:
// undefined or redefined names, rank > 16, a bad dim order, negative sizes, no
// outputs or a repeated output, too many ops, or tensors over `byte_budget` (checked
// before any allocation, in 128-bit arithmetic).
bool analyze(const Case& c, int64_t byte_budget, ProgramInfo& info, AnalysisError& err);

}  // namespace slicefuzz
