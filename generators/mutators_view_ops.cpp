// The mutators of the version-2 view-copy ops: insert or replace one of them
// (the select, squeeze, unsqueeze and view copies) or a clone(dim_order=...); change a
// view's sizes keeping or breaking the element count; flip a squeeze's form;
// write through an alias (or an alias of one, or the root under them); change a
// clone's dim order; push arguments out of range; put sizes past int32 beside a
// 0; make an alias with other users an output (issue 3602); break an op.
#include <algorithm>
#include <limits>

#include "generators/invalid_ops.h"
#include "generators/mutator_util.h"
#include "generators/view_op_plans.h"

namespace slicefuzz::mut {

namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// A value whose layout the judge knows: the latest one half of the time.
std::optional<std::string> known_value(const Case& c, Rng& rng) {
  std::vector<std::string> names = defined_before(c, c.ops.size());
  if (chance(rng, 50)) std::reverse(names.begin(), names.end());
  else std::shuffle(names.begin(), names.end(), rng);
  for (const std::string& n : names)
    if (layout_of(c, n)) return n;
  return std::nullopt;
}

bool insert_view_op(Case& c, Rng& rng, OpKind kind) {
  const auto src = known_value(c, rng);
  if (!src) return false;
  auto op = random_view_op(kind, *layout_of(c, *src), rng);
  if (!op) return false;
  insert_defining_op(c, std::move(*op), *src, rng);
  return true;
}

bool insert_select(Case& c, Rng& rng) { return insert_view_op(c, rng, OpKind::SelectCopy); }
bool insert_squeeze(Case& c, Rng& rng) { return insert_view_op(c, rng, OpKind::SqueezeCopy); }
bool insert_unsqueeze(Case& c, Rng& rng) { return insert_view_op(c, rng, OpKind::UnsqueezeCopy); }
bool insert_view(Case& c, Rng& rng) { return insert_view_op(c, rng, OpKind::ViewCopy); }
bool insert_clone_dim_order(Case& c, Rng& rng) { return insert_view_op(c, rng, OpKind::Clone); }

// One op (index) among those `keep` accepts, or nullopt.
template <typename Keep>
std::optional<size_t> pick_op(const Case& c, Rng& rng, Keep keep) {
  std::vector<size_t> ops;
  for (size_t i = 0; i < c.ops.size(); ++i)
    if (keep(c.ops[i])) ops.push_back(i);
  if (ops.empty()) return std::nullopt;
  return pick(rng, ops);
}

bool is_kind(const Op& op, OpKind k) { return op.kind == k; }

// Replaces a defining op by a valid view op of another kind over the same source.
bool replace_with_view_op(Case& c, Rng& rng) {
  const auto i = pick_op(c, rng, [](const Op& op) { return op_defines(op.kind) && !is_eager_op(op.kind); });
  if (!i) return false;
  const auto in = layout_of(c, c.ops[*i].src);
  if (!in) return false;
  const OpKind kinds[] = {OpKind::SelectCopy, OpKind::SqueezeCopy, OpKind::UnsqueezeCopy,
                          OpKind::ViewCopy, OpKind::Clone};
  const OpKind kind = kinds[below(rng, 5)];
  if (kind == c.ops[*i].kind) return false;
  auto op = random_view_op(kind, *in, rng);
  if (!op) return false;
  op->result = c.ops[*i].result;
  op->src = c.ops[*i].src;
  c.ops[*i] = std::move(*op);
  return true;
}

bool view_sizes_keep_count(Case& c, Rng& rng) {
  const auto i = pick_op(c, rng, [](const Op& op) { return is_kind(op, OpKind::ViewCopy); });
  if (!i) return false;
  const auto in = layout_of(c, c.ops[*i].src);
  if (!in) return false;
  auto op = random_view_op(OpKind::ViewCopy, *in, rng);
  if (!op || op->ints == c.ops[*i].ints) return false;
  c.ops[*i].ints = op->ints;
  return true;
}

// An op of the case turned into one that must fail, by one of `kinds`.
bool break_op_by(Case& c, Rng& rng, size_t i, const std::vector<gen::InvalidKind>& kinds) {
  const judge::Layout in = layout_or_input(c, c.ops[i].src);
  Op op = gen::realize_invalid_op(pick(rng, kinds), rng(), in);
  op.result = c.ops[i].result;
  op.src = c.ops[i].src;
  c.ops[i] = std::move(op);
  return true;
}

bool view_sizes_break_count(Case& c, Rng& rng) {
  using K = gen::InvalidKind;
  const auto i = pick_op(c, rng, [](const Op& op) { return is_kind(op, OpKind::ViewCopy); });
  if (!i) return false;
  return break_op_by(c, rng, *i, {K::ViewCountMismatch, K::ViewCountMismatch, K::ViewTwoMinusOnes,
                                  K::ViewMinusOneBesideZero, K::ViewNegativeSize});
}

bool flip_squeeze_form(Case& c, Rng& rng) {
  const auto i = pick_op(c, rng, [](const Op& op) { return is_kind(op, OpKind::SqueezeCopy); });
  if (!i) return false;
  Op& op = c.ops[*i];
  if (op.ints.size() == 1 && chance(rng, 50)) {
    op.single_dim = !op.single_dim;
    return true;
  }
  if (op.ints.empty()) return false;
  const auto in = layout_of(c, op.src);
  if (!in) return false;
  const int64_t span = std::max<int64_t>(static_cast<int64_t>(in->sizes.size()), 1);
  int64_t& d = op.ints[below(rng, op.ints.size())];
  if (d >= 0 && d < span) d -= span;  // dim d spelled d - span, and back
  else if (d < 0 && d >= -span) d += span;
  else return false;
  return true;
}

// add_ or copy_ through an alias candidate, an alias of one, or the root under them.
bool mutate_through_alias(Case& c, Rng& rng) {
  std::vector<size_t> aliases;
  for (size_t i = 0; i < c.ops.size(); ++i)
    if (op_is_view_copy(c.ops[i].kind)) aliases.push_back(i);
  if (aliases.empty()) return false;
  size_t def = pick(rng, aliases);
  const std::string alias = c.ops[def].result;
  std::string target = alias;
  if (chance(rng, 30)) {  // the root: walk the chain of view-copy sources back
    for (bool more = true; more;) {
      more = false;
      for (size_t j = 0; j < def; ++j)
        if (c.ops[j].result == c.ops[def].src && op_is_view_copy(c.ops[j].kind)) {
          def = j;
          more = true;
          break;
        }
    }
    target = c.ops[def].src;
  }
  size_t first = 0;
  for (size_t j = 0; j < c.ops.size(); ++j)
    if (c.ops[j].result == target) first = j + 1;
  Op op;
  op.target = target;
  op.kind = OpKind::Add;
  op.scalar = chance(rng, 80) ? 1 : -7;
  if (chance(rng, 40)) {  // copy_ from a value of the same sizes
    const auto t = layout_of(c, target);
    for (const std::string& n : defined_before(c, c.ops.size())) {
      const auto l = n == target ? std::nullopt : layout_of(c, n);
      if (t && l && l->sizes == t->sizes) {
        op.kind = OpKind::Copy;
        op.src = n;
        op.scalar = 0;
        break;
      }
    }
  }
  const size_t at = first + below(rng, c.ops.size() - first + 1);
  c.ops.insert(c.ops.begin() + static_cast<std::ptrdiff_t>(at), std::move(op));
  // Something must read the alias after the write for it to matter.
  if (chance(rng, 50)) c.outputs.push_back(alias);
  return true;
}

bool change_clone_dim_order(Case& c, Rng& rng) {
  const auto i = pick_op(c, rng, [](const Op& op) { return is_kind(op, OpKind::Clone); });
  if (!i) return false;
  Op& op = c.ops[*i];
  if (op.dim_order && chance(rng, 30)) {
    op.dim_order.reset();
    return true;
  }
  const auto in = layout_of(c, op.src);
  if (!in) return false;
  auto order = random_view_op(OpKind::Clone, *in, rng);
  if (!order || order->dim_order == op.dim_order) return false;
  op.dim_order = order->dim_order;
  return true;
}

bool change_select_args(Case& c, Rng& rng) {
  const auto i = pick_op(c, rng, [](const Op& op) { return is_kind(op, OpKind::SelectCopy); });
  if (!i) return false;
  Op& op = c.ops[*i];
  const judge::Layout in = layout_or_input(c, op.src);
  const int64_t r = static_cast<int64_t>(in.sizes.size());
  if (chance(rng, 40)) {
    op.dim = pick(rng, std::vector<int64_t>{0, r - 1, -1, -r, r, -r - 1});
  } else {
    const int64_t d = r ? ((op.dim % r) + r) % r : 0;
    const int64_t s = r ? in.sizes[d] : 0;
    op.index = pick(rng, std::vector<int64_t>{0, -1, s - 1, -s, s, -s - 1, kInt64Max, kInt64Min});
  }
  return true;
}

bool change_unsqueeze_dim(Case& c, Rng& rng) {
  const auto i = pick_op(c, rng, [](const Op& op) { return is_kind(op, OpKind::UnsqueezeCopy); });
  if (!i) return false;
  Op& op = c.ops[*i];
  const int64_t r = static_cast<int64_t>(layout_or_input(c, op.src).sizes.size());
  op.dim = pick(rng, std::vector<int64_t>{0, r, -1, -(r + 1), r + 1, -(r + 2), kInt64Min});
  return true;
}

bool change_squeeze_dims(Case& c, Rng& rng) {
  const auto i = pick_op(c, rng, [](const Op& op) { return is_kind(op, OpKind::SqueezeCopy); });
  if (!i) return false;
  Op& op = c.ops[*i];
  const int64_t span = std::max<int64_t>(1, layout_or_input(c, op.src).sizes.size());
  switch (below(rng, 4)) {
    case 0: op.ints.push_back(static_cast<int64_t>(below(rng, 2 * span)) - span); break;
    case 1:
      if (op.ints.empty()) return false;
      op.ints.erase(op.ints.begin() + static_cast<std::ptrdiff_t>(below(rng, op.ints.size())));
      break;
    case 2:  // repeat a listed dim: an error
      if (op.ints.empty()) return false;
      op.ints.push_back(pick(rng, op.ints));
      break;
    default: op.ints.push_back(pick(rng, std::vector<int64_t>{span, -span - 1, kInt64Max})); break;
  }
  return true;
}

bool huge_beside_zero(Case& c, Rng& rng) {
  InputDecl& in = some_input(c, rng);
  while (in.sizes.size() < 2) in.sizes.push_back(1);
  const size_t zero = below(rng, in.sizes.size());
  size_t big = below(rng, in.sizes.size() - 1);
  if (big >= zero) ++big;
  in.sizes[zero] = 0;
  in.sizes[big] = pick(rng, gen::huge_sizes());
  return true;
}

bool output_alias_with_users(Case& c, Rng& rng) {
  std::vector<std::string> shared;
  for (size_t i = 0; i < c.ops.size(); ++i) {
    if (!op_is_view_copy(c.ops[i].kind)) continue;
    for (size_t j = i + 1; j < c.ops.size(); ++j) {
      const std::vector<std::string> uses = op_uses(c.ops[j]);
      if (std::find(uses.begin(), uses.end(), c.ops[i].result) != uses.end()) {
        shared.push_back(c.ops[i].result);
        break;
      }
    }
  }
  if (shared.empty()) return false;
  const std::string& o = pick(rng, shared);
  if (std::find(c.outputs.begin(), c.outputs.end(), o) != c.outputs.end()) return false;
  c.outputs.push_back(o);
  return true;
}

bool break_op(Case& c, Rng& rng) {
  using K = gen::InvalidKind;
  const auto i = pick_op(c, rng, [](const Op& op) { return op_defines(op.kind) && !is_eager_op(op.kind); });
  if (!i) return false;
  return break_op_by(c, rng, *i,
                     {K::SelectIndex, K::SelectDim, K::SqueezeRepeated, K::SqueezeDim,
                      K::ViewTwoMinusOnes, K::ViewMinusOneBesideZero, K::ViewCountMismatch,
                      K::ViewNegativeSize, K::UnsqueezeDim, K::SliceDim, K::SliceStep, K::CloneOrder});
}

}  // namespace

std::vector<CaseMutator> view_op_mutators() {
  return {{"InsertSelectCopy", insert_select, true},
          {"InsertSqueezeCopy", insert_squeeze, true},
          {"InsertUnsqueezeCopy", insert_unsqueeze, true},
          {"InsertViewCopy", insert_view, true},
          {"InsertCloneDimOrder", insert_clone_dim_order, true},
          {"ReplaceWithViewOp", replace_with_view_op, true},
          {"ViewSizesKeepCount", view_sizes_keep_count, true},
          {"ViewSizesBreakCount", view_sizes_break_count, false},
          {"FlipSqueezeForm", flip_squeeze_form, true},
          {"MutateThroughAlias", mutate_through_alias, true},
          {"ChangeCloneDimOrder", change_clone_dim_order, true},
          {"ChangeSelectArgs", change_select_args, false},
          {"ChangeUnsqueezeDim", change_unsqueeze_dim, false},
          {"ChangeSqueezeDims", change_squeeze_dims, false},
          {"HugeBesideZero", huge_beside_zero, true},
          {"OutputAliasWithUsers", output_alias_with_users, false},
          {"BreakOp", break_op, false}};
}

}  // namespace slicefuzz::mut
