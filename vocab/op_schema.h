// The op vocabulary: one table of op kinds, each with a typed argument schema
// (in the spirit of ExecuTorch's functions.yaml and aten's schema strings). The
// parser, the printer, the exporters, the minimiser's generic reductions and
// explain read an op's arguments from here, never per op; an op's semantics
// (its kernel, its judge facts) live with each side (README "Adding an op").
// Shared vocabulary: both sides read it; it holds no semantics.
#pragma once
#include <cstddef>
#include <cstdint>

namespace slicefuzz {

// How an argument is written in .case text after the op's first operand.
enum class ArgKind : uint8_t {
  Tensor,    // `, NAME` (copy_'s source)
  NamedTensor,  // `, name=NAME` (a defining op's second tensor: index_copy's source)
  Scalar,    // `, INT`, positional (add_'s, add's and mul's scalar)
  Int,       // `, name=INT`
  OptInt,    // `, name=INT` or `, name=None`
  IntList,   // `, name=[INT, ...]`
  DimList,   // `, name=[INT, ...]`, or its one-entry spelling `, dim=INT`
  DimOrder,  // optional trailing `, name=[PERM]` (entries 0..15; version 2)
};

// Where an argument lives in `Op` (vocab/case.h). Each slot has one C++ type:
// Src and Other a name; Dim, Index, Length, Step and Scalar an int64; Start and
// End an optional int64; Ints a list (with Op::single_dim for DimList's one-entry
// spelling); DimOrder an optional permutation.
enum class ArgSlot : uint8_t { Src, Dim, Start, End, Step, Index, Length, Scalar, Ints, DimOrder, Other };

// What an argument means, for the generic parts that shrink and mutate it
// (harness/triage/minimizer.cpp, generators/mutator*.cpp) without knowing the op.
enum class ArgRole : uint8_t {
  Operand,   // a tensor
  Dim,       // a dim of the source (negative counts from the end)
  Position,  // a position along `dim` (start, end, index)
  Extent,    // a count along `dim` (length)
  Step,      // a stride along `dim` (> 0)
  Scalar,    // a value
  Sizes,     // a result's sizes
  Positions, // positions along `dim` (index_copy's index: an int64 index tensor)
  Dims,      // dims of the source
  Layout,    // a dim order
  NewDim,    // a dim of the result, which has one more (unsqueeze's: in [-(rank+1), rank])
  Permutation,  // every dim of the source once, in the result's order (permute's dims)
};

struct ArgSpec {
  const char* name;  // as written in .case text (`dim`, `start`, ...) and in exports
  ArgKind kind;
  ArgSlot slot;
  ArgRole role;
};

// A span of ArgSpecs: an op's arguments after its first operand, in order.
struct ArgList {
  const ArgSpec* data = nullptr;
  size_t size = 0;
  constexpr const ArgSpec* begin() const { return data; }
  constexpr const ArgSpec* end() const { return data + size; }
};
template <size_t N>
constexpr ArgList arg_list(const ArgSpec (&a)[N]) { return ArgList{a, N}; }
constexpr ArgList arg_list(ArgList a) { return a; }

namespace op_args {
using K = ArgKind;
using S = ArgSlot;
using R = ArgRole;
inline constexpr ArgSpec kSlice[] = {{"dim", K::Int, S::Dim, R::Dim},
                                     {"start", K::OptInt, S::Start, R::Position},
                                     {"end", K::OptInt, S::End, R::Position},
                                     {"step", K::Int, S::Step, R::Step}};
inline constexpr ArgSpec kSelect[] = {{"dim", K::Int, S::Dim, R::Dim},
                                      {"index", K::Int, S::Index, R::Position}};
inline constexpr ArgSpec kScalar[] = {{"other", K::Scalar, S::Scalar, R::Scalar}};
inline constexpr ArgSpec kCopySource[] = {{"src", K::Tensor, S::Src, R::Operand}};
inline constexpr ArgSpec kClone[] = {{"dim_order", K::DimOrder, S::DimOrder, R::Layout}};
inline constexpr ArgSpec kSqueeze[] = {{"dims", K::DimList, S::Ints, R::Dims}};
inline constexpr ArgSpec kUnsqueeze[] = {{"dim", K::Int, S::Dim, R::NewDim}};
inline constexpr ArgSpec kView[] = {{"sizes", K::IntList, S::Ints, R::Sizes}};
// aten::narrow_copy(Tensor self, int dim, SymInt start, SymInt length): the start
// lives in the Index slot (a position along dim, as select's index).
inline constexpr ArgSpec kNarrow[] = {{"dim", K::Int, S::Dim, R::Dim},
                                      {"start", K::Int, S::Index, R::Position},
                                      {"length", K::Int, S::Length, R::Extent}};
// aten::expand_copy(Tensor self, SymInt[] size, *, bool implicit=False): implicit
// is always False (its default; ExecuTorch refuses True).
inline constexpr ArgSpec kExpand[] = {{"sizes", K::IntList, S::Ints, R::Sizes}};
// aten::index_copy(Tensor self, int dim, Tensor index, Tensor source): the index
// tensor (int64, one dimension) is written as its entries, so a runtime integer
// (version 4) can be one of them: `index=[p]`, a KV cache's input_pos.
inline constexpr ArgSpec kIndexCopy[] = {{"dim", K::Int, S::Dim, R::Dim},
                                         {"index", K::IntList, S::Ints, R::Positions},
                                         {"source", K::NamedTensor, S::Other, R::Operand}};
// aten::index_put(Tensor self, Tensor?[] indices, Tensor values, bool
// accumulate=False) with one index tensor, at `dim` (indices = [None] * dim +
// [index]: `cache[:, pos] = k`, what torch.export gives a KV cache's update):
// written like index_copy, its values broadcast to the indexed shape.
inline constexpr ArgSpec kIndexPut[] = {{"dim", K::Int, S::Dim, R::Dim},
                                        {"index", K::IntList, S::Ints, R::Positions},
                                        {"values", K::NamedTensor, S::Other, R::Operand}};
// aten::permute_copy(Tensor self, int[] dims): the result's dim j is the source's
// dim dims[j] (negative counts from the end). An et_view alias where dense (a
// size-1 dim moved); et_view takes sizes only, so its guard is asked nothing of
// a permute that reorders elements (judge::op_keeps_element_order).
inline constexpr ArgSpec kPermute[] = {{"dims", K::IntList, S::Ints, R::Permutation}};
// add and mul of two tensors (aten's add.Tensor with alpha 1, mul.Tensor): the
// overloads of add(SRC, INT) and mul(SRC, INT), told apart by the argument's
// form, `other=NAME`. One dtype and one size (slicefuzz programs neither cast
// nor broadcast).
inline constexpr ArgSpec kOtherTensor[] = {{"other", K::NamedTensor, S::Other, R::Operand}};
// An op with no argument after its operand (relu, sigmoid, gelu: gelu is
// aten::gelu with approximate="none", the tanh form is not in the case language).
inline constexpr ArgList kNone{};
}  // namespace op_args

// One table for the op kinds. Columns: the enum; the name in .case text; the
// first format version that has it; whether it is an eager op (version 2 eager
// programs, for backends that declare eager_ops: true views and an out-of-place
// add); what it does with its operands (Defines: NAME = op(SRC, ...); Mutates:
// op(TARGET, ...) in place); for a copy op that a pass may re-inplace as an
// alias, the alias prim op it becomes ("" for none); its arguments after the
// first operand (op_args above); the project's kernel that runs it on the copy
// path (kernels/kernels.h, "" for eager ops); and torch's view op of a view-copy
// or eager view op (what the exporters and the generic torch evaluator call;
// "" where the judge spells it out itself); and the ExecuTorch operator a .pte
// program calls for it, "name.overload" as kernels/portable/functions.yaml
// declares it (checked against pytorch/executorch cff6f4dd, that file; "" for
// the eager ops, which no ExecuTorch program here holds). Everything that
// parses, prints, labels or decides on an op reads this table.
#define SLICEFUZZ_OP_KINDS(X)                                                                    \
  X(SliceCopy, "slice_copy", 1, false, Defines, "et_slice", kSlice, "slice_copy_Tensor_out",     \
    "slice", "aten::slice_copy.Tensor_out")                                                      \
  X(Add, "add_", 1, false, Mutates, "", kScalar, "add_scalar_", "", "aten::add.Scalar_out")      \
  X(Clone, "clone", 1, false, Defines, "", kClone, "clone_out", "", "aten::clone.out")           \
  X(Copy, "copy_", 1, false, Mutates, "", kCopySource, "copy_", "", "aten::copy_")               \
  X(Slice, "slice", 2, true, Defines, "", kSlice, "", "slice", "")                               \
  X(Select, "select", 2, true, Defines, "", kSelect, "", "select", "")                           \
  X(AddOut, "add", 2, true, Defines, "", kScalar, "", "", "")                                    \
  X(SelectCopy, "select_copy", 2, false, Defines, "et_select", kSelect, "select_copy_int_out",   \
    "select.int", "aten::select_copy.int_out")                                                       \
  X(SqueezeCopy, "squeeze_copy", 2, false, Defines, "et_view", kSqueeze, "squeeze_copy_dims_out", \
    "", "aten::squeeze_copy.dims_out")                                                           \
  X(UnsqueezeCopy, "unsqueeze_copy", 2, false, Defines, "et_view", kUnsqueeze,                   \
    "unsqueeze_copy_out", "unsqueeze", "aten::unsqueeze_copy.out")                               \
  X(ViewCopy, "view_copy", 2, false, Defines, "et_view", kView, "view_copy_out", "",             \
    "aten::view_copy.out")                                                                       \
  X(NarrowCopy, "narrow_copy", 3, false, Defines, "et_slice", kNarrow, "narrow_copy_out", "narrow", \
    "aten::narrow_copy.out")                                                                     \
  X(ExpandCopy, "expand_copy", 3, false, Defines, "et_view", kExpand, "expand_copy_out", "expand", \
    "aten::expand_copy.out")                                                                     \
  X(Relu, "relu", 2, true, Defines, "", kNone, "", "", "")                                       \
  X(IndexCopy, "index_copy", 2, true, Defines, "", kIndexCopy, "", "", "")                       \
  X(IndexPut, "index_put", 2, true, Defines, "", kIndexPut, "", "", "")                         \
  X(PermuteCopy, "permute_copy", 4, false, Defines, "et_view", kPermute, "permute_copy_out",     \
    "permute", "aten::permute_copy.out")                                                         \
  X(MulOut, "mul", 4, true, Defines, "", kScalar, "", "", "")                                  \
  X(Sigmoid, "sigmoid", 4, true, Defines, "", kNone, "", "", "")                                 \
  X(Gelu, "gelu", 4, true, Defines, "", kNone, "", "", "")                                       \
  X(AddTensor, "add", 4, true, Defines, "", kOtherTensor, "", "", "")                            \
  X(MulTensor, "mul", 4, true, Defines, "", kOtherTensor, "", "", "")

enum class OpEffect : uint8_t { Defines, Mutates };

enum class OpKind {
#define SLICEFUZZ_OP_ENUM(e, ...) e,
  SLICEFUZZ_OP_KINDS(SLICEFUZZ_OP_ENUM)
#undef SLICEFUZZ_OP_ENUM
};

struct OpKindInfo {
  OpKind kind;
  const char* name;
  int min_version;
  bool eager;
  OpEffect effect;
  const char* alias_prim;  // "" when the op is never re-inplaced
  ArgList args;            // after the first operand (SRC, or TARGET for an in-place op)
  const char* kernel;      // the copy path's kernel (kernels/kernels.h); "" for eager ops
  const char* torch_view;  // torch.ops.aten.<this>: the op's view in torch; "" if none is named
  const char* et_op;       // ExecuTorch's operator, "aten::x.overload"; "" for eager ops
};
inline constexpr OpKindInfo kOpKinds[] = {
#define SLICEFUZZ_OP_ROW(e, name, version, eager, effect, alias, args, kernel, torch_view, et_op) \
  {OpKind::e, name, version, eager, OpEffect::effect, alias, arg_list(op_args::args), kernel, torch_view, et_op},
    SLICEFUZZ_OP_KINDS(SLICEFUZZ_OP_ROW)
#undef SLICEFUZZ_OP_ROW
};
inline constexpr int kNumOpKinds = static_cast<int>(sizeof kOpKinds / sizeof kOpKinds[0]);
inline constexpr const OpKindInfo& op_kind_info(OpKind k) { return kOpKinds[static_cast<int>(k)]; }

// The newest case format version this build reads and writes.
inline constexpr int kLatestCaseVersion = [] {
  int v = 2;
  for (const OpKindInfo& row : kOpKinds) v = row.min_version > v ? row.min_version : v;
  return v;
}();

// Each argument's kind fits its slot's C++ type, and an in-place op's first
// operand is its target: checked when the table is compiled.
constexpr bool arg_fits_slot(const ArgSpec& a) {
  switch (a.kind) {
    case ArgKind::Tensor: return a.slot == ArgSlot::Src;
    case ArgKind::NamedTensor: return a.slot == ArgSlot::Other;
    case ArgKind::Scalar:
    case ArgKind::Int:
      return a.slot == ArgSlot::Dim || a.slot == ArgSlot::Index || a.slot == ArgSlot::Length ||
             a.slot == ArgSlot::Step || a.slot == ArgSlot::Scalar;
    case ArgKind::OptInt: return a.slot == ArgSlot::Start || a.slot == ArgSlot::End;
    case ArgKind::IntList:
    case ArgKind::DimList: return a.slot == ArgSlot::Ints;
    case ArgKind::DimOrder: return a.slot == ArgSlot::DimOrder;
  }
  return false;
}
constexpr bool op_table_is_well_typed() {
  for (const OpKindInfo& row : kOpKinds) {
    for (const ArgSpec& a : row.args)
      if (!arg_fits_slot(a)) return false;
    // Defining ops take their source as the first operand, never as an argument.
    for (const ArgSpec& a : row.args)
      if (row.effect == OpEffect::Defines && a.kind == ArgKind::Tensor) return false;
  }
  return true;
}
static_assert(op_table_is_well_typed(), "an op argument's kind does not fit its slot");

}  // namespace slicefuzz
