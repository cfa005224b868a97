#include "vocab/concretise.h"

namespace slicefuzz {

namespace {
bool sum(int64_t a, int64_t b, int64_t& out) { return !__builtin_add_overflow(a, b, &out); }
}  // namespace

std::vector<int64_t> input_sizes_at(const InputDecl& in, const std::vector<int64_t>& values) {
  std::vector<int64_t> sizes = in.sizes;
  for (size_t d = 0; d < in.sym_sizes.size() && d < sizes.size(); ++d)
    if (in.sym_sizes[d] >= 0 && static_cast<size_t>(in.sym_sizes[d]) < values.size())
      sizes[d] = values[in.sym_sizes[d]];
  return sizes;
}

bool concretise(const Case& c, const std::vector<int64_t>& values, Case& out, std::string& why) {
  if (values.size() != c.syms.size()) {
    why = "an execution gives " + std::to_string(values.size()) + " values for " +
          std::to_string(c.syms.size()) + " symbols";
    return false;
  }
  out = c;
  out.syms.clear();
  out.runs.clear();
  for (InputDecl& in : out.inputs) {
    const std::vector<int64_t> sizes = input_sizes_at(in, values);
    for (size_t d = 0; d < in.sym_sizes.size() && d < sizes.size(); ++d)
      if (in.sym_sizes[d] >= 0 && sizes[d] < 0) {
        why = "input '" + in.name + "' dim " + std::to_string(d) + " would have size " +
              std::to_string(sizes[d]) + " (symbol '" + c.syms[in.sym_sizes[d]].name + "')";
        return false;
      }
    in.sizes = sizes;
    in.sym_sizes.clear();
  }
  for (Op& op : out.ops) {
    for (const SymArg& a : op.sym_args) {
      int64_t v;
      if (!sum(values[a.expr.sym], a.expr.add, v)) {
        why = "'" + c.syms[a.expr.sym].name + (a.expr.add > 0 ? "+" : "") + std::to_string(a.expr.add) +
              "' leaves the int64 range";
        return false;
      }
      switch (a.slot) {
        case ArgSlot::Start: op.start = v; break;
        case ArgSlot::End: op.end = v; break;
        case ArgSlot::Ints:
          if (a.entry >= 0 && static_cast<size_t>(a.entry) < op.ints.size()) op.ints[a.entry] = v;
          break;
        default: op_int(op, a.slot) = v; break;
      }
    }
    op.sym_args.clear();
  }
  out.version = out.min_version();
  return true;
}

bool in_range(const Case& c, const std::vector<int64_t>& values) {
  if (values.size() != c.syms.size()) return false;
  for (size_t k = 0; k < values.size(); ++k)
    if (values[k] < c.syms[k].lo || values[k] > c.syms[k].hi) return false;
  return true;
}

int64_t assignment_count(const Case& c) {
  int64_t n = 1;
  for (const SymDecl& d : c.syms) {
    const int64_t width = d.hi - d.lo + 1;
    if (width <= 0) return 0;
    if (__builtin_mul_overflow(n, width, &n)) return INT64_MAX;
  }
  return n;
}

void for_each_assignment(const Case& c, const std::function<bool(const std::vector<int64_t>&)>& visit) {
  if (assignment_count(c) == 0) return;
  std::vector<int64_t> v(c.syms.size());
  for (size_t k = 0; k < v.size(); ++k) v[k] = c.syms[k].lo;
  while (true) {
    if (!visit(v)) return;
    size_t k = v.size();
    while (k > 0) {
      --k;
      if (v[k] < c.syms[k].hi) {
        ++v[k];
        break;
      }
      v[k] = c.syms[k].lo;
      if (k == 0) return;
    }
    if (v.empty()) return;
  }
}

size_t assignment_index(const Case& c, const std::vector<int64_t>& values) {
  size_t index = 0;
  for (size_t k = 0; k < c.syms.size(); ++k)
    index = index * static_cast<size_t>(c.syms[k].hi - c.syms[k].lo + 1) + static_cast<size_t>(values[k] - c.syms[k].lo);
  return index;
}

std::string describe_execution(const Case& c, const std::vector<int64_t>& values) {
  std::string s;
  for (size_t k = 0; k < values.size() && k < c.syms.size(); ++k)
    s += (k ? " " : "") + c.syms[k].name + "=" + std::to_string(values[k]);
  return s;
}

}  // namespace slicefuzz
