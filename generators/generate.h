// Whole cases from the RapidCheck generators, without exposing RapidCheck: the
// CLI and the fuzzer call this; tests use the rc::Gen values in case_gen.h.
#pragma once
#include <cstdint>

#include "program/case.h"

namespace slicefuzz {

// Deterministic: the same (seed, index) always gives the same, well-formed case
// (it passes analyze() with the default byte budget).
// `eager`: a version-2 eager program (views, writes through them) for a backend
// that declares eager_ops; otherwise the copy-semantics programs of version 1.
Case generate_case(uint64_t seed, uint64_t index, bool eager = false);

}  // namespace slicefuzz
