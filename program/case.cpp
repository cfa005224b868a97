#include "program/case.h"

namespace slicefuzz {

bool operator==(const Op& a, const Op& b) {
  return a.kind == b.kind && a.result == b.result && a.src == b.src && a.target == b.target &&
         a.dim == b.dim && a.start == b.start && a.end == b.end && a.step == b.step &&
         a.scalar == b.scalar;
}

bool operator==(const Case& a, const Case& b) {
  return a.dtype == b.dtype && a.input == b.input && a.sizes == b.sizes &&
         a.dim_order == b.dim_order && a.ops == b.ops && a.outputs == b.outputs;
}

std::vector<int> Case::effective_dim_order() const {
  if (!dim_order.empty()) return dim_order;
  std::vector<int> id(sizes.size());
  for (size_t i = 0; i < id.size(); ++i) id[i] = static_cast<int>(i);
  return id;
}

std::vector<std::string> op_uses(const Op& op) {
  switch (op.kind) {
    case OpKind::SliceCopy:
    case OpKind::Clone: return {op.src};
    case OpKind::Add: return {op.target};
    case OpKind::Copy: return {op.target, op.src};
  }
  return {};
}

const std::string& op_mutated(const Op& op) {
  static const std::string none;
  return op.kind == OpKind::Add || op.kind == OpKind::Copy ? op.target : none;
}

}  // namespace slicefuzz
