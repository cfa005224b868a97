// What the judge's analysis (oracles/analysis.h) knows of a case before anything
// runs: names resolved to value indices, every value's sizes, the op that must
// fail, the bytes it needs. Plain data: the system under test reads it as an
// exported program's metadata (the static shapes a real exporter hands the pass
// and the planner); the judge's predictions are computed only in oracles/.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "vocab/case.h"

namespace slicefuzz {

inline constexpr int64_t kDefaultByteBudget = int64_t{64} << 20;  // 64 MiB per case

// Every value's own layout: sizes, dtype and dim order (a slice keeps its
// source's order, a select or squeeze copy drops entries, an unsqueeze copy inserts
// one, a view copy is row-major, clone(dim_order=...) chooses). The pass, the
// planner and the executors read a value's layout here, never the case's.
struct ValueInfo {
  std::string name;
  std::vector<int64_t> sizes;  // empty vector also for rank 0; see `known`
  std::vector<int> dim_order;  // explicit (identity spelled out); size == rank when known
  ScalarType dtype = ScalarType::Float;
  bool known = false;          // layout known (defined before the first failing op)
  int def_op = -1;             // -1: a program input
  bool constant = false;       // a program input declared `const` (version 4)
  // Version 4: its sizes vary over the symbols' ranges (ExecuTorch's DYNAMIC_BOUND
  // tensor; false: a static shape, is_static_shape_tensor in exir's TensorSpec).
  bool dynamic_shape = false;
};

struct OpInfo {
  int result = -1;  // value index defined by this op
  int src = -1;     // value read (slice_copy, clone, copy_ source)
  int target = -1;  // value mutated in place (add_, copy_)
  int other = -1;   // a defining op's second tensor (index_copy's source)
};

struct ProgramInfo {
  // values[0 .. num_inputs-1] are the inputs, in the order of the case's input
  // lines; then one value per defining op, in program order.
  std::vector<ValueInfo> values;
  int num_inputs = 1;
  std::vector<OpInfo> ops;
  std::vector<int> outputs;
  // The first op whose arguments are invalid for its input (rank 0, dim out of
  // range, step <= 0, copy_ between different sizes): every path must fail there,
  // and nothing after it runs. -1 when the program is valid throughout.
  int failing_op = -1;
  std::string failing_reason;
  int64_t total_bytes = 0;  // all tensors defined before failing_op
};

// Version 4 (docs/design.md section 8): what the judge knows of each execution
// of a case with symbols, and of the bounds the plan must hold.
struct ExecutionInfo {
  std::vector<int64_t> values;  // one per symbol, as the `run` line gives them
  // False: a value lies outside its symbol's range, so the execution must be
  // refused where the inputs are set (program.fbs), before any op runs.
  bool in_range = true;
  Case c;            // the execution's static case (vocab/concretise.h)
  ProgramInfo info;  // its analysis
  size_t run_line = 0;  // which `run` line of the case (0-based): messages number by it
};
struct DynamicInfo {
  std::vector<ExecutionInfo> runs;
  // Per value (the value table is the same at every assignment): per dim, the
  // largest size over every assignment within the ranges at which the value is
  // computed; empty for a value never computed.
  std::vector<std::vector<int64_t>> bound_sizes;
  int64_t assignments = 0;  // enumerated (every one within the ranges)
  // Every assignment within the ranges, analysed, in enumeration order (the first
  // symbol slowest); filled only when asked (analyze_dynamic's keep_every): a
  // pass decides for all of them, as torch.export hands it SymInts with ranges,
  // and the judge holds the decision to all of them, not only to `runs`.
  std::vector<ExecutionInfo> every;
};
inline constexpr int64_t kMaxAssignments = 4096;

struct AnalysisError {
  enum class Where { Input, Op, Outputs } where = Where::Input;
  int op = -1;  // for Where::Op; for Where::Input, the input's index
  // Why, as data: a generator or mutator repairs an order-dependent copy_ (by
  // copying a clone of the source, what PyTorch's own error message advises).
  enum class Cause : uint8_t { Malformed, OrderDependentCopy } cause = Cause::Malformed;
  std::string message;
};

}  // namespace slicefuzz
