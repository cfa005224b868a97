#include "generators/dynamic_gen.h"

#include <algorithm>
#include <string>
#include <vector>

#include "generators/gen_weights.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"
#include "vocab/concretise.h"

namespace slicefuzz::gen {

namespace {

size_t pick(const std::vector<size_t>& weights, std::mt19937_64& rng) {
  size_t total = 0;
  for (size_t w : weights) total += w;
  if (total == 0) return 0;
  size_t r = rng() % total;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (r < weights[i]) return i;
    r -= weights[i];
  }
  return 0;
}

bool names_a_tensor(const Case& c, const std::string& n) {
  if (c.find_input(n)) return true;
  for (const Op& op : c.ops)
    if (op.result == n) return true;
  return false;
}

std::string fresh_symbol(const Case& c, const char* stem) {
  for (int k = 0;; ++k) {
    std::string n = std::string(stem) + (k ? std::to_string(k) : "");
    if (!names_a_tensor(c, n) && c.find_sym(n) < 0) return n;
  }
}

// A dim of an input becomes the symbol `S` with range [lo, size]: its bound is
// the size it had. False when no input has a dim of size >= 1.
bool add_dynamic_dim(Case& c, std::mt19937_64& rng) {
  std::vector<std::pair<size_t, size_t>> dims;
  for (size_t i = 0; i < c.inputs.size(); ++i)
    for (size_t d = 0; d < c.inputs[i].sizes.size(); ++d)
      if (c.inputs[i].sizes[d] >= 1 && c.inputs[i].sizes[d] <= weights::kDynamicMaxBound &&
          !c.inputs[i].constant)
        dims.emplace_back(i, d);
  if (dims.empty()) return false;
  const auto [i, d] = dims[rng() % dims.size()];
  InputDecl& in = c.inputs[i];
  const int64_t bound = in.sizes[d];
  SymDecl s;
  s.name = fresh_symbol(c, "S");
  s.hi = bound;
  // The range's bottom: 0 (an empty tensor), 1 (decode), half the bound.
  switch (pick(weights::kDynamicLow, rng)) {
    case 0: s.lo = 0; break;
    case 1: s.lo = std::min<int64_t>(1, bound); break;
    default: s.lo = bound / 2; break;
  }
  if (in.sym_sizes.empty()) in.sym_sizes.assign(in.sizes.size(), -1);
  in.sym_sizes[d] = static_cast<int>(c.syms.size());
  c.syms.push_back(std::move(s));
  return true;
}

// A literal position or extent of a slice, select or narrow becomes `P+K` of a
// runtime integer P whose range holds a value p0 at which the case is exactly
// what it was. False when no op has such an argument.
bool add_runtime_integer(Case& c, std::mt19937_64& rng) {
  struct Site {
    size_t op;
    ArgSlot slot;
    int64_t value;
  };
  std::vector<Site> sites;
  for (size_t k = 0; k < c.ops.size(); ++k) {
    const Op& op = c.ops[k];
    for (const ArgSpec& a : op_kind_info(op.kind).args) {
      if (!role_takes_symbol(a.role) || a.kind == ArgKind::IntList || op.sym_at(a.slot)) continue;
      int64_t v;
      if (a.kind == ArgKind::OptInt) {
        if (!op_opt_int(op, a.slot)) continue;
        v = *op_opt_int(op, a.slot);
      } else {
        v = op_int(op, a.slot);
      }
      if (v < -weights::kRuntimeIntegerSpan * 4 || v > weights::kRuntimeIntegerSpan * 64) continue;
      sites.push_back({k, a.slot, v});
    }
  }
  if (sites.empty()) return false;
  const Site site = sites[rng() % sites.size()];
  SymDecl p;
  p.name = fresh_symbol(c, "P");
  const int64_t width = 1 + static_cast<int64_t>(rng() % weights::kRuntimeIntegerSpan);
  const int64_t p0 = static_cast<int64_t>(rng() % static_cast<uint64_t>(width + 1));
  p.lo = 0;
  p.hi = width;
  SymArg arg;
  arg.slot = site.slot;
  arg.expr = SymExpr{static_cast<int>(c.syms.size()), site.value - p0};
  c.ops[site.op].sym_args.push_back(arg);
  c.syms.push_back(std::move(p));
  return true;
}

// An execution that sets an input past its bound in one dim and within it in
// another (as many elements as the bound allows or fewer): what the input check
// must refuse per dim (program.fbs), and a check of the element count alone
// (pytorch/executorch issue 20546) lets through. False when no input has two
// dynamic dims.
bool add_run_past_the_bound(Case& c, std::mt19937_64& rng) {
  for (const InputDecl& in : c.inputs) {
    std::vector<int> dims;
    for (size_t d = 0; d < in.sym_sizes.size(); ++d)
      if (in.sym_sizes[d] >= 0) dims.push_back(static_cast<int>(d));
    if (dims.size() < 2) continue;
    const int over = in.sym_sizes[dims[0]], under = in.sym_sizes[dims[1]];
    if (over == under || c.syms[under].lo < 1 || c.syms[under].hi < 2) continue;
    Execution e = c.runs.front();  // the bound
    // Halve one dim, double the other: the element count stays at the bound's.
    e.values[under] = std::max<int64_t>(c.syms[under].lo, c.syms[under].hi / 2);
    e.values[over] = c.syms[over].hi * (c.syms[under].hi / e.values[under]);
    if (e.values[over] <= c.syms[over].hi) continue;
    c.runs.insert(c.runs.begin() + 1 + static_cast<long>(rng() % c.runs.size()), std::move(e));
    return true;
  }
  return false;
}

// A second dynamic dim of the same input as the first one (another symbol).
bool add_second_dynamic_dim(Case& c) {
  for (InputDecl& in : c.inputs) {
    if (!in.is_dynamic()) continue;
    for (size_t d = 0; d < in.sizes.size(); ++d) {
      if (in.sym_sizes[d] >= 0 || in.sizes[d] < 2 || in.sizes[d] > weights::kDynamicMaxBound) continue;
      SymDecl s;
      s.name = fresh_symbol(c, "T");
      s.lo = 1;
      s.hi = in.sizes[d];
      in.sym_sizes[d] = static_cast<int>(c.syms.size());
      c.syms.push_back(std::move(s));
      return true;
    }
  }
  return false;
}

// An input the program never writes, with static sizes, becomes a constant (a
// weight, a RoPE table): its slices are alias candidates whose bytes are the
// program's, not the arena's. False when no input qualifies.
bool make_a_constant(Case& c, std::mt19937_64& rng) {
  std::vector<size_t> never_written;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const InputDecl& in = c.inputs[i];
    bool written = in.is_dynamic() || in.constant;
    for (const Op& op : c.ops) written = written || op.target == in.name;
    if (!written) never_written.push_back(i);
  }
  if (never_written.empty()) return false;
  c.inputs[never_written[rng() % never_written.size()]].constant = true;
  return true;
}

// The schedule: every symbol at its top (the bound), then below, then at its bottom.
void add_schedule(Case& c, std::mt19937_64& rng) {
  const size_t n = c.syms.size();
  Execution top, bottom;
  for (const SymDecl& s : c.syms) {
    top.values.push_back(s.hi);
    bottom.values.push_back(s.lo);
  }
  c.runs.push_back(top);
  const size_t middle = pick(weights::kDynamicMiddleRuns, rng);
  for (size_t r = 0; r < middle; ++r) {
    Execution e;
    for (size_t k = 0; k < n; ++k) {
      const SymDecl& s = c.syms[k];
      e.values.push_back(s.lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(s.hi - s.lo + 1)));
    }
    c.runs.push_back(std::move(e));
  }
  if (!(bottom == top)) c.runs.push_back(bottom);
}

}  // namespace

Case with_symbols(const Case& c, std::mt19937_64& rng) {
  if (c.has_eager_ops() || c.is_dynamic()) return c;
  Case k = c;
  k.version = kDynamicCaseVersion;
  switch (pick(weights::kDynamicKind, rng)) {
    case 0: add_dynamic_dim(k, rng); break;
    case 1: add_runtime_integer(k, rng); break;
    default:
      add_dynamic_dim(k, rng);
      add_runtime_integer(k, rng);
      break;
  }
  if (k.syms.empty()) return c;
  if (rng() % 100 < weights::kDynamicConstantPercent) make_a_constant(k, rng);
  const bool past_the_bound = rng() % 100 < weights::kDynamicPastBoundPercent && add_second_dynamic_dim(k);
  add_schedule(k, rng);
  if (past_the_bound) add_run_past_the_bound(k, rng);
  // Well formed at every assignment (the judge's analysis), or not at all.
  ParseResult p = parse_case(print_case(k), "<generated>");
  return p.ok ? p.c : c;
}

}  // namespace slicefuzz::gen
