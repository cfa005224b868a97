// The copy path: every op runs as a kernel on tensors that each own one exact-size
// heap allocation, so ASan's redzones guard every edge of every tensor.
#pragma once
#include "program/program_info.h"
#include "program/case.h"
#include "program/kernel_table.h"
#include "program/op_layout_facts.h"
#include "program/path_result.h"

namespace slicefuzz {

// `input` is the program input's value (the harness's fill, handed in).
PathResult run_copy_path(const Case& c, const ProgramInfo& info, const TensorValue& input,
                         const KernelTable& kernels);

// Deprecated (version 1 only): metadata for `sizes` with the case's dtype and input
// dim order. Every value has its own layout now: use value_meta(info.values[v])
// (program/op_layout_facts.h). Aborts when the case's dim order does not fit.
Tensor value_meta(const Case& c, const std::vector<int64_t>& sizes);

}  // namespace slicefuzz
