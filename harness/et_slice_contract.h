// The et_slice prim op's contract, checked directly for every slice in the case,
// not only the ones the pass rewrote: a dense slice must alias exactly where
// torch's view starts, inside the input's bytes; a non-dense slice must be
// refused (the runtime density guard) with out untouched. Without this, a missing
// guard would hide behind a correct pass.
#pragma once
#include <vector>

#include "backends/backend.h"
#include "harness/findings.h"
#include "oracles/oracle.h"
#include "program/program_info.h"
#include "program/case.h"

namespace slicefuzz {

void check_et_slice_contract(const Case& c, const ProgramInfo& info,
                             const std::vector<TorchSliceView>& views, const Backend& backend,
                             std::vector<Finding>& findings);

}  // namespace slicefuzz
