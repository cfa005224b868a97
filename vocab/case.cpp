#include "vocab/case.h"

#include <algorithm>

namespace slicefuzz {

bool operator==(const Op& a, const Op& b) { return a.fields() == b.fields(); }

bool operator==(const SymArg& a, const SymArg& b) { return a.fields() == b.fields(); }

bool operator==(const InputDecl& a, const InputDecl& b) {
  return a.name == b.name && a.sizes == b.sizes && a.dim_order == b.dim_order && a.dtype == b.dtype &&
         a.sym_sizes == b.sym_sizes && a.constant == b.constant;
}

bool operator==(const Case& a, const Case& b) {
  auto syms = [](const Case& c) {
    std::vector<std::tuple<std::string, int64_t, int64_t>> v;
    for (const SymDecl& d : c.syms) v.emplace_back(d.name, d.lo, d.hi);
    return v;
  };
  return a.version == b.version && a.dtype == b.dtype && a.inputs == b.inputs && a.ops == b.ops &&
         a.outputs == b.outputs && syms(a) == syms(b) && a.runs == b.runs;
}

const InputDecl* Case::find_input(const std::string& name) const {
  for (const InputDecl& in : inputs)
    if (in.name == name) return &in;
  return nullptr;
}

std::vector<int> InputDecl::effective_dim_order() const {
  if (!dim_order.empty()) return dim_order;
  std::vector<int> id(sizes.size());
  for (size_t i = 0; i < id.size(); ++i) id[i] = static_cast<int>(i);
  return id;
}

const char* op_kind_name(OpKind k) { return op_kind_info(k).name; }

std::optional<OpKind> op_kind_from_name(std::string_view name) {
  for (const OpKindInfo& row : kOpKinds)
    if (name == row.name) return row.kind;
  return std::nullopt;
}

int op_min_version(const Op& op) {
  // A trailing dim order (clone(SRC, dim_order=[...])) is a version-2 form.
  int v = op_kind_info(op.kind).min_version;
  for (const ArgSpec& a : op_kind_info(op.kind).args)
    if (a.kind == ArgKind::DimOrder && op.dim_order) v = std::max(v, 2);
  return v;
}

int Case::min_version() const {
  // Several inputs, or an input whose dtype is not the default, need version 2.
  int v = inputs.size() > 1 ? 2 : 1;
  for (const InputDecl& in : inputs)
    if (in.dtype && *in.dtype != dtype) v = 2;
  for (const Op& op : ops) v = std::max(v, op_min_version(op));
  // Symbols, constants and executions are version 4.
  if (!syms.empty() || !runs.empty() || has_constants()) v = std::max(v, kDynamicCaseVersion);
  for (const InputDecl& in : inputs)
    if (in.is_dynamic()) v = std::max(v, kDynamicCaseVersion);
  for (const Op& op : ops)
    if (!op.sym_args.empty()) v = std::max(v, kDynamicCaseVersion);
  return v;
}

bool Case::has_eager_ops() const {
  for (const Op& op : ops)
    if (is_eager_op(op.kind)) return true;
  return false;
}

bool Case::has_inexact_ops() const {
  for (const Op& op : ops)
    if (op.kind == OpKind::Sigmoid || op.kind == OpKind::Gelu) return true;
  return false;
}

std::vector<std::string> op_uses(const Op& op) {
  if (op.kind == OpKind::Copy) return {op.target, op.src};
  if (op_kind_info(op.kind).effect == OpEffect::Mutates) return {op.target};
  if (!op.other.empty()) return {op.src, op.other};
  return {op.src};
}

const std::string& op_mutated(const Op& op) {
  static const std::string none;
  return op_kind_info(op.kind).effect == OpEffect::Mutates ? op.target : none;
}

}  // namespace slicefuzz
