// Standalone reproducers of a finding: a Python script that rebuilds the case in
// PyTorch 1.13 and prints the expected values, and a gtest that compiles against
// slicefuzz and fails while the finding reproduces.
#pragma once
#include <string>

#include "harness/case_job.h"
#include "program/case.h"

namespace slicefuzz {

std::string export_python(const Case& c, const CaseSummary& finding, const std::string& backend);
std::string export_gtest(const Case& c, const CaseSummary& finding, const std::string& backend,
                         const std::string& test_name);

}  // namespace slicefuzz
