// The oracles: libtorch 1.13 with functional (copy) semantics, and an independent
// naive index-by-index reference in plain C++. Neither shares code with the
// kernels' slicing; both report logical values (program/tensor_value.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "program/program_info.h"
#include "program/case.h"
#include "program/path_result.h"

namespace slicefuzz {

// Facts about one slice_copy as torch's *view* would have it, taken from the
// view's strides and storage offset over a source laid out with the case's dim
// order (the rewrite path checks its aliases against these).
struct TorchSliceView {
  int op = -1;                  // index into Case::ops
  int64_t storage_offset = 0;   // elements, relative to the source's first element
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  bool dense = false;           // every dim of size > 1 has the canonical stride
};

struct TorchOracleResult {
  PathResult path;
  std::vector<TorchSliceView> slice_views;  // one per executed slice_copy
};

// Runs `c` in libtorch. Errors are captured (error_op, message), never thrown.
TorchOracleResult run_torch_oracle(const Case& c, const ProgramInfo& info);

// The naive reference: every op walks output indices one by one over row-major
// buffers, with its own normalisation written from the aten::slice definition.
PathResult run_naive_reference(const Case& c, const ProgramInfo& info);

}  // namespace slicefuzz
