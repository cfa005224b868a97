// The version-4 mutators (symbols and executions): each "does not apply"
// cheaply on a case without symbols. The schedule is where the rewrite's bugs
// live below the bound: another execution, one fewer, a value moved to a
// range's edge or just past an input's bound, a range's bottom moved.
#include <algorithm>
#include <map>

#include "generators/dynamic_gen.h"
#include "generators/gen_weights.h"
#include "generators/mutator_util.h"

namespace slicefuzz::mut {

namespace {

bool sizes_an_input(const Case& c, size_t s) {
  for (const InputDecl& in : c.inputs)
    if (std::find(in.sym_sizes.begin(), in.sym_sizes.end(), static_cast<int>(s)) != in.sym_sizes.end())
      return true;
  return false;
}

// A value for symbol s: its bottom, its top, 1, anything in between, or (for
// a symbol that sizes an input, so the input check must refuse it) one past.
int64_t some_value(const Case& c, size_t s, Rng& rng) {
  const SymDecl& d = c.syms[s];
  switch (below(rng, 5)) {
    case 0: return d.lo;
    case 1: return d.hi;
    case 2: return std::clamp<int64_t>(1, d.lo, d.hi);
    case 3: return sizes_an_input(c, s) ? d.hi + 1 : d.hi;
    default: return d.lo + static_cast<int64_t>(below(rng, static_cast<size_t>(d.hi - d.lo + 1)));
  }
}

bool add_execution(Case& c, Rng& rng) {
  if (!c.is_dynamic() || c.runs.size() >= kMaxRuns) return false;
  Execution e;
  for (size_t s = 0; s < c.syms.size(); ++s) e.values.push_back(some_value(c, s, rng));
  c.runs.insert(c.runs.begin() + static_cast<std::ptrdiff_t>(below(rng, c.runs.size() + 1)), std::move(e));
  return true;
}

bool drop_execution(Case& c, Rng& rng) {
  if (!c.is_dynamic() || c.runs.size() < 2) return false;
  c.runs.erase(c.runs.begin() + static_cast<std::ptrdiff_t>(below(rng, c.runs.size())));
  return true;
}

bool change_execution_value(Case& c, Rng& rng) {
  if (!c.is_dynamic() || c.runs.empty()) return false;
  const size_t s = below(rng, c.syms.size());
  c.runs[below(rng, c.runs.size())].values[s] = some_value(c, s, rng);
  return true;
}

// A range's bottom to 0 (empty), 1 (decode) or half its top; the executions
// below it are lifted to it (nothing may go below a range: no input check could
// refuse it).
bool move_range_bottom(Case& c, Rng& rng) {
  if (!c.is_dynamic()) return false;
  const size_t s = below(rng, c.syms.size());
  SymDecl& d = c.syms[s];
  const int64_t choices[] = {0, std::min<int64_t>(1, d.hi), d.hi / 2};
  const int64_t lo = choices[below(rng, 3)];
  if (lo == d.lo) return false;
  d.lo = lo;
  for (Execution& e : c.runs) e.values[s] = std::max(e.values[s], lo);
  return true;
}

// A static copy-semantics case made dynamic, as the generator makes 40% of its
// version-4 cases (dynamic_gen.h): the fuzzer's way into dynamic programs from a
// static corpus (without it, a version-4 campaign seeded with static cases ran
// almost none). Does not apply to a dynamic case, an eager one, or when nothing
// fits. (The generator leaves version-1-shaped cases static only to keep its
// older streams byte-identical; a mutant has no stream to keep.)
bool make_dynamic(Case& c, Rng& rng) {
  if (c.is_dynamic() || c.has_eager_ops()) return false;
  Case d = gen::with_symbols(c, rng);
  if (!d.is_dynamic()) return false;
  c = std::move(d);
  return true;
}

}  // namespace

std::vector<CaseMutator> dynamic_mutators() {
  return {{"AddExecution", &add_execution, false},
          {"DropExecution", &drop_execution, false},
          {"ChangeExecutionValue", &change_execution_value, false},
          {"MoveRangeBottom", &move_range_bottom, false},
          {"MakeDynamic", &make_dynamic, false, kDynamicCaseVersion, true}};
}

}  // namespace slicefuzz::mut

namespace slicefuzz {

void keep_symbols_consistent(Case& c) {
  const int nsyms = static_cast<int>(c.syms.size());
  // The bound a mutator gave a dynamic dim (ChangeInputSize, the budget's
  // halving): its symbol's new top, for every dim it sizes.
  std::vector<int64_t> top(c.syms.size(), -1);
  for (InputDecl& in : c.inputs) {
    if (in.sym_sizes.empty()) continue;
    in.sym_sizes.resize(in.sizes.size(), -1);
    bool dynamic = false;
    for (size_t d = 0; d < in.sizes.size(); ++d) {
      int& s = in.sym_sizes[d];
      if (in.constant || s < -1 || s >= nsyms) s = -1;  // a constant is static
      if (s < 0) continue;
      dynamic = true;
      if (in.sizes[d] != c.syms[s].hi && top[s] < 0) top[s] = in.sizes[d];
    }
    if (!dynamic) in.sym_sizes.clear();
  }
  for (int s = 0; s < nsyms; ++s) {
    if (top[s] < 0) continue;
    SymDecl& d = c.syms[s];
    const int64_t old_hi = d.hi;
    // HugeBesideZero's 2^40 on a dynamic dim: a range no bigger than generation
    // makes (or than it was), so the judge can still enumerate its assignments.
    d.hi = std::min(top[s], std::max(old_hi, gen::weights::kDynamicMaxBound));
    d.lo = std::min(d.lo, d.hi);
    // An execution one past the top (the input check refuses it) stays one past.
    for (Execution& e : c.runs)
      if (static_cast<size_t>(s) < e.values.size())
        e.values[s] = std::clamp(e.values[s], d.lo, e.values[s] == old_hi + 1 ? d.hi + 1 : d.hi);
  }
  for (InputDecl& in : c.inputs)
    for (size_t d = 0; d < in.sym_sizes.size(); ++d)
      if (in.sym_sizes[d] >= 0) in.sizes[d] = c.syms[in.sym_sizes[d]].hi;
  // An op's symbolic arguments as the parser leaves them: a slot of the op's
  // kind that takes a symbol (ReplaceWithViewOp changes the kind), a declared
  // symbol, and the literal field behind it 0 (the placeholder until
  // concretised: ChangeSelectArgs or a refit writes a literal under a symbol,
  // which the printer never shows, so the mutant would not be its own parse).
  for (Op& op : c.ops) {
    auto stale = [&](const SymArg& a) {
      if (a.expr.sym < 0 || a.expr.sym >= nsyms) return true;
      for (const ArgSpec& spec : op_kind_info(op.kind).args)
        if (spec.slot == a.slot && role_takes_symbol(spec.role))
          return spec.kind == ArgKind::IntList ? a.entry < 0 || static_cast<size_t>(a.entry) >= op.ints.size()
                                               : a.entry != -1;
      return true;
    };
    op.sym_args.erase(std::remove_if(op.sym_args.begin(), op.sym_args.end(), stale), op.sym_args.end());
    for (const SymArg& a : op.sym_args) {
      if (a.entry >= 0) op.ints[a.entry] = 0;
      else if (a.slot == ArgSlot::Start || a.slot == ArgSlot::End) op_opt_int(op, a.slot) = 0;
      else op_int(op, a.slot) = 0;
    }
  }
}

void drop_writes_to_constants(Case& c) {
  if (std::none_of(c.inputs.begin(), c.inputs.end(), [](const InputDecl& in) { return in.constant; })) return;
  std::map<std::string, std::string> root;
  for (const InputDecl& in : c.inputs) root[in.name] = in.name;
  auto root_of = [&](const std::string& n) {
    auto it = root.find(n);
    return it == root.end() ? n : it->second;
  };
  for (size_t k = 0; k < c.ops.size();) {
    const Op& o = c.ops[k];
    const std::string& written = op_mutated(o);
    const InputDecl* in = written.empty() ? nullptr : c.find_input(root_of(written));
    if (in && in->constant) {
      c.ops.erase(c.ops.begin() + static_cast<std::ptrdiff_t>(k));
      continue;
    }
    if (op_defines(o.kind)) root[o.result] = op_is_view(o.kind) ? root_of(o.src) : o.result;
    ++k;
  }
}

}  // namespace slicefuzz
