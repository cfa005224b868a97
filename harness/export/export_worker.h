// `export --python` for out-of-process torch.fx backends (export_worker.cpp).
#pragma once
#include <string>

#include "backends/backend.h"
#include "harness/run/case_job.h"
#include "vocab/program_info.h"

namespace slicefuzz {

// Whether export_python_worker knows how to rebuild the backend's transform.
bool exportable_worker(const Backend& b);

std::string export_python_worker(const Case& c, const ProgramInfo& info, const CaseSummary& finding,
                                 const Backend& backend);

}  // namespace slicefuzz
