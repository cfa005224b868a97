// The version-1 mutators (shapes, dim order, slice arguments, dtype, op list
// edits, sources, outputs, in-place mutations) and the helpers every mutator
// shares (mutator_util.h).
#include <algorithm>
#include <set>

#include "generators/interesting_values.h"
#include "generators/mutator_util.h"
#include "generators/view_op_plans.h"
#include "oracles/analysis.h"
#include "vocab/case_format.h"

namespace slicefuzz::mut {

// ------------------------------------------------------------------ helpers

std::vector<std::string> defined_before(const Case& c, size_t k) {
  std::vector<std::string> names;
  for (const InputDecl& in : c.inputs) names.push_back(in.name);
  for (size_t i = 0; i < k && i < c.ops.size(); ++i)
    if (!c.ops[i].result.empty()) names.push_back(c.ops[i].result);
  return names;
}

std::optional<judge::Layout> layout_of(const Case& c, const std::string& name) {
  thread_local ProgramInfo info;  // kept: the analysis refills it without allocating
  AnalysisError err;
  if (analyze(c, int64_t{1} << 62, info, err))
    for (const ValueInfo& v : info.values)
      if (v.name == name && v.known) return judge::Layout{v.sizes, v.dim_order};
  return std::nullopt;
}

judge::Layout layout_or_input(const Case& c, const std::string& name) {
  if (auto l = layout_of(c, name)) return *l;
  const InputDecl* in = c.find_input(name);
  if (!in) in = &c.inputs[0];
  return judge::Layout{in->sizes, in->effective_dim_order()};
}

InputDecl& some_input(Case& c, Rng& rng) {
  return c.inputs.size() == 1 ? c.inputs[0] : c.inputs[below(rng, c.inputs.size())];
}

std::string fresh_name(const Case& c) {
  // No set of the names: a program has a few dozen, and this runs per mutant.
  auto used = [&c](const std::string& n) {
    for (const InputDecl& in : c.inputs)
      if (in.name == n) return true;
    for (const Op& op : c.ops)
      if (op.result == n) return true;
    return false;
  };
  for (int i = 0;; ++i) {
    std::string n = "t" + std::to_string(i);
    if (!used(n)) return n;
  }
}

std::vector<size_t> ops_of(const Case& c, OpKind kind) {
  std::vector<size_t> out;
  for (size_t i = 0; i < c.ops.size(); ++i)
    if (c.ops[i].kind == kind) out.push_back(i);
  return out;
}

void insert_defining_op(Case& c, Op op, const std::string& src, Rng& rng) {
  size_t first = 0;  // the op after src's definition (0 for the input)
  for (size_t i = 0; i < c.ops.size(); ++i)
    if (c.ops[i].result == src) first = i + 1;
  const size_t at = first + below(rng, c.ops.size() - first + 1);
  op.src = src;
  op.result = fresh_name(c);
  if (chance(rng, 30)) c.outputs.push_back(op.result);
  c.ops.insert(c.ops.begin() + static_cast<std::ptrdiff_t>(at), std::move(op));
}

namespace {

gen::Pick rpick(Rng& rng, size_t kinds) { return gen::Pick{below(rng, kinds), rng() % gen::kPickRange}; }

// ----------------------------------------------------------------- mutators

bool change_input_size(Case& c, Rng& rng) {
  InputDecl& in = some_input(c, rng);
  if (in.sizes.empty()) return false;
  int64_t& s = in.sizes[below(rng, in.sizes.size())];
  const std::vector<int64_t> options{0, 1, 2, 3, 5, 7, 11, 13, s + 1, s > 0 ? s - 1 : 0, s * 2};
  s = pick(rng, options);
  return true;
}

bool change_dim_order(Case& c, Rng& rng) {
  InputDecl& in = some_input(c, rng);
  const int r = static_cast<int>(in.sizes.size());
  if (r < 2) return false;
  std::vector<int> order = in.effective_dim_order();
  switch (below(rng, 4)) {
    case 0: std::swap(order[below(rng, r)], order[below(rng, r)]); break;
    case 1: order.clear(); break;
    case 2: std::shuffle(order.begin(), order.end(), rng); break;
    default: {
      // Move a size-1 dim elsewhere: same memory layout, different dim order.
      std::vector<int> ones;
      for (int d = 0; d < r; ++d)
        if (in.sizes[d] == 1) ones.push_back(d);
      if (ones.empty()) in.sizes[below(rng, r)] = 1;
      else std::swap(order[std::find(order.begin(), order.end(), pick(rng, ones)) - order.begin()],
                     order[below(rng, r)]);
    }
  }
  in.dim_order = order;
  if (r == 4 && chance(rng, 20)) in.dim_order = {0, 2, 3, 1};  // channels-last
  canonicalize(c);
  return true;
}

bool change_slice_arg(Case& c, Rng& rng) {
  const std::vector<size_t> slices = ops_of(c, OpKind::SliceCopy);
  if (slices.empty()) return false;
  Op& op = c.ops[pick(rng, slices)];
  const std::vector<int64_t> sizes = layout_or_input(c, op.src).sizes;
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
  return true;
}

bool change_dtype(Case& c, Rng& rng) {
  c.dtype = static_cast<ScalarType>(below(rng, kNumScalarTypes));
  return true;
}

// A random op of any copy-semantics kind (version 1's, and sometimes a view op).
bool insert_op(Case& c, Rng& rng) {
  const size_t at = below(rng, c.ops.size() + 1);
  const std::vector<std::string> names = defined_before(c, at);
  Op op;
  const size_t kind = below(rng, 9);
  if (kind >= 5) {  // select, squeeze, unsqueeze, view, clone(dim_order)
    const OpKind kinds[] = {OpKind::SelectCopy, OpKind::SqueezeCopy, OpKind::UnsqueezeCopy,
                            OpKind::ViewCopy, OpKind::Clone};
    const std::string src = pick(rng, names);
    auto view = random_view_op(kinds[below(rng, 5)], layout_or_input(c, src), rng);
    if (!view) return false;
    insert_defining_op(c, *view, src, rng);
    return true;
  }
  switch (kind) {
    case 0:
    case 1: {
      op.kind = OpKind::SliceCopy;
      op.src = pick(rng, names);
      const std::vector<int64_t> sizes = layout_or_input(c, op.src).sizes;
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
  if (op_defines(op.kind)) op.result = fresh_name(c);
  c.ops.insert(c.ops.begin() + static_cast<std::ptrdiff_t>(at), op);
  if (!op.result.empty() && chance(rng, 30)) c.outputs.push_back(op.result);
  return true;
}

bool erase_op(Case& c, Rng& rng) {  // repair re-sources its readers
  if (c.ops.empty()) return false;
  c.ops.erase(c.ops.begin() + static_cast<std::ptrdiff_t>(below(rng, c.ops.size())));
  return true;
}

bool swap_adjacent_ops(Case& c, Rng& rng) {
  if (c.ops.size() < 2) return false;
  const size_t i = below(rng, c.ops.size() - 1);
  std::swap(c.ops[i], c.ops[i + 1]);
  return true;
}

bool retarget_source(Case& c, Rng& rng) {
  if (c.ops.empty()) return false;
  const size_t i = below(rng, c.ops.size());
  const std::string n = pick(rng, defined_before(c, i));
  (c.ops[i].kind == OpKind::Add ? c.ops[i].target : c.ops[i].src) = n;
  return true;
}

bool toggle_output(Case& c, Rng& rng) {
  const std::vector<std::string> names = defined_before(c, c.ops.size());
  if (chance(rng, 50) || c.outputs.size() < 2) c.outputs.push_back(pick(rng, names));
  else c.outputs.erase(c.outputs.begin() + static_cast<std::ptrdiff_t>(below(rng, c.outputs.size())));
  return true;
}

bool toggle_mutation(Case& c, Rng& rng) {
  std::vector<size_t> muts = ops_of(c, OpKind::Add);
  for (size_t i : ops_of(c, OpKind::Copy)) muts.push_back(i);
  if (!muts.empty() && chance(rng, 40)) {
    c.ops.erase(c.ops.begin() + static_cast<std::ptrdiff_t>(pick(rng, muts)));
    return true;
  }
  const size_t at = below(rng, c.ops.size() + 1);
  const std::vector<std::string> names = defined_before(c, at);
  Op op;
  op.kind = chance(rng, 50) ? OpKind::Add : OpKind::Copy;
  op.target = pick(rng, names);
  op.src = op.kind == OpKind::Copy ? pick(rng, names) : "";
  op.scalar = op.kind == OpKind::Add ? 1 : 0;
  c.ops.insert(c.ops.begin() + static_cast<std::ptrdiff_t>(at), op);
  return true;
}

bool change_rank(Case& c, Rng& rng) {  // add a size-1 or small dim, or drop one
  InputDecl& in = some_input(c, rng);
  // A dynamic input's symbols move with its dims (a new dim is static).
  if (in.sizes.size() < kMaxCaseRank && (in.sizes.empty() || chance(rng, 50))) {
    const size_t at = below(rng, in.sizes.size() + 1);
    in.sizes.insert(in.sizes.begin() + static_cast<std::ptrdiff_t>(at),
                    chance(rng, 60) ? 1 : 2 + static_cast<int64_t>(below(rng, 4)));
    if (!in.sym_sizes.empty()) in.sym_sizes.insert(in.sym_sizes.begin() + static_cast<std::ptrdiff_t>(at), -1);
  } else if (!in.sizes.empty()) {
    const size_t at = below(rng, in.sizes.size());
    in.sizes.erase(in.sizes.begin() + static_cast<std::ptrdiff_t>(at));
    if (at < in.sym_sizes.size()) in.sym_sizes.erase(in.sym_sizes.begin() + static_cast<std::ptrdiff_t>(at));
  }
  in.dim_order.clear();
  return true;
}

// Version 2: one input gets a dtype of its own (or goes back to the default).
bool change_input_dtype(Case& c, Rng& rng) {
  InputDecl& in = some_input(c, rng);
  const std::optional<ScalarType> before = in.dtype;
  in.dtype = chance(rng, 20) ? std::nullopt
                             : std::optional<ScalarType>(static_cast<ScalarType>(below(rng, kNumScalarTypes)));
  if (in.dtype == c.dtype) in.dtype.reset();
  if (in.dtype == before) return false;
  c.version = std::max(c.version, 2);
  return true;
}

// Version 2: a new input (another's sizes half of the time, so that copy_ can
// pair them; its own dtype and dim order often) that an op then reads; or, with
// several inputs, one dropped (its readers re-sourced by repair).
bool add_or_drop_input(Case& c, Rng& rng) {
  if (c.inputs.size() > 1 && (c.inputs.size() >= kFuzzMaxInputs || chance(rng, 50))) {
    c.inputs.erase(c.inputs.begin() + static_cast<std::ptrdiff_t>(below(rng, c.inputs.size())));
    return true;
  }
  if (c.inputs.size() >= kFuzzMaxInputs) return false;
  InputDecl in;
  std::set<std::string> used;
  for (const std::string& n : defined_before(c, c.ops.size())) used.insert(n);
  in.name = "x";
  for (int i = 1; used.count(in.name); ++i) in.name = "x" + std::to_string(i);
  if (chance(rng, 50)) {
    in.sizes = pick(rng, c.inputs).sizes;
  } else {
    for (size_t d = 0, r = 1 + below(rng, 3); d < r; ++d) in.sizes.push_back(pick(rng, std::vector<int64_t>{1, 2, 3, 4, 5}));
  }
  if (chance(rng, 60)) in.dtype = static_cast<ScalarType>(below(rng, kNumScalarTypes));
  if (in.sizes.size() >= 2 && chance(rng, 40)) {
    in.dim_order.resize(in.sizes.size());
    for (size_t d = 0; d < in.dim_order.size(); ++d) in.dim_order[d] = static_cast<int>(d);
    std::shuffle(in.dim_order.begin(), in.dim_order.end(), rng);
  }
  const std::string name = in.name;
  c.inputs.push_back(std::move(in));
  c.version = std::max(c.version, 2);
  if (!c.ops.empty() && chance(rng, 80)) {  // an op reads it
    Op& op = c.ops[below(rng, c.ops.size())];
    (op.kind == OpKind::Add ? op.target : op.src) = name;
  }
  canonicalize(c);
  return true;
}

}  // namespace

std::optional<Op> random_view_op(OpKind kind, const judge::Layout& in, Rng& rng) {
  Op op;
  op.kind = kind;
  bool ok = true;
  switch (kind) {
    case OpKind::SelectCopy:
      ok = gen::realize_select({rpick(rng, gen::kSelectDimKinds), rpick(rng, gen::kSelectIndexKinds)}, in, op);
      break;
    case OpKind::SqueezeCopy:
      ok = gen::realize_squeeze({rpick(rng, gen::kSqueezeWhichKinds), rpick(rng, gen::kSqueezeFormKinds)}, in, op);
      break;
    case OpKind::UnsqueezeCopy: ok = gen::realize_unsqueeze({rpick(rng, gen::kUnsqueezeKinds)}, in, op); break;
    case OpKind::ViewCopy:
      ok = gen::realize_view({rpick(rng, gen::kViewShapeKinds), rpick(rng, gen::kMinusOneKinds)}, in, op);
      break;
    case OpKind::Clone: {
      std::vector<uint64_t> keys(kMaxCaseRank);
      for (uint64_t& k : keys) k = rng() % 64;
      op.dim_order = gen::realize_order({rpick(rng, gen::kOrderKinds), keys}, in);
      break;
    }
    default: return std::nullopt;
  }
  if (!ok || !judge::op_result(op, in).error.empty()) return std::nullopt;
  return op;
}

std::vector<CaseMutator> v1_mutators() {
  return {{"ChangeInputSize", change_input_size, true},
          {"ChangeDimOrder", change_dim_order, true},
          {"ChangeSliceArg", change_slice_arg, false},
          {"ChangeDtype", change_dtype, false},
          {"InsertOp", insert_op, true},
          {"EraseOp", erase_op, true},
          {"SwapAdjacentOps", swap_adjacent_ops, true},
          {"RetargetSource", retarget_source, true},
          {"ToggleOutput", toggle_output, false},
          {"ToggleMutation", toggle_mutation, true},
          {"ChangeRank", change_rank, true},
          {"ChangeInputDtype", change_input_dtype, true},
          {"AddOrDropInput", add_or_drop_input, true}};
}

}  // namespace slicefuzz::mut
