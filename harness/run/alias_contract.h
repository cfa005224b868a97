// The alias prim ops' contract (et_slice, et_select, et_view), checked directly
// for every view-copy op in the case, not only the ones the pass rewrote: the
// alias of a dense view must have the result's sizes and dim order, the strides
// of that layout (the judge's stride rule) which along every dim with more than
// one element are torch's view strides, and start exactly where torch's view
// starts, inside the input's bytes; a view that is not dense must be refused (the
// runtime density guard) with out untouched. Without this, a missing guard would
// hide behind a correct pass. (The file keeps its slice-era name for now.)
#pragma once
#include <string>
#include <vector>

#include "backends/backend.h"
#include "harness/run/findings.h"
#include "oracles/oracle.h"
#include "vocab/program_info.h"
#include "vocab/case.h"

namespace slicefuzz {

// Why the alias `out` that the prim op `prim` made of `in` (its input) breaks the
// contract for torch's `view` of the op, or "": sizes, dim order (the result
// value's, `result_dim_order`), strides by the judge's stride rule and torch's
// along dims of more than one element, bounds inside in's bytes, and the byte
// offset torch's storage offset gives.
std::string alias_contract_violation(const char* prim, const Tensor& in, const Tensor& out,
                                     const TorchOpView& view,
                                     const std::vector<int>& result_dim_order);

void check_alias_contract(const Case& c, const ProgramInfo& info,
                             const std::vector<TorchOpView>& views, const Backend& backend,
                             std::vector<Finding>& findings);

}  // namespace slicefuzz
