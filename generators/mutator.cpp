#include "generators/mutator.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>

#include "generators/mutator_util.h"
#include "generators/schema_ops_gen.h"
#include "generators/view_op_plans.h"
#include "oracles/analysis.h"
#include "oracles/dynamic_analysis.h"
#include "vocab/case_format.h"
#include "vocab/program_info.h"

namespace slicefuzz {

using namespace mut;

namespace {

// How many mutators the driver tries before it gives up on one mutation
// (libFuzzer's MutateImpl tries up to 100; most of ours apply to most cases).
constexpr int kTriesPerMutation = 20;
// Percent of shape-changing mutations after which the ops' arguments are refit
// to the new shapes; the rest keep the ops they broke (error paths stay tested).
constexpr int kRefitPercent = 90;
// Percent of those refits that also refit ops that failed before the mutation.
constexpr int kRefitOldFailuresPercent = 30;

int64_t gcd64(int64_t a, int64_t b) { return b == 0 ? a : gcd64(b, a % b); }

// view_copy sizes for `numel` elements, as close to `sizes` as the count allows.
std::vector<int64_t> refit_view_sizes(std::vector<int64_t> sizes, int64_t numel) {
  const auto minus = std::find(sizes.begin(), sizes.end(), -1);
  if (numel == 0) {
    if (minus != sizes.end()) *minus = 1;
    if (std::count(sizes.begin(), sizes.end(), 0) == 0) {
      if (sizes.empty()) sizes.push_back(0);
      else sizes[0] = 0;
    }
    return sizes;
  }
  int64_t rest = numel;
  for (int64_t& s : sizes) {
    if (s == -1) continue;
    s = gcd64(rest, std::max<int64_t>(s, 1));  // a 0 becomes 1
    rest /= s;
  }
  if (minus != sizes.end()) return sizes;  // -1 takes `rest`
  if (sizes.empty()) return rest == 1 ? sizes : std::vector<int64_t>{numel};
  sizes.back() *= rest;
  return sizes;
}

// `order` made a permutation of 0..rank-1, keeping the relative order of the
// entries that fit.
std::vector<int> refit_order(const std::vector<int>& order, int rank) {
  std::vector<int> out;
  for (int d : order)
    if (d >= 0 && d < rank && std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  for (int d = 0; d < rank; ++d)
    if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  return out;
}

int64_t into_range(int64_t v, int64_t n) { return n > 0 ? ((v % n) + n) % n : 0; }

// Refits one defining op's arguments to `in`; the op may still fail afterwards.
void refit_op(Op& op, const judge::Layout& in) {
  const int64_t rank = static_cast<int64_t>(in.sizes.size());
  switch (op.kind) {
    case OpKind::SelectCopy: {
      if (rank == 0) return;
      if (op.dim < -rank || op.dim >= rank) op.dim = into_range(op.dim, rank);
      // An empty dim has no index: the next non-empty dim, if any.
      int64_t d = into_range(op.dim, rank);
      for (int64_t i = 1; i < rank && in.sizes[d] == 0; ++i)
        if (in.sizes[(d + i) % rank] > 0) op.dim = d = (d + i) % rank;
      const int64_t size = in.sizes[d];
      if (size > 0 && (op.index >= size || op.index < -size)) op.index = into_range(op.index, size);
      return;
    }
    case OpKind::UnsqueezeCopy:
      if (op.dim < -(rank + 1) || op.dim > rank) op.dim = into_range(op.dim, rank + 1);
      return;
    case OpKind::SqueezeCopy: {
      const int64_t span = std::max<int64_t>(rank, 1);
      std::vector<int64_t> dims;
      for (int64_t d : op.ints) {
        const int64_t n = into_range(d, span);
        bool seen = false;
        for (int64_t e : dims) seen = seen || into_range(e, span) == n;
        if (!seen) dims.push_back(d >= -span && d < span ? d : n);
      }
      op.ints = dims;
      return;
    }
    case OpKind::ViewCopy: {
      std::string why;
      const int64_t numel = gen::numel_saturated(in.sizes);
      if (judge::view_sizes(numel, op.ints, why)) return;
      // Only a wrong count is refit: two -1, a size < -1 or -1 beside a 0 stay.
      const auto bad = std::count_if(op.ints.begin(), op.ints.end(), [](int64_t s) { return s < -1; });
      const auto minus = std::count(op.ints.begin(), op.ints.end(), -1);
      const bool zero = std::count(op.ints.begin(), op.ints.end(), 0) > 0;
      if (bad || minus > 1 || (minus && zero)) return;
      op.ints = refit_view_sizes(op.ints, numel);
      if (!judge::view_sizes(numel, op.ints, why)) op.ints = {numel};
      return;
    }
    case OpKind::Clone:
      if (op.dim_order && !judge::dim_order_error(static_cast<int>(rank), *op.dim_order).empty())
        op.dim_order = refit_order(*op.dim_order, static_cast<int>(rank));
      return;
    default: return;
  }
}

// Argument lists the parser reads back: at most 17 entries (it refuses an 18th),
// clone dim orders with entries in 0..15.
void keep_printable(Op& op) {
  if (op.ints.size() > static_cast<size_t>(kMaxCaseRank) + 1) op.ints.resize(kMaxCaseRank + 1);
  if (op.dim_order) {
    if (op.dim_order->size() > static_cast<size_t>(kMaxCaseRank) + 1)
      op.dim_order->resize(kMaxCaseRank + 1);
    for (int& d : *op.dim_order) d = std::clamp(d, 0, kMaxCaseRank - 1);
  }
  // Only the fields the op's schema has (vocab/op_schema.h): expand_copy's sizes
  // and index_copy's index stay (until 2026-12-05 only squeeze_copy's and
  // view_copy's lists did, so a mutant's expand_copy lost its sizes).
  bool ints = false, order = false;
  for (const ArgSpec& a : op_kind_info(op.kind).args) {
    ints = ints || a.slot == ArgSlot::Ints;
    order = order || a.slot == ArgSlot::DimOrder;
  }
  if (!order) op.dim_order.reset();
  if (!ints) op.ints.clear();
  if (op.kind != OpKind::SqueezeCopy || op.ints.size() != 1) op.single_dim = false;
}

}  // namespace

const std::vector<CaseMutator>& case_mutators() {
  static const std::vector<CaseMutator> table = [] {
    std::vector<CaseMutator> t = v1_mutators();
    for (const CaseMutator& m : view_op_mutators()) t.push_back(m);
    for (const CaseMutator& m : dynamic_mutators()) t.push_back(m);
    for (const CaseMutator& m : mut::eager_mutators()) t.push_back(m);
    // The ops since the op schema (schema_ops_gen.h): the fuzzer reaches them here
    // (listed once there is one to insert).
    if (!gen::schema_op_kinds_up_to(3).empty()) t.push_back({"InsertSchemaOp", &gen::insert_schema_op, true});
    if (gen::schema_op_kinds_up_to(kLatestCaseVersion).size() > gen::schema_op_kinds_up_to(3).size())
      t.push_back({"InsertSchemaOpV4", &gen::insert_schema_op_v4, true, 4});
    return t;
  }();
  return table;
}

void refit_to_layouts(Case& c, const Case* before) {
  // The ops that failed in `before`, by result name: left as they are.
  std::set<std::string> failed;
  if (before) {
    thread_local ProgramInfo info;  // kept: the analysis refills it without allocating
    AnalysisError err;
    if (analyze(*before, int64_t{1} << 62, info, err) && info.failing_op >= 0)
      for (size_t k = info.failing_op; k < before->ops.size(); ++k)
        if (!before->ops[k].result.empty()) failed.insert(before->ops[k].result);
  }
  // Kept between calls (this runs for every refitting mutant): the layouts'
  // vectors keep their capacity. Names point into `c`, whose inputs and ops are
  // not added or removed here.
  thread_local std::vector<const std::string*> names;
  thread_local std::vector<judge::Layout> layouts;
  thread_local std::vector<ScalarType> dtypes;
  thread_local judge::OpOutcome out;
  names.clear();
  dtypes.clear();
  size_t n = 0;  // layouts[0 .. n-1] are this case's
  auto define = [&](const std::string& name, const std::vector<int64_t>& sizes,
                    const std::vector<int>& order, ScalarType dtype) {
    if (n == layouts.size()) layouts.emplace_back();
    layouts[n].sizes.assign(sizes.begin(), sizes.end());
    layouts[n].dim_order.assign(order.begin(), order.end());
    ++n;
    names.push_back(&name);
    dtypes.push_back(dtype);
  };
  for (size_t i = 0; i < c.inputs.size(); ++i)
    define(c.inputs[i].name, c.inputs[i].sizes, c.inputs[i].effective_dim_order(), c.input_dtype(i));
  auto find = [&](const std::string& name) -> int {
    for (size_t i = 0; i < names.size(); ++i)
      if (*names[i] == name) return static_cast<int>(i);
    return -1;
  };
  for (Op& op : c.ops) {
    const int src = op_defines(op.kind) || op.kind == OpKind::Copy ? find(op.src) : -1;
    if (op.kind == OpKind::Add) continue;
    if (src < 0) return;  // an undefined name: repair_case's business
    if (op.kind == OpKind::Copy) {
      const int target = find(op.target);
      if (target < 0 || !judge::copy_error(layouts[target], layouts[src]).empty() ||
          !judge::copy_dtype_error(dtypes[target], dtypes[src]).empty())
        return;
      continue;
    }
    const ScalarType dtype = dtypes[src];
    if (!failed.count(op.result)) refit_op(op, layouts[src]);
    judge::op_result_into(op, layouts[src], out);
    if (!out.error.empty()) return;
    define(op.result, out.layout.sizes, out.layout.dim_order, dtype);
  }
}

namespace {
// A program's names: at most kFuzzMaxInputs + kMaxOps of them, so a scan of a
// short vector beats a std::set's node per name (repair runs on every mutant).
struct NameList {
  std::vector<std::string> names;
  bool has(const std::string& n) const { return std::find(names.begin(), names.end(), n) != names.end(); }
  bool add(const std::string& n) {  // false if it was there
    if (has(n)) return false;
    names.push_back(n);
    return true;
  }
};
}  // namespace

void repair_case(Case& c, int64_t byte_budget, size_t max_ops) {
  if (c.inputs.empty()) c.inputs.emplace_back();
  if (c.inputs.size() > kFuzzMaxInputs) c.inputs.resize(kFuzzMaxInputs);
  NameList defined;  // the inputs', then each defined value's
  defined.names.reserve(c.inputs.size() + c.ops.size());
  for (InputDecl& in : c.inputs) {
    if (in.name.empty() || in.name == "None" || defined.has(in.name)) {
      in.name = "x";
      for (int i = 1; defined.has(in.name); ++i) in.name = "x" + std::to_string(i);
    }
    defined.add(in.name);
    if (in.sizes.size() > static_cast<size_t>(kMaxCaseRank)) in.sizes.resize(kMaxCaseRank);
    // Sizes past 2^20 only beside a 0 (no bytes; lengths past int32 on purpose).
    const bool empty = std::count(in.sizes.begin(), in.sizes.end(), 0) > 0;
    for (int64_t& s : in.sizes)
      s = s < 0 ? 1 : std::min<int64_t>(s, empty ? int64_t{1} << 40 : int64_t{1} << 20);
    // A dim order must be a permutation of 0..rank-1; anything else is dropped.
    bool permutation = in.dim_order.size() == in.sizes.size();
    if (permutation) {
      std::vector<int> sorted = in.dim_order;
      std::sort(sorted.begin(), sorted.end());
      for (size_t i = 0; permutation && i < sorted.size(); ++i) permutation = sorted[i] == static_cast<int>(i);
    }
    if (!in.dim_order.empty() && !permutation) in.dim_order.clear();
  }
  if (c.ops.size() > std::min(max_ops, kMaxOps)) c.ops.resize(std::min(max_ops, kMaxOps));
  keep_symbols_consistent(c);
  drop_writes_to_constants(c);
  std::string last = c.inputs.back().name;
  for (Op& op : c.ops) {
    keep_printable(op);
    auto fix = [&](std::string& name) {
      if (!defined.has(name)) name = last;
    };
    if (op.kind != OpKind::Add) fix(op.src);
    if (op.kind == OpKind::Add || op.kind == OpKind::Copy) fix(op.target);
    if (op_reads_other(op.kind)) fix(op.other);
    else op.other.clear();
    if (op.kind == OpKind::Add || op.kind == OpKind::Copy) {
      op.result.clear();
      if (op.kind == OpKind::Add) op.src.clear();
      continue;
    }
    op.target.clear();
    if (op.result.empty() || op.result == "None" || defined.has(op.result))
      op.result = fresh_name(c);  // looks at every result (this op's too: it is replaced)
    defined.add(op.result);
    last = op.result;
  }
  std::vector<std::string> outputs;
  for (const std::string& o : c.outputs)
    if (defined.has(o) && std::find(outputs.begin(), outputs.end(), o) == outputs.end())
      outputs.push_back(o);
  if (outputs.empty()) outputs.push_back(last);
  c.outputs = std::move(outputs);
  canonicalize(c);
  // Shrink the inputs until every tensor fits the budget (every op's result holds
  // at most its source's elements, so this converges): the biggest size of any
  // input first (the first input's among equals).
  thread_local ProgramInfo info;  // kept: the analysis refills it without allocating
  for (int round = 0; round < 200; ++round) {
    AnalysisError err;
    if (analyze(c, byte_budget, info, err)) return;
    int64_t* biggest = nullptr;
    for (InputDecl& in : c.inputs)
      for (int64_t& s : in.sizes)
        if (!biggest || s > *biggest) biggest = &s;
    if (!biggest || *biggest <= 1) break;
    *biggest /= 2;
    keep_symbols_consistent(c);  // a dynamic dim's bound halved: its symbol's top
  }
  // Unreachable for sane budgets; fall back to the smallest program.
  c = Case{};
  c.inputs[0].sizes = {1};
  c.outputs = {c.inputs[0].name};
}

bool apply_mutator(const CaseMutator& m, Case& c, Rng& rng, int64_t byte_budget) {
  // The case before the mutation, for refitting only (a copy per attempt otherwise).
  // A dynamic mutant too, whether it was dynamic before or this mutator made it
  // so (MakeDynamic): one the dynamic analysis refuses is undone. (Copied for a
  // dynamic case only, MakeDynamic's refused mutants were "undone" from an empty
  // optional: a SEGV in fuzz_program's mutator on the next copy of the case,
  // found by the self-test, executorch-runtime, fuzz seed 2.)
  std::optional<Case> before;
  if (m.refits || c.is_dynamic() || m.adds_symbols) before = c;
  if (!m.apply(c, rng)) return false;
  repair_case(c, byte_budget, kFuzzMaxOps);
  if (m.refits && chance(rng, kRefitPercent)) {
    // Mostly leave the ops that failed before the mutation failing; sometimes
    // refit them too, so that a chain of mutations does not stay stuck on one.
    refit_to_layouts(c, chance(rng, kRefitOldFailuresPercent) ? nullptr : &*before);
    repair_case(c, byte_budget, kFuzzMaxOps);
  }
  // A dynamic mutant must be a program at every size its ranges allow, or the
  // parser refuses it and the execution is lost: a value whose rank depends on a
  // symbol (a squeeze of a dim that is 1 at some sizes), ranges with more
  // assignments than the judge enumerates. Such a mutation did not apply.
  if (c.is_dynamic()) {
    thread_local DynamicInfo dynamic;
    thread_local ProgramInfo first;
    DynamicError err;
    if (!analyze_dynamic(c, byte_budget, dynamic, first, err)) {
      c = std::move(*before);
      return false;
    }
  }
  return true;
}

void mutate_case(Case& c, Rng& rng, int64_t byte_budget, std::vector<const char*>* applied,
                 int max_version) {
  const std::vector<CaseMutator>& table = case_mutators();
  const int n = 1 + static_cast<int>(below(rng, 3));
  bool repaired = false;  // by the last mutation's own repair (repair is idempotent)
  for (int i = 0; i < n; ++i) {
    repaired = false;
    for (int attempt = 0; attempt < kTriesPerMutation && !repaired; ++attempt) {
      const CaseMutator& m = table[below(rng, table.size())];
      if (m.makes_version > max_version) continue;  // an attempt spent: the picks stay uniform
      repaired = apply_mutator(m, c, rng, byte_budget);
      if (repaired && applied) applied->push_back(m.name);
    }
  }
  if (!repaired) repair_case(c, byte_budget, kFuzzMaxOps);
}

Case crossover_cases(const Case& a, const Case& b, Rng& rng, int64_t byte_budget) {
  Case out = a;
  const size_t keep = below(rng, a.ops.size() + 1);
  out.ops.resize(keep);
  const size_t from = below(rng, b.ops.size() + 1);
  // b's input k reads a's input k (the last of a's when a has fewer).
  auto a_input = [&](const std::string& name) {
    for (size_t k = 0; k < b.inputs.size(); ++k)
      if (b.inputs[k].name == name) return out.inputs[std::min(k, out.inputs.size() - 1)].name;
    return name;
  };
  for (size_t i = from; i < b.ops.size(); ++i) {
    Op op = b.ops[i];
    op.src = a_input(op.src);
    op.target = a_input(op.target);
    if (!op.other.empty()) op.other = a_input(op.other);
    out.ops.push_back(op);
  }
  out.outputs = a.outputs;
  out.outputs.insert(out.outputs.end(), b.outputs.begin(), b.outputs.end());
  out.version = std::max(a.version, b.version);
  repair_case(out, byte_budget, kFuzzMaxOps);
  refit_to_layouts(out);  // b's ops now read a's values
  repair_case(out, byte_budget, kFuzzMaxOps);
  return out;
}

}  // namespace slicefuzz
