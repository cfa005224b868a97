// executorch-runtime's method (runtime_method.cpp): the rewrite path as a real
// ExecuTorch program run by ExecuTorch's own Method.
#pragma once
#include <memory>

#include "backends/executorch/runtime/pte_writer.h"
#include "program/arena_executor.h"

namespace slicefuzz::et_runtime {

// Backend::make_method of executorch-runtime (PteFault::None) and of its faulty
// variants. The program is written and loaded when the method first executes
// (from that execution's case); a program ExecuTorch refuses to load is that
// execution's error, at op 0.
MethodFactory runtime_method_factory(PteFault fault);

}  // namespace slicefuzz::et_runtime
