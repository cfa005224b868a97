// The op loop every evaluator shares: the copy path, the rewrite path, the naive
// reference and the torch oracle each supply one member function per op kind,
// named after the kind's enum (SliceCopy, SelectCopy, ...), and this loop owns
// dispatch, the failing-op protocol (DESIGN 1: the op the analysis says must fail
// must fail there, and nothing after it runs) and output collection. It holds no
// semantics, so both sides may use it (DESIGN 6). A new op kind in the table
// (vocab/case.h) is a compile error in every evaluator that lacks it.
#pragma once
#include <string>
#include <type_traits>
#include <utility>

#include "vocab/case.h"
#include "vocab/path_result.h"
#include "vocab/program_info.h"

namespace slicefuzz {

// What one op did: ok, or the error it raised (and whether it wrote its out first).
struct OpStatus {
  bool ok = true;
  std::string message;
  bool partial_write = false;
  static OpStatus success() { return {}; }
  static OpStatus error(std::string message, bool partial_write = false) {
    return {false, std::move(message), partial_write};
  }
};

// Whether an evaluator has its own member for kind E (detected, one trait per row).
namespace interpreter_detail {
#define SLICEFUZZ_HAS_OP_MEMBER(e, ...)                                        \
  template <class T, class = void>                                            \
  struct has_##e : std::false_type {};                                        \
  template <class T>                                                          \
  struct has_##e<T, std::void_t<decltype(&T::e)>> : std::true_type {};
SLICEFUZZ_OP_KINDS(SLICEFUZZ_HAS_OP_MEMBER)
#undef SLICEFUZZ_HAS_OP_MEMBER
}  // namespace interpreter_detail

// Evaluator: for every kind E either its own member OpStatus E(const Op&, const
// OpInfo&, int op_index), or the generic OpStatus schema_op(const Op&, const
// OpInfo&, int) that runs an op from the op table and the side's own per-op facts
// (a view-copy op: its view, its kernel by the table's name). An evaluator with
// neither for some row does not compile. Also void before_op(int), void
// after_op(int) (after an op that ran and may continue), TensorValue output(int).
template <class Evaluator>
OpStatus dispatch_op(Evaluator& ev, const Op& op, const OpInfo& oi, int k) {
  switch (op.kind) {
#define SLICEFUZZ_DISPATCH(e, ...)                                   \
  case OpKind::e:                                                    \
    if constexpr (interpreter_detail::has_##e<Evaluator>::value)     \
      return ev.e(op, oi, k);                                        \
    else                                                             \
      return ev.schema_op(op, oi, k);
    SLICEFUZZ_OP_KINDS(SLICEFUZZ_DISPATCH)
#undef SLICEFUZZ_DISPATCH
  }
  return OpStatus::error("unknown op kind");
}

template <class Evaluator>
PathResult interpret(const Case& c, const ProgramInfo& info, Evaluator& ev) {
  PathResult r;
  for (size_t i = 0; i < c.ops.size(); ++i) {
    const int k = static_cast<int>(i);
    ev.before_op(k);
    OpStatus st = dispatch_op(ev, c.ops[i], info.ops[i], k);
    if (!st.ok) {
      r.error_op = k;
      r.error_message = std::move(st.message);
      r.partial_write = st.partial_write;
      return r;
    }
    if (k == info.failing_op) {
      r.ran_past_failure = true;
      return r;
    }
    ev.after_op(k);
  }
  r.outputs.reserve(info.outputs.size());
  for (int v : info.outputs) r.outputs.push_back(ev.output(v));
  return r;
}

}  // namespace slicefuzz
