// executorch_prim::et_slice.default, written as an ExecuTorch prim op on
// ExecuTorch's own types: a drop-in candidate for kernels/prim_ops/ upstream,
// with the calling convention of et_view (a stack of EValue*, the kernel context).
#pragma once
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>

namespace slicefuzz::et_prim {

// stack = [self, dim, start (Int|None), end (Int|None), step, out]. Normalises the
// indices as slice_copy does (ExecuTorch's slice_util), resizes out, requires out
// to have self's dtype and dim order, refuses (out untouched) a slice that is not
// dense in the dim order, and otherwise points out's data at the slice's first
// byte inside self. Copies nothing.
void et_slice(executorch::runtime::KernelRuntimeContext& context,
              executorch::runtime::Span<executorch::runtime::EValue*> stack);

}  // namespace slicefuzz::et_prim
