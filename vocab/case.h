// The case IR: input tensors (one in version 1), a straight-line list of ops, and outputs. This is
// exactly what a .case file holds; see case_format.h. Version 1 ops are all
// copies; version 2 adds the eager ops (true views sharing their base's storage,
// and an out-of-place add), so that programs look like the eager code that
// functionalization and re-inplacing passes really see.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "vocab/scalar_type.h"
#include "vocab/op_schema.h"

namespace slicefuzz {

// Limits of the case format (both sides read them; they are not semantics).
inline constexpr int kMaxCaseRank = 16;
inline constexpr size_t kMaxOps = 256;

const char* op_kind_name(OpKind k);
std::optional<OpKind> op_kind_from_name(std::string_view name);
// slice, select (views) and add (out of place): version 2 eager programs only.
inline bool is_eager_op(OpKind k) { return op_kind_info(k).eager; }
// Ops that define a new value (NAME = ...).
inline bool op_defines(OpKind k) { return op_kind_info(k).effect == OpEffect::Defines; }
// Eager views share their source's storage (a write through either is seen by both).
inline bool op_is_view(OpKind k) { return k == OpKind::Slice || k == OpKind::Select; }
// Copy ops a pass may turn into an alias (slice_copy -> et_slice, ...).
inline bool op_is_view_copy(OpKind k) { return op_kind_info(k).alias_prim[0] != '\0'; }
inline const char* op_alias_prim(OpKind k) { return op_kind_info(k).alias_prim; }
// Whether a defining op reads a second tensor (Op::other: index_copy's source).
inline bool op_reads_other(OpKind k) {
  for (const ArgSpec& a : op_kind_info(k).args)
    if (a.kind == ArgKind::NamedTensor) return true;
  return false;
}

// Version 4 (docs/design.md section 8): a symbol names a dynamic size or a runtime
// integer (torch.export's `s0`, ExecuTorch's SymInt), with the range its values
// may take at an execution. The top of the range is the bound of every dim that
// the symbol sizes (DYNAMIC_BOUND).
inline constexpr int kDynamicCaseVersion = 4;
// The newest version without symbols: the static stream, and the ops the
// out-of-process worker protocol was written for.
inline constexpr int kLastStaticCaseVersion = kDynamicCaseVersion - 1;
inline constexpr int kNewestReadableCaseVersion =
    kLatestCaseVersion > kDynamicCaseVersion ? kLatestCaseVersion : kDynamicCaseVersion;
inline constexpr int64_t kMaxSymbolValue = int64_t{1} << 20;  // a range's top, at most
inline constexpr size_t kMaxSymbols = 8;
inline constexpr size_t kMaxRuns = 64;

struct SymDecl {
  std::string name;
  int64_t lo = 0, hi = 0;  // 0 <= lo <= hi <= kMaxSymbolValue
  auto fields() const { return std::tie(name, lo, hi); }
};

// `NAME`, `NAME+K` or `NAME-K`: symbol `sym` (an index into Case::syms) plus `add`.
struct SymExpr {
  int sym = -1;
  int64_t add = 0;
  auto fields() const { return std::tie(sym, add); }
};

// An op's integer argument that is a symbolic expression: the argument's slot
// (vocab/op_schema.h) and, for a list slot, the entry. The op's own field for that
// slot holds 0 until the case is concretised (vocab/concretise.h).
struct SymArg {
  ArgSlot slot = ArgSlot::Start;
  int entry = -1;  // the list entry for ArgSlot::Ints, -1 otherwise
  SymExpr expr;
  auto fields() const { return std::tie(slot, entry, expr.sym, expr.add); }
};
bool operator==(const SymArg& a, const SymArg& b);

// Whether an argument of this role may be symbolic: positions, extents and result
// sizes (what export makes symbolic); never a dim, a step or a scalar.
inline bool role_takes_symbol(ArgRole r) {
  return r == ArgRole::Position || r == ArgRole::Extent || r == ArgRole::Sizes ||
         r == ArgRole::Positions;
}

// One execution (`run NAME=INT ...`): a value per symbol, in declaration order.
struct Execution {
  std::vector<int64_t> values;
  bool operator==(const Execution& o) const { return values == o.values; }
};

struct Op {
  OpKind kind = OpKind::SliceCopy;
  std::string result;  // defined value (slice_copy, clone); empty for add_, copy_
  std::string src;     // slice_copy/clone source, copy_ source
  std::string target;  // add_/copy_ destination (mutated in place)
  std::string other;   // a defining op's second tensor (index_copy's source)
  int64_t dim = 0;     // slice_copy
  std::optional<int64_t> start, end;
  int64_t step = 1;
  int64_t scalar = 0;  // add_, add
  int64_t index = 0;   // select (copy or eager); narrow_copy's start
  int64_t length = 0;  // narrow_copy
  // squeeze_copy's dims (`single_dim`: written `dim=INT`, one entry),
  // view_copy's sizes and index_copy's index.
  std::vector<int64_t> ints;
  bool single_dim = false;
  // clone(SRC, dim_order=[...]): a copy into that layout; nullopt keeps SRC's.
  std::optional<std::vector<int>> dim_order;
  // Version 4: the arguments that are symbolic (at most one per slot and entry).
  std::vector<SymArg> sym_args;

  // Every field, for equality (a new field is compared once it is listed here).
  auto fields() const {
    return std::tie(kind, result, src, target, other, dim, start, end, step, scalar, index, length, ints,
                    single_dim, dim_order, sym_args);
  }
  // The symbolic expression at `slot` (and list `entry`), or nullptr.
  const SymExpr* sym_at(ArgSlot slot, int entry = -1) const {
    for (const SymArg& a : sym_args)
      if (a.slot == slot && a.entry == entry) return &a.expr;
    return nullptr;
  }
};

// The field behind an argument slot (vocab/op_schema.h): int64 slots (Dim,
// Index, Length, Step, Scalar), optional-int slots (Start, End).
inline int64_t& op_int(Op& op, ArgSlot slot) {
  switch (slot) {
    case ArgSlot::Dim: return op.dim;
    case ArgSlot::Index: return op.index;
    case ArgSlot::Length: return op.length;
    case ArgSlot::Step: return op.step;
    case ArgSlot::Scalar: return op.scalar;
    default: break;  // the table's kinds fit their slots (op_table_is_well_typed)
  }
  return op.dim;
}
inline int64_t op_int(const Op& op, ArgSlot slot) { return op_int(const_cast<Op&>(op), slot); }
inline std::optional<int64_t>& op_opt_int(Op& op, ArgSlot slot) {
  return slot == ArgSlot::End ? op.end : op.start;
}
inline const std::optional<int64_t>& op_opt_int(const Op& op, ArgSlot slot) {
  return slot == ArgSlot::End ? op.end : op.start;
}

// The format version an op needs (clone with a dim order is version 2).
int op_min_version(const Op& op);

// One `input` line: a program input with its own sizes, dim order and dtype
// (version 2 allows several, each with its own dtype: `input y [2, 3]
// dtype=int8 dim_order=[1, 0]`).
struct InputDecl {
  std::string name = "x";
  std::vector<int64_t> sizes;
  std::vector<int> dim_order;       // empty = identity
  std::optional<ScalarType> dtype;  // nullopt: the case's `dtype` line (the default)
  // Version 4: per dim, the symbol that sizes it (an index into Case::syms), or -1
  // for a static dim; empty when every dim is static. A dynamic dim's entry in
  // `sizes` is its bound (the symbol's top) until the case is concretised.
  std::vector<int> sym_sizes;
  // Version 4, `const NAME [...]`: a constant (a weight, a registered buffer) in
  // the program, not in planned memory; never written; static sizes.
  bool constant = false;

  bool is_dynamic() const {
    for (int s : sym_sizes)
      if (s >= 0) return true;
    return false;
  }

  std::vector<int> effective_dim_order() const;
};

struct Case {
  int version = 1;  // the format version it was read as (the printer never writes less than it needs)
  ScalarType dtype = ScalarType::Float;  // the `dtype` line: every input's default dtype
  std::vector<InputDecl> inputs{InputDecl{}};  // at least one, in the order of the input lines
  std::vector<Op> ops;
  std::vector<std::string> outputs;
  // Version 4: the symbols (declared before the inputs) and the executions, in
  // order (after the output line; at least one when a symbol is declared).
  std::vector<SymDecl> syms;
  std::vector<Execution> runs;

  bool is_dynamic() const { return !syms.empty(); }
  // The executions a run of the case makes, as counted in fuzz_program's and
  // check's statistics: each `run` line, or one for a static case.
  size_t execution_count() const { return runs.empty() ? 1 : runs.size(); }
  bool has_constants() const {
    for (const InputDecl& in : inputs)
      if (in.constant) return true;
    return false;
  }
  int find_sym(const std::string& name) const {
    for (size_t i = 0; i < syms.size(); ++i)
      if (syms[i].name == name) return static_cast<int>(i);
    return -1;
  }

  // Input k's dtype: its own, or the default.
  ScalarType input_dtype(size_t k) const { return inputs[k].dtype.value_or(dtype); }
  // The input named `name`, or nullptr.
  const InputDecl* find_input(const std::string& name) const;
  bool is_input(const std::string& name) const { return find_input(name) != nullptr; }
  bool has_eager_ops() const;
  // sigmoid or gelu: ops whose values torch rounds by the operand's layout, so
  // they are compared within bounds (oracles/judge_inexact.h).
  bool has_inexact_ops() const;
  int min_version() const;  // the lowest format version that can hold it
};

bool operator==(const Op& a, const Op& b);
bool operator==(const InputDecl& a, const InputDecl& b);
bool operator==(const Case& a, const Case& b);
inline bool operator!=(const Case& a, const Case& b) { return !(a == b); }

// The names an op uses (reads, or writes in place), and the one it mutates in
// place ("" if none). Lifetimes and hazards are built from these two.
std::vector<std::string> op_uses(const Op& op);
const std::string& op_mutated(const Op& op);

}  // namespace slicefuzz
