// What one path (oracle, reference, copy, rewrite) made of a program.
#pragma once
#include <string>
#include <vector>

#include "vocab/tensor_value.h"

namespace slicefuzz {

struct PathResult {
  // The op that raised an error (-1: none). Nothing after it ran.
  int error_op = -1;
  std::string error_message;
  // The path accepted the op the analysis knows must fail (see ProgramInfo::failing_op)
  // and stopped there: no outputs.
  bool ran_past_failure = false;
  // A kernel reported an error but had written to its out tensor first.
  bool partial_write = false;
  std::vector<TensorValue> outputs;  // in the order of Case::outputs when complete
  // The judge's naive reference only: per output, per element (row-major), how
  // far two faithful computations of it may lie apart (oracles/judge_inexact.h);
  // empty where no inexact op (sigmoid, gelu) reached the outputs: exact.
  std::vector<std::vector<double>> output_bounds;
  bool complete() const { return error_op < 0 && !ran_past_failure; }
};

}  // namespace slicefuzz
