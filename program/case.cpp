#include "program/case.h"

namespace slicefuzz {

bool operator==(const Op& a, const Op& b) {
  return a.kind == b.kind && a.result == b.result && a.src == b.src && a.target == b.target &&
         a.dim == b.dim && a.start == b.start && a.end == b.end && a.step == b.step &&
         a.scalar == b.scalar && a.index == b.index;
}

bool operator==(const Case& a, const Case& b) {
  return a.version == b.version && a.dtype == b.dtype && a.input == b.input && a.sizes == b.sizes &&
         a.dim_order == b.dim_order && a.ops == b.ops && a.outputs == b.outputs;
}

std::vector<int> Case::effective_dim_order() const {
  if (!dim_order.empty()) return dim_order;
  std::vector<int> id(sizes.size());
  for (size_t i = 0; i < id.size(); ++i) id[i] = static_cast<int>(i);
  return id;
}

const char* op_kind_name(OpKind k) {
  switch (k) {
#define SLICEFUZZ_OP_NAME(e, name, eager) \
  case OpKind::e: return name;
    SLICEFUZZ_OP_KINDS(SLICEFUZZ_OP_NAME)
#undef SLICEFUZZ_OP_NAME
  }
  return "?";
}

bool is_eager_op(OpKind k) {
  switch (k) {
#define SLICEFUZZ_OP_EAGER(e, name, eager) \
  case OpKind::e: return eager;
    SLICEFUZZ_OP_KINDS(SLICEFUZZ_OP_EAGER)
#undef SLICEFUZZ_OP_EAGER
  }
  return false;
}

bool Case::has_eager_ops() const {
  for (const Op& op : ops)
    if (is_eager_op(op.kind)) return true;
  return false;
}

std::vector<std::string> op_uses(const Op& op) {
  switch (op.kind) {
    case OpKind::SliceCopy:
    case OpKind::Slice:
    case OpKind::Select:
    case OpKind::AddOut:
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
