// The case IR: one input tensor, a straight-line list of ops, and outputs. This is
// exactly what a .case file (version 1) holds; see case_format.h.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/scalar_type.h"

namespace slicefuzz {

// Limits of the case format (both sides read them; they are not semantics).
inline constexpr int kMaxCaseRank = 16;
inline constexpr size_t kMaxOps = 256;

enum class OpKind { SliceCopy, Add, Clone, Copy };

struct Op {
  OpKind kind = OpKind::SliceCopy;
  std::string result;  // defined value (slice_copy, clone); empty for add_, copy_
  std::string src;     // slice_copy/clone source, copy_ source
  std::string target;  // add_/copy_ destination (mutated in place)
  int64_t dim = 0;     // slice_copy
  std::optional<int64_t> start, end;
  int64_t step = 1;
  int64_t scalar = 0;  // add_
};

struct Case {
  ScalarType dtype = ScalarType::Float;
  std::string input = "x";
  std::vector<int64_t> sizes;
  std::vector<int> dim_order;  // empty = identity
  std::vector<Op> ops;
  std::vector<std::string> outputs;

  std::vector<int> effective_dim_order() const;
};

bool operator==(const Op& a, const Op& b);
bool operator==(const Case& a, const Case& b);
inline bool operator!=(const Case& a, const Case& b) { return !(a == b); }

// The names an op uses (reads, or writes in place), and the one it mutates in
// place ("" if none). Lifetimes and hazards are built from these two.
std::vector<std::string> op_uses(const Op& op);
const std::string& op_mutated(const Op& op);

}  // namespace slicefuzz
