#include "generators/schema_ops_gen.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "generators/mutator_util.h"

namespace slicefuzz::gen {

namespace {

using mut::below;
using mut::chance;
using Rng = std::mt19937_64;

}  // namespace

const std::vector<OpKind>& schema_op_kinds() {
  static const std::vector<OpKind> kinds = [] {
    std::vector<OpKind> v;
    for (const OpKindInfo& row : kOpKinds) {
      judge::Layout probe{{2, 3}, {0, 1}};
      Op op;
      Rng rng(1);
      if (realize_schema_op(row.kind, probe, rng, op)) v.push_back(row.kind);
    }
    return v;
  }();
  return kinds;
}

// narrow_copy: a valid range mostly (a negative start at times, the whole dim
// at times: dense, so an alias candidate), its own errors at 10%.
bool realize_narrow(const judge::Layout& in, Rng& rng, Op& op) {
  const int64_t rank = static_cast<int64_t>(in.sizes.size());
  if (rank == 0) return false;
  const int64_t d = static_cast<int64_t>(below(rng, static_cast<size_t>(rank)));
  const int64_t size = in.sizes[d];
  op.dim = chance(rng, 20) ? d - rank : d;
  op.index = static_cast<int64_t>(below(rng, static_cast<size_t>(size) + 1));
  op.length = chance(rng, 25) ? size - op.index
                              : static_cast<int64_t>(below(rng, static_cast<size_t>(size - op.index) + 1));
  if (op.index > 0 && chance(rng, 20)) op.index -= size;  // the same start, counted from the end
  if (chance(rng, 10)) {
    switch (below(rng, 6)) {
      case 0: op.length = -1 - static_cast<int64_t>(below(rng, 3)); break;
      case 1: op.index = size + 1; break;
      case 2: op.index = -size - 1; break;
      case 3: op.length = size - (op.index < 0 ? op.index + size : op.index) + 1; break;
      case 4: op.length = INT64_MAX - static_cast<int64_t>(below(rng, 2)); break;
      default: op.dim = rank; break;
    }
  }
  return true;
}

// expand_copy: up to two new leading dims, size-1 dims broadcast at times (a
// stride-0 view: never an alias), -1 for a kept dim; its own errors at 10%.
bool realize_expand(const judge::Layout& in, Rng& rng, Op& op) {
  const size_t rank = in.sizes.size();
  const size_t lead = rank >= 15 ? 0 : below(rng, 3);
  op.ints.clear();
  for (size_t j = 0; j < lead; ++j) op.ints.push_back(chance(rng, 50) ? 1 : 1 + static_cast<int64_t>(below(rng, 3)));
  for (size_t i = 0; i < rank; ++i) {
    const int64_t s = in.sizes[i];
    if (s == 1 && chance(rng, 40)) op.ints.push_back(static_cast<int64_t>(below(rng, 4)));
    else op.ints.push_back(chance(rng, 20) ? -1 : s);
  }
  if (op.ints.empty()) op.ints.push_back(1);  // a 0-dim source: one new dim
  if (chance(rng, 10)) {
    const size_t j = below(rng, op.ints.size());
    switch (below(rng, 4)) {
      case 0: op.ints[j] = -2 - static_cast<int64_t>(below(rng, 3)); break;
      case 1: if (rank > 0) op.ints.erase(op.ints.begin()); break;  // fewer sizes than dims
      case 2: op.ints.insert(op.ints.begin(), -1); break;          // -1 in a new leading dim
      default: op.ints[j] += 2; break;                              // a non-singleton dim changes
    }
  }
  return true;
}

// permute_copy: a random order of the dims (the identity at times, a swap of
// two neighbours at times: a size-1 dim's move keeps it dense, an alias
// candidate), a negative dim at times; its own errors at 10%.
bool realize_permute(const judge::Layout& in, Rng& rng, Op& op) {
  const int64_t rank = static_cast<int64_t>(in.sizes.size());
  op.ints.clear();
  for (int64_t d = 0; d < rank; ++d) op.ints.push_back(d);
  const size_t shape = below(rng, 10);
  if (shape < 3 && rank > 1) {
    const size_t j = below(rng, static_cast<size_t>(rank - 1));
    std::swap(op.ints[j], op.ints[j + 1]);
  } else if (shape >= 4) {
    std::shuffle(op.ints.begin(), op.ints.end(), rng);
  }
  for (int64_t& d : op.ints)
    if (chance(rng, 15)) d -= rank;
  if (chance(rng, 10)) {
    switch (below(rng, 3)) {
      case 0: if (rank > 0) op.ints.pop_back(); else op.ints.push_back(0); break;  // too few or too many dims
      case 1: if (rank > 1) op.ints[1] = op.ints[0]; else op.ints.push_back(0); break;  // a dim twice
      default: if (rank > 0) op.ints[below(rng, static_cast<size_t>(rank))] = rank; else op.ints.push_back(1); break;
    }
  }
  return true;
}

bool realize_schema_op(OpKind kind, const judge::Layout& in, Rng& rng, Op& op) {
  op.kind = kind;
  switch (kind) {
    case OpKind::ExpandCopy: return realize_expand(in, rng, op);
    case OpKind::NarrowCopy: return realize_narrow(in, rng, op);
    case OpKind::PermuteCopy: return realize_permute(in, rng, op);
    default: return false;  // the version-1 and -2 ops have their own generators
  }
}

const std::vector<OpKind>& schema_op_kinds_up_to(int version) {
  static const std::vector<std::vector<OpKind>> by_version = [] {
    std::vector<std::vector<OpKind>> v(kLatestCaseVersion + 1);
    for (int version = 0; version <= kLatestCaseVersion; ++version)
      for (OpKind k : schema_op_kinds())
        if (op_kind_info(k).min_version <= version) v[version].push_back(k);
    return v;
  }();
  return by_version[std::clamp(version, 0, kLatestCaseVersion)];
}

namespace {
bool insert_one_of(Case& c, Rng& rng, const std::vector<OpKind>& kinds);
}  // namespace

bool insert_schema_op_up_to(Case& c, Rng& rng, int version) {
  return insert_one_of(c, rng, schema_op_kinds_up_to(version));
}

bool insert_newer_schema_op(Case& c, Rng& rng, int version) {
  std::vector<OpKind> newer;
  for (OpKind k : schema_op_kinds_up_to(version))
    if (op_kind_info(k).min_version > kLastStaticCaseVersion) newer.push_back(k);
  return insert_one_of(c, rng, newer);
}

namespace {
bool insert_one_of(Case& c, Rng& rng, const std::vector<OpKind>& kinds) {
  if (kinds.empty() || c.ops.size() + 2 > kMaxOps) return false;
  std::vector<std::string> names = mut::defined_before(c, c.ops.size());
  const std::string src = names[below(rng, names.size())];
  Op op;
  if (!realize_schema_op(kinds[below(rng, kinds.size())], mut::layout_or_input(c, src), rng, op))
    return false;
  size_t first = 0;  // the op after src's definition (0 for an input)
  for (size_t i = 0; i < c.ops.size(); ++i)
    if (c.ops[i].result == src) first = i + 1;
  const size_t at = first + below(rng, c.ops.size() - first + 1);
  op.src = src;
  op.result = mut::fresh_name(c);
  const std::string result = op.result;
  c.ops.insert(c.ops.begin() + static_cast<std::ptrdiff_t>(at), std::move(op));
  // Who reads it: itself an output (never an alias), a clone of it that is one
  // (an alias candidate), an add_ on it (a mutated alias candidate), or nobody.
  const size_t reader = below(rng, 100);
  if (reader < 30) {
    c.outputs.push_back(result);
  } else if (reader < 90) {
    Op use;
    if (reader < 75) {
      use.kind = OpKind::Clone;
      use.src = result;
      use.result = mut::fresh_name(c);
      c.outputs.push_back(use.result);
    } else {
      use.kind = OpKind::Add;
      use.target = result;
      use.scalar = 1 + static_cast<int64_t>(below(rng, 3));
    }
    c.ops.insert(c.ops.begin() + static_cast<std::ptrdiff_t>(at + 1), std::move(use));
  }
  c.version = std::max(c.version, c.min_version());
  return true;
}

}  // namespace

bool insert_schema_op(Case& c, Rng& rng) { return insert_schema_op_up_to(c, rng, kLastStaticCaseVersion); }
bool insert_schema_op_v4(Case& c, Rng& rng) { return insert_schema_op_up_to(c, rng, kLatestCaseVersion); }

}  // namespace slicefuzz::gen
