// The case IR: one input tensor, a straight-line list of ops, and outputs. This is
// exactly what a .case file holds; see case_format.h. Version 1 ops are all
// copies; version 2 adds the eager ops (true views sharing their base's storage,
// and an out-of-place add), so that programs look like the eager code that
// functionalization and re-inplacing passes really see.
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

// One table for the op kinds: the enum, the name in .case text and whether the op
// is an eager (version 2) op. Everything that prints or parses an op name reads it.
#define SLICEFUZZ_OP_KINDS(X)      \
  X(SliceCopy, "slice_copy", false) \
  X(Add, "add_", false)             \
  X(Clone, "clone", false)          \
  X(Copy, "copy_", false)           \
  X(Slice, "slice", true)           \
  X(Select, "select", true)         \
  X(AddOut, "add", true)

enum class OpKind {
#define SLICEFUZZ_OP_ENUM(e, name, eager) e,
  SLICEFUZZ_OP_KINDS(SLICEFUZZ_OP_ENUM)
#undef SLICEFUZZ_OP_ENUM
};

const char* op_kind_name(OpKind k);
// slice, select (views) and add (out of place): version 2 only.
bool is_eager_op(OpKind k);
// Ops that define a new value (NAME = ...).
inline bool op_defines(OpKind k) { return k != OpKind::Add && k != OpKind::Copy; }
// Views share their source's storage (a write through either is seen by both).
inline bool op_is_view(OpKind k) { return k == OpKind::Slice || k == OpKind::Select; }

struct Op {
  OpKind kind = OpKind::SliceCopy;
  std::string result;  // defined value (slice_copy, clone); empty for add_, copy_
  std::string src;     // slice_copy/clone source, copy_ source
  std::string target;  // add_/copy_ destination (mutated in place)
  int64_t dim = 0;     // slice_copy
  std::optional<int64_t> start, end;
  int64_t step = 1;
  int64_t scalar = 0;  // add_, add
  int64_t index = 0;   // select
};

struct Case {
  int version = 1;  // the format version it was read as (the printer never writes less than it needs)
  ScalarType dtype = ScalarType::Float;
  std::string input = "x";
  std::vector<int64_t> sizes;
  std::vector<int> dim_order;  // empty = identity
  std::vector<Op> ops;
  std::vector<std::string> outputs;

  std::vector<int> effective_dim_order() const;
  bool has_eager_ops() const;
};

bool operator==(const Op& a, const Op& b);
bool operator==(const Case& a, const Case& b);
inline bool operator!=(const Case& a, const Case& b) { return !(a == b); }

// The names an op uses (reads, or writes in place), and the one it mutates in
// place ("" if none). Lifetimes and hazards are built from these two.
std::vector<std::string> op_uses(const Op& op);
const std::string& op_mutated(const Op& op);

}  // namespace slicefuzz
