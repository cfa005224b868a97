// Whole cases from the RapidCheck generators, without exposing RapidCheck: the
// CLI and the fuzzer call this; tests use the rc::Gen values in case_gen.h.
#pragma once
#include <cstdint>

#include <string>

#include "vocab/case.h"
#include "vocab/program_info.h"

namespace slicefuzz {

// Deterministic: the same (seed, index) always gives the same, well-formed case
// (it passes analyze() with the default byte budget).
// `eager`: a version-2 eager program (views, writes through them) for a backend
// that declares eager_ops; otherwise a copy-semantics program: 70% from
// genViewOpsCase (view_ops_gen.h: every view-copy op, clone(dim_order), the
// deliberately invalid ops), 30% from genCase (version 1, exactly as before).
// `version`: the newest case format version to generate; 2 gives exactly the
// cases of the build before version 3 (the ops since the schema are inserted
// into a share of the cases from a stream of their own, generate.cpp).
// The unit tests' stream: version 3, the newest before dynamic programs and
// permute_copy (generate_case's default; the verbs generate version 4).
inline constexpr int kUnitStreamVersion = kLastStaticCaseVersion;
Case generate_case(uint64_t seed, uint64_t index, bool eager = false,
                   int version = kUnitStreamVersion);

// The version `gen`, `run` and fuzz_program generate unless told otherwise
// (`--format-version V`, SLICEFUZZ_FORMAT_VERSION): version 4, since the rewrite's
// workloads are dynamic (KV caches at a live length, RoPE at a runtime position).
// Its stream keeps a declared static share (gen_weights.h kDynamicCasePercent), so
// every version-3 class is still generated; `--format-version 3` gives the old
// stream. generate_case's own default stays version 3 (kUnitStreamVersion), so the
// unit tests' streams did not move when the verbs' default did.
inline constexpr int kDefaultGeneratedVersion = kDynamicCaseVersion;

// A backend's declared limits (backends/backend.h: why a case lies outside them,
// or ""). Passed as plain data-in, reason-out; nullptr means no limits.
using OutsideLimits = std::string (*)(const Case& c, const ProgramInfo& info);

// Like generate_case, but spends most cases inside the declared limits: when case
// (seed, index) lies outside them, up to 8 further cases keyed (seed, index,
// attempt) are tried and the first inside wins. Every tenth index is left as
// generated, so refusals (UNSUPPORTED) stay tested. Deterministic for
// (seed, index, limits); without limits it is exactly generate_case.
Case generate_case_within(uint64_t seed, uint64_t index, OutsideLimits outside,
                          bool eager = false, int version = kUnitStreamVersion);

}  // namespace slicefuzz
