#include "generators/mutator.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "generators/interesting_values.h"
#include "oracles/analysis.h"
#include "program/program_info.h"
#include "program/case_format.h"

namespace slicefuzz {

namespace {

using Rng = std::mt19937_64;

size_t below(Rng& rng, size_t n) { return n ? static_cast<size_t>(rng() % n) : 0; }
bool chance(Rng& rng, int percent) { return static_cast<int>(rng() % 100) < percent; }
template <typename T>
const T& pick(Rng& rng, const std::vector<T>& v) { return v[below(rng, v.size())]; }

// Names defined before op `k` (the input first).
std::vector<std::string> defined_before(const Case& c, size_t k) {
  std::vector<std::string> names{c.input};
  for (size_t i = 0; i < k && i < c.ops.size(); ++i)
    if (!c.ops[i].result.empty()) names.push_back(c.ops[i].result);
  return names;
}

// Sizes of every value (unknown values: the input's), for choosing interesting args.
std::vector<int64_t> sizes_of(const Case& c, const std::string& name) {
  ProgramInfo info;
  AnalysisError err;
  if (analyze(c, int64_t{1} << 62, info, err))
    for (const ValueInfo& v : info.values)
      if (v.name == name && v.known) return v.sizes;
  return c.sizes;
}

std::string fresh_name(const Case& c) {
  std::set<std::string> used{c.input};
  for (const Op& op : c.ops) used.insert(op.result);
  for (int i = 0;; ++i) {
    std::string n = "t" + std::to_string(i);
    if (!used.count(n)) return n;
  }
}

void mutate_size(Case& c, Rng& rng) {
  if (c.sizes.empty()) return;
  int64_t& s = c.sizes[below(rng, c.sizes.size())];
  const std::vector<int64_t> options{0, 1, 2, 3, 5, 7, 11, 13, s + 1, s > 0 ? s - 1 : 0, s * 2};
  s = pick(rng, options);
}

void mutate_dim_order(Case& c, Rng& rng) {
  const int r = static_cast<int>(c.sizes.size());
  if (r < 2) return;
  std::vector<int> order = c.effective_dim_order();
  switch (below(rng, 4)) {
    case 0: std::swap(order[below(rng, r)], order[below(rng, r)]); break;
    case 1: order.clear(); break;
    case 2: std::shuffle(order.begin(), order.end(), rng); break;
    default: {
      // Move a size-1 dim elsewhere: same memory layout, different dim order.
      std::vector<int> ones;
      for (int d = 0; d < r; ++d)
        if (c.sizes[d] == 1) ones.push_back(d);
      if (ones.empty()) c.sizes[below(rng, r)] = 1;
      else std::swap(order[std::find(order.begin(), order.end(), pick(rng, ones)) - order.begin()],
                     order[below(rng, r)]);
    }
  }
  c.dim_order = order;
  if (r == 4 && chance(rng, 20)) c.dim_order = {0, 2, 3, 1};  // channels-last
  canonicalize(c);
}

void mutate_slice_arg(Case& c, Rng& rng) {
  std::vector<size_t> slices;
  for (size_t i = 0; i < c.ops.size(); ++i)
    if (c.ops[i].kind == OpKind::SliceCopy) slices.push_back(i);
  if (slices.empty()) return;
  Op& op = c.ops[pick(rng, slices)];
  const std::vector<int64_t> sizes = sizes_of(c, op.src);
  const int64_t r = static_cast<int64_t>(sizes.size());
  const int64_t d = r ? ((op.dim % r) + r) % r : 0;
  const int64_t size = r ? sizes[d] : 0;
  switch (below(rng, 4)) {
    case 0: op.start = pick(rng, interesting_slice_indices(size)); break;
    case 1: op.end = pick(rng, interesting_slice_indices(size)); break;
    case 2: op.step = pick(rng, interesting_steps(size, chance(rng, 10))); break;
    default: {
      const std::vector<int64_t> dims{0, r - 1, -1, -r, r, -r - 1, static_cast<int64_t>(below(rng, r + 1))};
      op.dim = pick(rng, dims);
    }
  }
}

Op random_op(const Case& c, size_t at, Rng& rng) {
  const std::vector<std::string> names = defined_before(c, at);
  Op op;
  switch (below(rng, 5)) {
    case 0:
    case 1: {
      op.kind = OpKind::SliceCopy;
      op.src = pick(rng, names);
      const std::vector<int64_t> sizes = sizes_of(c, op.src);
      const int64_t r = std::max<int64_t>(1, static_cast<int64_t>(sizes.size()));
      op.dim = static_cast<int64_t>(below(rng, r));
      const int64_t size = sizes.empty() ? 0 : sizes[op.dim];
      op.start = chance(rng, 50) ? std::optional<int64_t>(below(rng, size + 1)) : pick(rng, interesting_slice_indices(size));
      op.end = chance(rng, 50) ? std::optional<int64_t>(below(rng, size + 1)) : pick(rng, interesting_slice_indices(size));
      op.step = chance(rng, 70) ? 1 : pick(rng, interesting_steps(size, false));
      break;
    }
    case 2: op.kind = OpKind::Clone, op.src = pick(rng, names); break;
    case 3: op.kind = OpKind::Add, op.target = pick(rng, names), op.scalar = static_cast<int64_t>(below(rng, 9)) - 3; break;
    default: op.kind = OpKind::Copy, op.target = pick(rng, names), op.src = pick(rng, names); break;
  }
  if (op.kind == OpKind::SliceCopy || op.kind == OpKind::Clone) op.result = fresh_name(c);
  return op;
}

void mutate_once(Case& c, Rng& rng) {
  switch (below(rng, 12)) {
    case 0: mutate_size(c, rng); break;
    case 1: mutate_dim_order(c, rng); break;
    case 2:
    case 3: mutate_slice_arg(c, rng); break;
    case 4: c.dtype = static_cast<ScalarType>(below(rng, kNumScalarTypes)); break;
    case 5: {  // insert an op
      const size_t at = below(rng, c.ops.size() + 1);
      Op op = random_op(c, at, rng);
      c.ops.insert(c.ops.begin() + static_cast<std::ptrdiff_t>(at), op);
      if (!op.result.empty() && chance(rng, 30)) c.outputs.push_back(op.result);
      break;
    }
    case 6:  // delete an op (repair re-sources its readers)
      if (!c.ops.empty()) c.ops.erase(c.ops.begin() + static_cast<std::ptrdiff_t>(below(rng, c.ops.size())));
      break;
    case 7:  // reorder: swap neighbours
      if (c.ops.size() >= 2) {
        const size_t i = below(rng, c.ops.size() - 1);
        std::swap(c.ops[i], c.ops[i + 1]);
      }
      break;
    case 8:  // retarget an op's source
      if (!c.ops.empty()) {
        const size_t i = below(rng, c.ops.size());
        const std::string n = pick(rng, defined_before(c, i));
        (c.ops[i].kind == OpKind::Add ? c.ops[i].target : c.ops[i].src) = n;
      }
      break;
    case 9: {  // add or remove an output
      const std::vector<std::string> names = defined_before(c, c.ops.size());
      if (chance(rng, 50) || c.outputs.size() < 2) c.outputs.push_back(pick(rng, names));
      else c.outputs.erase(c.outputs.begin() + static_cast<std::ptrdiff_t>(below(rng, c.outputs.size())));
      break;
    }
    case 10: {  // add or remove an in-place mutation
      std::vector<size_t> muts;
      for (size_t i = 0; i < c.ops.size(); ++i)
        if (c.ops[i].kind == OpKind::Add || c.ops[i].kind == OpKind::Copy) muts.push_back(i);
      if (!muts.empty() && chance(rng, 40)) {
        c.ops.erase(c.ops.begin() + static_cast<std::ptrdiff_t>(pick(rng, muts)));
      } else {
        const size_t at = below(rng, c.ops.size() + 1);
        const std::vector<std::string> names = defined_before(c, at);
        Op op;
        op.kind = chance(rng, 50) ? OpKind::Add : OpKind::Copy;
        op.target = pick(rng, names);
        op.src = op.kind == OpKind::Copy ? pick(rng, names) : "";
        op.scalar = op.kind == OpKind::Add ? 1 : 0;
        c.ops.insert(c.ops.begin() + static_cast<std::ptrdiff_t>(at), op);
      }
      break;
    }
    default:  // change the rank: add a size-1 or small dim, or drop one
      if (c.sizes.size() < kMaxCaseRank && (c.sizes.empty() || chance(rng, 50))) {
        c.sizes.insert(c.sizes.begin() + static_cast<std::ptrdiff_t>(below(rng, c.sizes.size() + 1)),
                       chance(rng, 60) ? 1 : 2 + static_cast<int64_t>(below(rng, 4)));
      } else if (!c.sizes.empty()) {
        c.sizes.erase(c.sizes.begin() + static_cast<std::ptrdiff_t>(below(rng, c.sizes.size())));
      }
      c.dim_order.clear();
      break;
  }
}

}  // namespace

void repair_case(Case& c, int64_t byte_budget, size_t max_ops) {
  if (c.input.empty() || c.input == "None") c.input = "x";
  if (c.sizes.size() > static_cast<size_t>(kMaxCaseRank)) c.sizes.resize(kMaxCaseRank);
  for (int64_t& s : c.sizes) s = s < 0 ? 1 : std::min<int64_t>(s, int64_t{1} << 20);
  {
    std::vector<int> sorted = c.dim_order;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> iota(c.sizes.size());
    std::iota(iota.begin(), iota.end(), 0);
    if (!c.dim_order.empty() && sorted != iota) c.dim_order.clear();
  }
  if (c.ops.size() > std::min(max_ops, kMaxOps)) c.ops.resize(std::min(max_ops, kMaxOps));
  std::set<std::string> defined{c.input};
  std::string last = c.input;
  for (Op& op : c.ops) {
    auto fix = [&](std::string& name) {
      if (!defined.count(name)) name = last;
    };
    if (op.kind != OpKind::Add) fix(op.src);
    if (op.kind == OpKind::Add || op.kind == OpKind::Copy) fix(op.target);
    if (op.kind == OpKind::Add || op.kind == OpKind::Copy) {
      op.result.clear();
      if (op.kind == OpKind::Add) op.src.clear();
      continue;
    }
    op.target.clear();
    if (op.result.empty() || op.result == "None" || defined.count(op.result)) {
      Case probe = c;  // fresh_name looks at every result
      op.result = fresh_name(probe);
    }
    defined.insert(op.result);
    last = op.result;
  }
  std::vector<std::string> outputs;
  std::set<std::string> listed;
  for (const std::string& o : c.outputs)
    if (defined.count(o) && listed.insert(o).second) outputs.push_back(o);
  if (outputs.empty()) outputs.push_back(last);
  c.outputs = outputs;
  canonicalize(c);
  // Shrink the input until every tensor fits the budget (slices and clones are
  // never bigger than the input, so this converges).
  for (int round = 0; round < 200; ++round) {
    ProgramInfo info;
    AnalysisError err;
    if (analyze(c, byte_budget, info, err)) return;
    auto biggest = std::max_element(c.sizes.begin(), c.sizes.end());
    if (biggest == c.sizes.end() || *biggest <= 1) break;
    *biggest /= 2;
  }
  // Unreachable for sane budgets; fall back to the smallest program.
  c = Case{};
  c.sizes = {1};
  c.outputs = {c.input};
}

void mutate_case(Case& c, Rng& rng, int64_t byte_budget) {
  const int n = 1 + static_cast<int>(below(rng, 3));
  for (int i = 0; i < n; ++i) {
    mutate_once(c, rng);
    repair_case(c, byte_budget, kFuzzMaxOps);
  }
}

Case crossover_cases(const Case& a, const Case& b, Rng& rng, int64_t byte_budget) {
  Case out = a;
  const size_t keep = below(rng, a.ops.size() + 1);
  out.ops.resize(keep);
  const size_t from = below(rng, b.ops.size() + 1);
  for (size_t i = from; i < b.ops.size(); ++i) {
    Op op = b.ops[i];
    if (op.src == b.input) op.src = out.input;
    if (op.target == b.input) op.target = out.input;
    out.ops.push_back(op);
  }
  out.outputs = a.outputs;
  out.outputs.insert(out.outputs.end(), b.outputs.begin(), b.outputs.end());
  repair_case(out, byte_budget, kFuzzMaxOps);
  return out;
}

}  // namespace slicefuzz
