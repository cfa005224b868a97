// The copy path: every op runs as a kernel on tensors that each own one exact-size
// heap allocation, so ASan's redzones guard every edge of every tensor.
#pragma once
#include "vocab/program_info.h"
#include "vocab/case.h"
#include "program/kernel_table.h"
#include "program/op_layout_facts.h"
#include "vocab/path_result.h"

namespace slicefuzz {

// `inputs` are the program inputs' values, in order (the harness's fill, handed in).
PathResult run_copy_path(const Case& c, const ProgramInfo& info,
                         const std::vector<TensorValue>& inputs, const KernelTable& kernels);

}  // namespace slicefuzz
