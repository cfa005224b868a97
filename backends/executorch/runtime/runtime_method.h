// executorch-runtime's method (runtime_method.cpp): the rewrite path as a real
// ExecuTorch program run by ExecuTorch's own Method.
#pragma once
#include <cstddef>
#include <memory>

#include "backends/executorch/runtime/pte_writer.h"
#include "backends/backend.h"
#include "program/arena_executor.h"

namespace slicefuzz::et_runtime {

// Backend::make_method of executorch-runtime (PteFault::None) and of its faulty
// variants. The program is written and loaded when the method first executes
// (from that execution's case); a program ExecuTorch refuses to load is that
// execution's error, at op 0.
MethodFactory runtime_method_factory(PteFault fault);

// The method pool (ExecuTorch's MemoryAllocator for a Method's values, tensor
// metadata and chains) the method loads with: first `fitted`, from the program's
// size; only if load_method runs out of it (MemoryAllocationFailed), `generous`.
struct MethodPoolBytes {
  size_t fitted = 0, generous = 0;
};
MethodPoolBytes method_pool_bytes(size_t pte_bytes, size_t values);

// The method's loading policy over those two pools: `load(bytes)` with the fitted
// pool, and again with the generous one only when it answered `out_of_memory`;
// the last answer. (A template so that this header needs no ExecuTorch type.)
template <class Load, class Result>
Result load_fitted_then_generous(const MethodPoolBytes& pool, Load&& load, Result out_of_memory) {
  Result r = load(pool.fitted);
  if (r == out_of_memory && pool.fitted < pool.generous) r = load(pool.generous);
  return r;
}

// Backend::write_program of executorch-runtime and of its faulty variants: the
// program as the method writes it, without probes, naming upstream operators only.
decltype(Backend::write_program) runtime_program_writer(PteFault fault);

// Backend::input_check of executorch-runtime: what ExecuTorch's Method::set_input
// does with a DYNAMIC_BOUND input planned at `bound` (its resize_tensor).
std::string executorch_input_check(const std::vector<int64_t>& actual, const std::vector<int64_t>& bound);

}  // namespace slicefuzz::et_runtime
