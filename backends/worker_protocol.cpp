#include "backends/worker_protocol.h"

namespace slicefuzz {

bool in_worker_protocol(OpKind kind) {
  switch (kind) {
    case OpKind::SliceCopy:
    case OpKind::Add:
    case OpKind::Clone:
    case OpKind::Copy:
    case OpKind::Slice:
    case OpKind::Select:
    case OpKind::AddOut:
    case OpKind::MulOut:
    case OpKind::SelectCopy:
    case OpKind::UnsqueezeCopy:
    case OpKind::ViewCopy:
    case OpKind::NarrowCopy:
    case OpKind::ExpandCopy:
    case OpKind::Relu:
    case OpKind::Sigmoid:
    case OpKind::Gelu:
    case OpKind::AddTensor:
    case OpKind::MulTensor:
    case OpKind::IndexCopy:
    case OpKind::IndexPut:
    case OpKind::PermuteCopy:
      return true;
    case OpKind::SqueezeCopy:
      return false;
  }
  return false;  // a kind added to the op table is outside until listed above
}

std::string outside_worker_protocol_ops(const Case& c) {
  if (c.inputs.size() != 1) return "the worker protocol carries one input";
  for (const Op& op : c.ops) {
    if (!in_worker_protocol(op.kind)) return std::string(op_kind_name(op.kind)) + " is not in the worker protocol";
    if (op.kind == OpKind::Clone && op.dim_order) return "clone(dim_order=...) is not in the worker protocol";
  }
  return "";
}

}  // namespace slicefuzz
