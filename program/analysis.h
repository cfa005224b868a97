// Static analysis of a case: names resolve, shapes follow, the byte budget holds.
// The parser, generators, mutator, executors and the pass all start from this.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "program/case.h"

namespace slicefuzz {

inline constexpr int64_t kDefaultByteBudget = int64_t{64} << 20;  // 64 MiB per case
inline constexpr size_t kMaxOps = 256;

struct ValueInfo {
  std::string name;
  std::vector<int64_t> sizes;  // empty vector also for rank 0; see `known`
  bool known = false;          // sizes known (defined before the first failing op)
  int def_op = -1;             // -1: the program input
};

struct OpInfo {
  int result = -1;  // value index defined by this op
  int src = -1;     // value read (slice_copy, clone, copy_ source)
  int target = -1;  // value mutated in place (add_, copy_)
};

struct ProgramInfo {
  std::vector<ValueInfo> values;  // values[0] is the input
  std::vector<OpInfo> ops;
  std::vector<int> outputs;
  // The first op whose arguments are invalid for its input (rank 0, dim out of
  // range, step <= 0, copy_ between different sizes): every path must fail there,
  // and nothing after it runs. -1 when the program is valid throughout.
  int failing_op = -1;
  std::string failing_reason;
  int64_t total_bytes = 0;  // all tensors defined before failing_op
  int rank() const { return static_cast<int>(values[0].sizes.size()); }
};

struct AnalysisError {
  enum class Where { Input, Op, Outputs } where = Where::Input;
  int op = -1;  // for Where::Op
  std::string message;
};

// Returns false and fills `err` for a case that is not a well-formed program:
// undefined or redefined names, rank > 16, a bad dim order, negative sizes, no
// outputs or a repeated output, too many ops, or tensors over `byte_budget` (checked before any
// allocation, with overflow-checked arithmetic).
bool analyze(const Case& c, int64_t byte_budget, ProgramInfo& info, AnalysisError& err);

}  // namespace slicefuzz
