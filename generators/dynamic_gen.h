// Version 4 (docs/design.md section 8): a generated static case made dynamic. A
// dim of an input becomes a symbol whose range tops at the dim's size (the bound),
// literal positions and extents become `P+K` of a runtime integer whose range
// holds the literal, and the case gets an execution schedule: at the bound first,
// then below it, then at the range's bottom (0 or 1), as a deployed Method sees
// prefill and then decode. The verbs' default (generate.h kDefaultGeneratedVersion);
// `--format-version 3` streams stay byte-identical. Weights in gen_weights.h.
#pragma once
#include <cstdint>
#include <random>

#include "vocab/case.h"

namespace slicefuzz::gen {

// `c` with symbols added, from `rng`; `c` itself when nothing fits or the result
// is not well formed (the judge's analysis, every assignment).
Case with_symbols(const Case& c, std::mt19937_64& rng);

}  // namespace slicefuzz::gen
