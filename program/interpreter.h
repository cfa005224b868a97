// The op loop every evaluator shares: the copy path, the rewrite path, the naive
// reference and the torch oracle each supply one member function per op kind,
// named after the kind's enum (SliceCopy, SelectCopy, ...), and this loop owns
// dispatch, the failing-op protocol (DESIGN 1: the op the analysis says must fail
// must fail there, and nothing after it runs) and output collection. It holds no
// semantics, so both sides may use it (DESIGN 6). A new op kind in the table
// (program/case.h) is a compile error in every evaluator that lacks it.
#pragma once
#include <string>
#include <utility>

#include "program/case.h"
#include "program/path_result.h"
#include "program/program_info.h"

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

// Evaluator: OpStatus E(const Op&, const OpInfo&, int op_index) for every kind E;
// void before_op(int), void after_op(int) (after an op that ran and may continue);
// TensorValue output(int value).
template <class Evaluator>
OpStatus dispatch_op(Evaluator& ev, const Op& op, const OpInfo& oi, int k) {
  switch (op.kind) {
#define SLICEFUZZ_DISPATCH(e, name, version, eager, effect, alias) \
  case OpKind::e: return ev.e(op, oi, k);
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
