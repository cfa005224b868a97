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
// `bounds` (version 4; nullptr for a static case): every value's upper bound
// sizes, as the exported program declares them. Each tensor is then allocated at
// its bound and DYNAMIC_BOUND: an input is set to its actual sizes, and every
// kernel must resize its out from the bound to the result (ExecuTorch's
// resize_tensor), the shape at which a kernel that never resizes looks right.
PathResult run_copy_path(const Case& c, const ProgramInfo& info,
                         const std::vector<TensorValue>& inputs, const KernelTable& kernels,
                         const std::vector<std::vector<int64_t>>* bounds = nullptr);

}  // namespace slicefuzz
