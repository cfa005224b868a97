#include "harness/triage/minimize_dynamic.h"

#include <algorithm>
#include <string>

#include "vocab/concretise.h"

namespace slicefuzz {

namespace {

bool symbol_used(const Case& c, int s) {
  for (const InputDecl& in : c.inputs)
    if (std::find(in.sym_sizes.begin(), in.sym_sizes.end(), s) != in.sym_sizes.end()) return true;
  for (const Op& op : c.ops)
    for (const SymArg& a : op.sym_args)
      if (a.expr.sym == s) return true;
  return false;
}

// Case `c` without symbol `s` (used nowhere): the later symbols renumbered.
Case without_symbol(const Case& c, int s) {
  Case k = c;
  k.syms.erase(k.syms.begin() + s);
  for (Execution& e : k.runs) e.values.erase(e.values.begin() + s);
  for (InputDecl& in : k.inputs)
    for (int& x : in.sym_sizes) x = x > s ? x - 1 : x;
  for (Op& op : k.ops)
    for (SymArg& a : op.sym_args) a.expr.sym = a.expr.sym > s ? a.expr.sym - 1 : a.expr.sym;
  return k;
}

}  // namespace

std::vector<Case> dynamic_candidates(const Case& c) {
  std::vector<Case> out;
  if (!c.is_dynamic()) return out;
  std::string why;
  // One execution alone, static: the simplest reproducer there is.
  for (const Execution& e : c.runs) {
    if (!in_range(c, e.values)) continue;
    Case k;
    if (concretise(c, e.values, k, why)) out.push_back(std::move(k));
  }
  for (size_t r = c.runs.size(); c.runs.size() > 1 && r-- > 0;) {  // fewer executions
    Case k = c;
    k.runs.erase(k.runs.begin() + static_cast<std::ptrdiff_t>(r));
    out.push_back(std::move(k));
  }
  for (size_t s = 0; s < c.syms.size(); ++s) {
    if (!symbol_used(c, static_cast<int>(s))) {
      out.push_back(without_symbol(c, static_cast<int>(s)));
      continue;
    }
    // A range of one value: the dims it sizes made static at that value (then,
    // once its arguments are literal too, the symbol goes as unused).
    if (c.syms[s].lo == c.syms[s].hi) {
      Case k = c;
      bool sized = false;
      for (InputDecl& in : k.inputs)
        for (size_t d = 0; d < in.sym_sizes.size() && d < in.sizes.size(); ++d)
          if (in.sym_sizes[d] == static_cast<int>(s)) in.sym_sizes[d] = -1, in.sizes[d] = c.syms[s].hi, sized = true;
      if (sized) out.push_back(std::move(k));
    }
    // The range narrowed to the values the executions within it give (an input
    // dim sized by the symbol keeps the range's top as its bound).
    int64_t lo = c.syms[s].hi, hi = c.syms[s].lo;
    for (const Execution& e : c.runs)
      if (e.values[s] >= c.syms[s].lo && e.values[s] <= c.syms[s].hi)
        lo = std::min(lo, e.values[s]), hi = std::max(hi, e.values[s]);
    if (lo <= hi && (lo != c.syms[s].lo || hi != c.syms[s].hi)) {
      Case k = c;
      k.syms[s].lo = lo;
      k.syms[s].hi = hi;
      for (InputDecl& in : k.inputs)
        for (size_t d = 0; d < in.sym_sizes.size() && d < in.sizes.size(); ++d)
          if (in.sym_sizes[d] == static_cast<int>(s)) in.sizes[d] = hi;
      out.push_back(std::move(k));
    }
  }
  // A symbolic argument made the literal the first execution gives it.
  if (!c.runs.empty())
    for (size_t i = 0; i < c.ops.size(); ++i)
      for (size_t a = 0; a < c.ops[i].sym_args.size(); ++a) {
        Case one;
        if (!concretise(c, c.runs.front().values, one, why)) break;
        Case k = c;
        const SymArg arg = k.ops[i].sym_args[a];
        k.ops[i].sym_args.erase(k.ops[i].sym_args.begin() + static_cast<std::ptrdiff_t>(a));
        const Op& lit = one.ops[i];
        Op& op = k.ops[i];
        switch (arg.slot) {
          case ArgSlot::Start: op.start = lit.start; break;
          case ArgSlot::End: op.end = lit.end; break;
          case ArgSlot::Ints:
            if (arg.entry >= 0 && static_cast<size_t>(arg.entry) < op.ints.size() &&
                static_cast<size_t>(arg.entry) < lit.ints.size())
              op.ints[arg.entry] = lit.ints[arg.entry];
            break;
          default: op_int(op, arg.slot) = op_int(lit, arg.slot); break;
        }
        out.push_back(std::move(k));
      }
  return out;
}

}  // namespace slicefuzz
