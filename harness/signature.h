// Dedup signatures of findings: kind + the op it is about + a few canonical
// features of the case, so one bug found a thousand times is one finding.
#pragma once
#include <string>

#include "harness/case_job.h"
#include "program/case.h"

namespace slicefuzz {

// e.g. "VALUE_MISMATCH:slice_copy:dim_order=permuted:step=strided:rank=3"
std::string finding_signature(const Case& c, const CaseSummary& finding);

// The signature as a file-name-safe word (letters, digits, '-', '_').
std::string signature_slug(const std::string& signature);

}  // namespace slicefuzz
