// The canonical printer of the .case format (the parser, case_format.cpp, in
// reverse): every version, one canonical text per case.
#include "vocab/case_format.h"

#include <algorithm>
#include <charconv>
#include <functional>

namespace slicefuzz {

namespace {
// The printer appends to one string (it prints every mutant the fuzzer makes:
// no temporary string per token, no copy of the case).
void append_int(std::string& s, int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, r.ptr);
}

template <class T>
void append_list(std::string& s, const std::vector<T>& v) {
  s += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    append_int(s, static_cast<int64_t>(v[i]));
  }
  s += ']';
}

void append_opt(std::string& s, const std::optional<int64_t>& v) {
  if (v) append_int(s, *v);
  else s += "None";
}

// `NAME`, `NAME+K`, `NAME-K` (version 4); without the case's symbols (print_op
// of a lone op) the symbol is written by its number, `sym0`.
void append_sym(std::string& s, const SymExpr& e, const std::vector<SymDecl>* syms) {
  if (syms && e.sym >= 0 && e.sym < static_cast<int>(syms->size())) s += (*syms)[e.sym].name;
  else {
    s += "sym";
    append_int(s, e.sym);
  }
  if (e.add > 0) s += '+';
  if (e.add != 0) append_int(s, e.add);
}

// A list whose entries may be symbols (list slot entries, an input's sizes).
void append_sized_list(std::string& s, const std::vector<int64_t>& v,
                       const std::function<const SymExpr*(int)>& sym_of,
                       const std::vector<SymDecl>* syms) {
  s += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    if (const SymExpr* e = sym_of(static_cast<int>(i))) append_sym(s, *e, syms);
    else append_int(s, v[i]);
  }
  s += ']';
}

// One argument after the first operand, as the schema writes it (the parser's
// op_arg, in reverse).
void append_arg(std::string& s, const ArgSpec& a, const Op& op, const std::vector<SymDecl>* syms) {
  const SymExpr* sym = op.sym_args.empty() ? nullptr : op.sym_at(a.slot);
  switch (a.kind) {
    case ArgKind::Tensor: s.append(", ").append(op.src); return;
    case ArgKind::NamedTensor: s.append(", ").append(a.name).append("=").append(op.other); return;
    case ArgKind::Scalar:
      s += ", ";
      append_int(s, op_int(op, a.slot));
      return;
    case ArgKind::Int:
      s.append(", ").append(a.name) += '=';
      if (sym) append_sym(s, *sym, syms);
      else append_int(s, op_int(op, a.slot));
      return;
    case ArgKind::OptInt:
      s.append(", ").append(a.name) += '=';
      if (sym) append_sym(s, *sym, syms);
      else append_opt(s, op_opt_int(op, a.slot));
      return;
    case ArgKind::DimList:
      if (op.single_dim && op.ints.size() == 1) {
        s += ", dim=";
        append_int(s, op.ints[0]);
        return;
      }
      [[fallthrough]];
    case ArgKind::IntList:
      s.append(", ").append(a.name) += '=';
      if (op.sym_args.empty()) append_list(s, op.ints);
      else append_sized_list(s, op.ints, [&](int k) { return op.sym_at(a.slot, k); }, syms);
      return;
    case ArgKind::DimOrder:
      if (!op.dim_order) return;
      s.append(", ").append(a.name) += '=';
      append_list(s, *op.dim_order);
      return;
  }
}

void append_op(std::string& s, const Op& op, const std::vector<SymDecl>* syms) {
  const OpKindInfo& info = op_kind_info(op.kind);
  if (info.effect == OpEffect::Mutates) s.append(info.name).append("(").append(op.target);
  else s.append(op.result).append(" = ").append(info.name).append("(").append(op.src);
  for (const ArgSpec& a : info.args) append_arg(s, a, op, syms);
  s += ')';
}
}  // namespace

std::string print_op(const Op& op) {
  std::string s;
  append_op(s, op, nullptr);
  return s;
}

std::string print_op(const Op& op, const Case& c) {
  std::string s;
  append_op(s, op, &c.syms);
  return s;
}

std::string print_case(const Case& c) {
  std::string s;
  s.reserve(64 + 64 * (c.inputs.size() + c.ops.size()));
  // A case read as version 1 prints as version 1, byte for byte; eager ops need 2.
  s += "slicefuzz-case ";
  append_int(s, std::max(c.version, c.min_version()));
  s.append("\ndtype ").append(scalar_type_name(c.dtype)) += '\n';
  for (const SymDecl& d : c.syms) {
    s.append("sym ").append(d.name).append(" in [");
    append_int(s, d.lo);
    s += ", ";
    append_int(s, d.hi);
    s += "]\n";
  }
  for (const InputDecl& in : c.inputs) {
    // Canonical as canonicalize() makes it, without copying the case.
    s.append(in.constant ? "const " : "input ").append(in.name) += ' ';
    if (!in.is_dynamic()) append_list(s, in.sizes);
    else
      append_sized_list(
          s, in.sizes,
          [&](int d) -> const SymExpr* {
            thread_local SymExpr e;
            // A mutant may have changed the rank under its symbols: dims past
            // sym_sizes are static (the fuzzer found this read past the end).
            if (static_cast<size_t>(d) >= in.sym_sizes.size() || in.sym_sizes[d] < 0) return nullptr;
            e = SymExpr{in.sym_sizes[d], 0};
            return &e;
          },
          &c.syms);
    if (in.dtype && !dtype_is_default(in, c.dtype)) s.append(" dtype=").append(scalar_type_name(*in.dtype));
    if (!in.dim_order.empty() && !order_is_identity(in)) {
      s += " dim_order=";
      append_list(s, in.dim_order);
    }
    s += '\n';
  }
  for (const Op& op : c.ops) {
    append_op(s, op, &c.syms);
    s += '\n';
  }
  s += "output ";
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    if (i) s += ", ";
    s += c.outputs[i];
  }
  s += '\n';
  for (const Execution& e : c.runs) {
    s += "run";
    for (size_t k = 0; k < e.values.size() && k < c.syms.size(); ++k) {
      s.append(" ").append(c.syms[k].name) += '=';
      append_int(s, e.values[k]);
    }
    s += '\n';
  }
  return s;
}

}  // namespace slicefuzz
