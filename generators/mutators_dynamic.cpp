// The version-4 mutators (symbols and executions): each "does not apply"
// cheaply on a case without symbols. The schedule is where the rewrite's bugs
// live below the bound: another execution, one fewer, a value moved to a
// range's edge or just past an input's bound, a range's bottom moved.
#include <algorithm>

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

}  // namespace

std::vector<CaseMutator> dynamic_mutators() {
  return {{"AddExecution", &add_execution, false},
          {"DropExecution", &drop_execution, false},
          {"ChangeExecutionValue", &change_execution_value, false},
          {"MoveRangeBottom", &move_range_bottom, false}};
}

}  // namespace slicefuzz::mut
