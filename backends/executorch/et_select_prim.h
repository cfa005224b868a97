// executorch_prim::et_select.default, written as an ExecuTorch prim op on
// ExecuTorch's own types (ExecuTorch has none: not the snapshot, not upstream main;
// only pytorch/executorch PR 19198, closed unmerged, proposed one with this
// stack): a drop-in candidate for kernels/prim_ops/.
#pragma once
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>

namespace slicefuzz::et_prim {

// stack = [self, dim, index, out]. Checks the arguments as the select copy
// kernel does (ExecuTorch's select check in its copy-op utils: rank >= 1, dim and index in range,
// same dtype), resizes out to self's sizes without dim, refuses (out untouched)
// when the selected sub-tensor is not dense in out's dim order, and otherwise
// points out's data at its first byte inside self. Copies nothing.
void et_select(executorch::runtime::KernelRuntimeContext& context,
               executorch::runtime::Span<executorch::runtime::EValue*> stack);

}  // namespace slicefuzz::et_prim
