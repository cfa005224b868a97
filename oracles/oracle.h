// The oracles: libtorch 1.13 with functional (copy) semantics, and an independent
// naive index-by-index reference in plain C++. Neither shares code with the
// kernels' slicing; both report logical values (vocab/tensor_value.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "vocab/program_info.h"
#include "vocab/case.h"
#include "vocab/path_result.h"

namespace slicefuzz {

// Facts about one view-copy op (op_is_view_copy) as torch's *view* of it would
// have them (the torch view op the table names, over the source, laid out
// in the source value's own dim order): the rewrite path checks its aliases
// against these.
struct TorchOpView {
  int op = -1;                  // index into Case::ops
  int64_t storage_offset = 0;   // elements, relative to the source's first element
  std::vector<int64_t> sizes;   // the result's sizes
  // The view's strides; none for a view_copy that torch cannot view (nor for a
  // 0-dim view, which has none anyway: a view_copy with <= 1 element always views).
  std::vector<int64_t> strides;
  // Every dim of size > 1 has the canonical stride of the result sizes in the
  // RESULT value's dim order (an empty view is dense); false for a view_copy
  // whose source torch cannot view.
  bool dense = false;
};

struct TorchOracleResult {
  PathResult path;
  std::vector<TorchOpView> op_views;  // one per executed view-copy op, in op order
};

// Runs `c` in libtorch. Errors are captured (error_op, message), never thrown.
TorchOracleResult run_torch_oracle(const Case& c, const ProgramInfo& info);

// torch's view facts alone (op_views), for the judge off the schedule: the same
// evaluator over tensors on torch's meta device, which carry sizes, strides and
// storage offsets but no bytes, so nothing is allocated, filled or computed
// (an unscheduled assignment needs no values: issue 37's cheaper executions).
// `path` has the outputs' sizes and no bytes; its errors are torch's where the
// meta device raises them, and the analysis says where an op must fail anyway.
// tests/torch_views_test.cpp holds its views equal to run_torch_oracle's.
TorchOracleResult run_torch_views(const Case& c, const ProgramInfo& info);

// The naive reference: every value a strided window onto a storage of its own
// dim order, every element moved one by one, on the judge's facts.
PathResult run_naive_reference(const Case& c, const ProgramInfo& info);

}  // namespace slicefuzz
