// `export --python` for out-of-process backends: torch.fx (export_worker.cpp) and
// ExecuTorch's Python passes (export_et.cpp).
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

// The et-* backends (export_et.cpp): whether `b` runs ExecuTorch's Python passes
// through et_pass_worker.py without a planted fault, its pipeline's name, and the
// script's tail that runs that pipeline on f's edge graph.
bool et_pass_backend(const Backend& b);
std::string et_pass_pipeline(const Backend& b);
std::string et_pass_script_tail(const Backend& b);

}  // namespace slicefuzz
