#include "generators/gen_weights.h"
#include "generators/view_ops_gen.h"

#include <algorithm>

#include "generators/case_gen.h"
#include "generators/gen_choices.h"
#include "generators/invalid_ops.h"
#include "generators/slice_plan.h"
#include "generators/view_op_plans.h"
#include "oracles/judge_layouts.h"
#include "vocab/case_format.h"

namespace slicefuzz {

using namespace gen;

namespace {

// ------------------------------------------------------------------ plans

enum OpChoice : size_t {
  kSliceOp,
  kSelectOp,
  kSqueezeOp,
  kUnsqueezeOp,
  kViewOp,
  kCloneOp,
  kCloneOrderOp,
  kAddOp,
  kCopyOp
};
// Where an op reads from: the latest value (chains), any earlier one (several
// users), the latest layout change (clone(dim_order) then views of it), or any
// alias candidate (a view-copy result).
enum SourceKind : size_t { kSrcLatest, kSrcAny, kSrcLayoutChange, kSrcAliasCandidate };
// What add_/copy_ writes: the op's source, an alias candidate, an alias
// candidate of an alias candidate, or the root storage under an alias chain.
enum TargetKind : size_t { kTgtSource, kTgtAlias, kTgtAliasOfAlias, kTgtRootOfAlias };

struct OpPlan {
  size_t kind = kSliceOp;
  Pick source, target;
  uint64_t partner = 0;  // copy_: which equal-sized value to copy from
  SlicePlan slice;
  SelectPlan select;
  SqueezePlan squeeze;
  UnsqueezePlan unsqueeze;
  ViewPlan view;
  OrderPlan order;
  int64_t scalar = 1;  // add_
};

rc::Gen<OpPlan> genOpPlan() {
  return rc::gen::build<OpPlan>(
      rc::gen::set(&OpPlan::kind, genWeightedIndex(weights::kViewOpKind)),
      rc::gen::set(&OpPlan::source, genPick(weights::kViewOpSource)),
      rc::gen::set(&OpPlan::target, genPick(weights::kViewOpTarget)),
      rc::gen::set(&OpPlan::partner, genBelow(kPickRange)),
      rc::gen::set(&OpPlan::slice, genSlicePlan(0)),
      rc::gen::set(&OpPlan::select, genSelectPlan()),
      rc::gen::set(&OpPlan::squeeze, genSqueezePlan()),
      rc::gen::set(&OpPlan::unsqueeze, genUnsqueezePlan()),
      rc::gen::set(&OpPlan::view, genViewPlan()),
      rc::gen::set(&OpPlan::order, genOrderPlan()),
      rc::gen::set(&OpPlan::scalar, genAddScalar()));
}

// The one invalid op of a case (when `present` is 1): which rule, at which op.
struct InvalidPlan {
  size_t present = 0;
  Pick kind;
  uint64_t position = 0;
};

rc::Gen<InvalidPlan> genInvalidPlan() {
  return rc::gen::build<InvalidPlan>(
      rc::gen::set(&InvalidPlan::present,
                   genWeightedIndex({100 - kInvalidOpCasePercent, kInvalidOpCasePercent})),
      // Every rule alike, except copy_ of the same count: three times as often,
      // since it needs two values of the same count and other sizes (and finds
      // none in about half the programs: it is then a view_copy of a wrong count).
      rc::gen::set(&InvalidPlan::kind, genPick(weights::kInvalidRule)),
      rc::gen::set(&InvalidPlan::position, genBelow(kPickRange)));
}

// The latest value only, some values, a value with several users (plus the
// latest), or an alias candidate that later ops also read (plus the latest).
enum OutputKind : size_t { kOutLast, kOutPicks, kOutSeveralUsers, kOutAliasWithUsers };
struct OutputPlan {
  Pick kind;
  std::vector<uint64_t> picks;
};

rc::Gen<OutputPlan> genOutputPlan() {
  return rc::gen::map(
      rc::gen::pair(genPick(weights::kViewOutputs),
                    rc::gen::container<std::vector<uint64_t>>(3, genBelow(kPickRange))),
      [](const std::pair<Pick, std::vector<uint64_t>>& p) { return OutputPlan{p.first, p.second}; });
}

// ------------------------------------------------------------- realisation

// An input after the first (kSeveralInputsPercent of the cases): its own
// sizes, dtype and dim order, or the first input's sizes in another dtype (a
// copy_ between them must fail) or in the same dtype (copy_ between inputs).
enum ExtraInputKind : size_t { kExtraOwn, kExtraSameSizesOtherDtype, kExtraSameSizesSameDtype };
struct ExtraInput {
  size_t kind = kExtraOwn;
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> sizes;
  std::vector<int> order;
};

// What the generator knows of each value while it builds the program.
struct Values {
  std::vector<std::string> names;
  std::vector<judge::Layout> layouts;  // the judge's (a stand-in after a failing op)
  std::vector<ScalarType> dtypes;      // a result has its source's
  std::vector<int> source;             // the defining op's source, -1 for an input
  std::vector<bool> alias_candidate;   // defined by a view-copy op
  std::vector<bool> layout_change;     // defined by clone(dim_order=...)

  void add(std::string name, judge::Layout layout, ScalarType dtype, int src, bool alias, bool relayout) {
    names.push_back(std::move(name));
    layouts.push_back(std::move(layout));
    dtypes.push_back(dtype);
    source.push_back(src);
    alias_candidate.push_back(alias);
    layout_change.push_back(relayout);
  }
  size_t size() const { return names.size(); }
  std::vector<size_t> where(const std::vector<bool>& flags) const {
    std::vector<size_t> out;
    for (size_t i = 0; i < flags.size(); ++i)
      if (flags[i]) out.push_back(i);
    return out;
  }
};

template <typename T>
T pick_or(const std::vector<T>& from, uint64_t k, T fallback) {
  return from.empty() ? fallback : from[k % from.size()];
}

size_t pick_source(const Values& v, const Pick& p) {
  const size_t n = v.size(), latest = n - 1;
  switch (p.kind) {
    case kSrcLatest: return latest;
    case kSrcAny: return latest - p.k % n;
    case kSrcLayoutChange: {
      const std::vector<size_t> changed = v.where(v.layout_change);
      return changed.empty() ? latest : changed.back();
    }
    default: return pick_or(v.where(v.alias_candidate), p.k, latest);
  }
}

size_t pick_target(const Values& v, const Pick& p, size_t src) {
  const std::vector<size_t> aliases = v.where(v.alias_candidate);
  switch (p.kind) {
    case kTgtSource: return src;
    case kTgtAlias: return pick_or(aliases, p.k, src);
    case kTgtAliasOfAlias: {
      std::vector<size_t> nested;
      for (size_t a : aliases)
        if (v.alias_candidate[v.source[a]]) nested.push_back(a);
      return pick_or(nested, p.k, src);
    }
    default: {
      if (aliases.empty()) return src;
      size_t root = aliases[p.k % aliases.size()];
      while (v.alias_candidate[root]) root = static_cast<size_t>(v.source[root]);
      return root;
    }
  }
}

// The values (other than `t`) that copy_ may pair with `t`: equal sizes and dtype.
std::vector<size_t> same_sizes(const Values& v, size_t t) {
  std::vector<size_t> out;
  for (size_t i = 0; i < v.size(); ++i)
    if (i != t && v.layouts[i].sizes == v.layouts[t].sizes && v.dtypes[i] == v.dtypes[t]) out.push_back(i);
  return out;
}

// A valid defining op of the plan's kind over `in`, or (when none exists for
// `in`: select of rank 0, unsqueeze at rank 16, ...) a valid squeeze_copy.
Op realize_defining_op(const OpPlan& p, const judge::Layout& in) {
  Op op;
  bool ok = true;
  switch (p.kind) {
    case kSliceOp:
      ok = !in.sizes.empty();
      if (ok) op = slice_op("", "", realize_slice(p.slice, in.sizes));
      break;
    case kSelectOp: op.kind = OpKind::SelectCopy, ok = realize_select(p.select, in, op); break;
    case kUnsqueezeOp: op.kind = OpKind::UnsqueezeCopy, ok = realize_unsqueeze(p.unsqueeze, in, op); break;
    case kViewOp: realize_view(p.view, in, op); break;
    case kCloneOp: op.kind = OpKind::Clone; break;
    case kCloneOrderOp: op.kind = OpKind::Clone, op.dim_order = realize_order(p.order, in); break;
    default: ok = false; break;
  }
  if (!ok || !judge::op_result(op, in).error.empty()) {
    op = Op{};
    realize_squeeze(p.squeeze, in, op);
  }
  return op;
}

// copy_(t, s) between values of equal sizes and different dtypes, which must
// fail (slicefuzz's copy_ never casts): half of the time (by k), where two
// values allow it.
bool copy_between_dtypes(const Values& v, uint64_t k, Op& op) {
  if ((k / 4096) % 2) return false;
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t a = 0; a < v.size(); ++a)
    for (size_t b = 0; b < v.size(); ++b)
      if (v.layouts[a].sizes == v.layouts[b].sizes && v.dtypes[a] != v.dtypes[b]) pairs.push_back({a, b});
  if (pairs.empty()) return false;
  const auto [target, src] = pairs[k % pairs.size()];
  op = Op{};
  op.kind = OpKind::Copy;
  op.target = v.names[target];
  op.src = v.names[src];
  return true;
}

// copy_(t, s) that must fail: sizes differ, element counts agree when any two
// values allow it (e.g. a value and its unsqueeze; `t` itself when it is one of
// such a pair); else any value of other sizes; without one, a view_copy of the
// wrong count.
Op realize_bad_copy(const Values& v, size_t t, uint64_t k) {
  Op op;
  std::vector<std::pair<size_t, size_t>> same_count;
  std::vector<size_t> other_sizes;
  for (size_t a = 0; a < v.size(); ++a)
    for (size_t b = 0; b < v.size(); ++b) {
      if (v.layouts[a].sizes == v.layouts[b].sizes) continue;
      if (a == t) other_sizes.push_back(b);
      if (numel_saturated(v.layouts[a].sizes) == numel_saturated(v.layouts[b].sizes))
        same_count.push_back({a, b});
    }
  std::vector<std::pair<size_t, size_t>> with_t;
  for (const auto& p : same_count)
    if (p.first == t) with_t.push_back(p);
  if (!with_t.empty()) same_count = with_t;
  if (same_count.empty() && other_sizes.empty()) {
    op = realize_invalid_op(InvalidKind::ViewCountMismatch, k, v.layouts[t]);
    op.src = v.names[t];
    return op;
  }
  const auto [target, src] = same_count.empty() ? std::make_pair(t, other_sizes[k % other_sizes.size()])
                                                : same_count[k % same_count.size()];
  op.kind = OpKind::Copy;
  op.target = v.names[target];
  op.src = v.names[src];
  return op;
}

// The sizes of an input with a 0 next to sizes past int32 (see view_ops_gen.h).
std::vector<int64_t> huge_beside_zero(std::vector<int64_t> sizes, uint64_t k) {
  const std::vector<int64_t> huge = huge_sizes();
  const int64_t h = huge[k % huge.size()];
  const size_t rank = sizes.size();
  if (rank < 2) return (k / 8) & 1 ? std::vector<int64_t>{h, 0} : std::vector<int64_t>{0, h};
  const size_t zero = (k / 8) % rank;
  const size_t big = (zero + 1 + (k / 64) % (rank - 1)) % rank;
  sizes[zero] = 0;
  sizes[big] = h;
  if (rank >= 3 && ((k / 1024) & 1)) {  // two sizes within int32 whose product is not
    sizes[big] = 65536;
    sizes[(big + 1) % rank == zero ? (big + 2) % rank : (big + 1) % rank] = 65537;
  }
  return sizes;
}

// copy_(b, a) for the last two inputs a, b of the same sizes and dtype, if any.
bool copy_between_inputs(const Case& c, const Values& v, Op& op) {
  for (size_t b = c.inputs.size(); b-- > 1;)
    for (size_t a = b; a-- > 0;)
      if (v.layouts[a].sizes == v.layouts[b].sizes && v.dtypes[a] == v.dtypes[b]) {
        op.kind = OpKind::Copy;
        op.target = v.names[b];
        op.src = v.names[a];
        return true;
      }
  return false;
}

std::vector<std::string> realize_outputs(const Case& c, const Values& v, const OutputPlan& p) {
  const size_t n = v.size(), latest = n - 1;
  std::vector<int> users(n, 0);
  for (const Op& op : c.ops)
    for (const std::string& name : op_uses(op))
      for (size_t i = 0; i < n; ++i)
        if (v.names[i] == name) ++users[i];
  std::vector<bool> chosen(n, false);
  chosen[latest] = true;
  std::vector<size_t> shared;
  switch (p.kind.kind) {
    case kOutLast: break;
    case kOutPicks:
      chosen[latest] = false;
      for (uint64_t k : p.picks) chosen[k % n] = true;
      break;
    default:
      for (size_t i = 0; i < n; ++i)
        if (users[i] >= (p.kind.kind == kOutSeveralUsers ? 2 : 1) &&
            (p.kind.kind == kOutSeveralUsers || v.alias_candidate[i]))
          shared.push_back(i);
      if (!shared.empty()) chosen[shared[p.kind.k % shared.size()]] = true;
      break;
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i)
    if (chosen[i]) out.push_back(v.names[i]);
  return out;
}

// The case's inputs: x in `dtype`, then x1, x2 from `extra`.
void realize_inputs(Case& c, Values& v, ScalarType dtype, std::vector<int64_t> sizes,
                    std::vector<int> dim_order, const std::vector<ExtraInput>& extra) {
  c.dtype = dtype;
  c.inputs[0].sizes = std::move(sizes);
  c.inputs[0].dim_order = std::move(dim_order);
  for (size_t i = 0; i < extra.size(); ++i) {
    const ExtraInput& e = extra[i];
    InputDecl in;
    in.name = "x" + std::to_string(i + 1);
    in.sizes = e.kind == kExtraOwn ? e.sizes : c.inputs[0].sizes;
    in.dtype = e.kind == kExtraSameSizesSameDtype ? dtype : e.dtype;
    if (e.kind == kExtraSameSizesOtherDtype && in.dtype == dtype)  // another dtype, always
      in.dtype = static_cast<ScalarType>((static_cast<int>(dtype) + 1) % kNumScalarTypes);
    in.dim_order = e.order;  // drawn for these sizes
    c.inputs.push_back(std::move(in));
  }
  canonicalize(c);
  for (size_t i = 0; i < c.inputs.size(); ++i)
    v.add(c.inputs[i].name, judge::Layout{c.inputs[i].sizes, c.inputs[i].effective_dim_order()},
          c.input_dtype(i), -1, false, false);
}

Case realize_case(ScalarType dtype, std::vector<int64_t> sizes, std::vector<int> dim_order,
                  const std::vector<OpPlan>& plans, const InvalidPlan& invalid,
                  const OutputPlan& outputs, const std::vector<ExtraInput>& extra,
                  std::optional<uint64_t> copy_at) {
  // Where two inputs have the same sizes and dtype, the op at `copy_at` (mod
  // the ops) is copy_ between them.
  Case c;
  Values v;
  realize_inputs(c, v, dtype, std::move(sizes), std::move(dim_order), extra);
  size_t bad_at = invalid.present ? invalid.position % plans.size() : plans.size();
  // copy_ of the same count: in the second half, where the values to pair are.
  if (invalid.present && invalid.kind.kind == static_cast<size_t>(InvalidKind::CopySameCount))
    bad_at = std::max(bad_at, plans.size() / 2);
  for (size_t k = 0; k < plans.size(); ++k) {
    const OpPlan& p = plans[k];
    const size_t src = pick_source(v, p.source);
    const judge::Layout& in = v.layouts[src];
    Op op;
    if (k == bad_at) {
      const auto kind = static_cast<InvalidKind>(invalid.kind.kind);
      // With several inputs, half of the time a copy_ between dtypes where two
      // values of equal sizes differ in dtype (else the drawn rule).
      if (!(c.inputs.size() > 1 && copy_between_dtypes(v, invalid.kind.k, op)))
        op = kind == InvalidKind::CopySameCount ? realize_bad_copy(v, pick_target(v, p.target, src), invalid.kind.k)
                                                : realize_invalid_op(kind, invalid.kind.k, in);
    } else if (copy_at && k == *copy_at % plans.size() && copy_between_inputs(c, v, op)) {
      // op is copy_ between two inputs of the same sizes and dtype
    } else if (p.kind == kAddOp || p.kind == kCopyOp) {
      const size_t t = pick_target(v, p.target, src);
      const std::vector<size_t> partners = same_sizes(v, t);
      op.kind = p.kind == kCopyOp && !partners.empty() ? OpKind::Copy : OpKind::Add;
      op.target = v.names[t];
      if (op.kind == OpKind::Copy) op.src = v.names[partners[p.partner % partners.size()]];
      else op.scalar = p.scalar;
    } else {
      op = realize_defining_op(p, in);
    }
    if (op_defines(op.kind)) {
      if (op.src.empty()) op.src = v.names[src];
      const size_t from = static_cast<size_t>(
          std::find(v.names.begin(), v.names.end(), op.src) - v.names.begin());
      op.result = generated_value_name(v.size() - c.inputs.size());
      judge::OpOutcome out = judge::op_result(op, v.layouts[from]);
      // After a failing op nothing runs: the source's layout stands in for the
      // result, only to keep later plans realisable.
      v.add(op.result, out.error.empty() ? std::move(out.layout) : v.layouts[from], v.dtypes[from],
            static_cast<int>(from), op_is_view_copy(op.kind),
            op.kind == OpKind::Clone && op.dim_order.has_value());
    }
    c.ops.push_back(std::move(op));
  }
  c.outputs = realize_outputs(c, v, outputs);
  c.version = c.min_version();
  return c;
}

}  // namespace

rc::Gen<Case> genViewOpsCase() {
  return rc::gen::exec([] {
    // As genCase: the shape-independent program first (it shrinks while the
    // input is still the one that failed), then the input under it.
    const auto ops = *genNonEmptyList(kMaxGeneratedOps, genOpPlan());
    const auto invalid = *genInvalidPlan();
    const auto outputs = *genOutputPlan();
    const ScalarType dtype = *genDtype();
    const int rank = *genRank();
    auto sizes = *genSizes(rank);
    auto order = *genDimOrder(sizes);
    const Pick huge = *genPick({100 - kHugeBesideZeroPercent, kHugeBesideZeroPercent});
    if (huge.kind == 1) {
      sizes = huge_beside_zero(std::move(sizes), huge.k);
      if (sizes.size() != static_cast<size_t>(rank)) order.clear();
    }
    // Drawn last, so that every case of one input is the one this generator gave
    // before inputs could be several.
    const Pick several = *genPick({100 - kSeveralInputsPercent, kSeveralInputsPercent});
    std::vector<ExtraInput> extra;
    std::optional<uint64_t> copy_at;
    if (several.kind == 1) {
      extra.resize(1 + several.k % 2);
      for (ExtraInput& e : extra) {
        e.kind = *genWeightedIndex(weights::kExtraInput);
        e.dtype = *genDtype();
        e.sizes = *genSizes(*genRank());
        e.order = *genDimOrder(e.kind == kExtraOwn ? e.sizes : sizes);
      }
      // Half of the time copy_ between two inputs (where two have the same
      // sizes and dtype) at some op; otherwise none.
      const uint64_t at = *genBelow(2 * kMaxGeneratedOps);
      if (at < kMaxGeneratedOps) copy_at = at;
    }
    return realize_case(dtype, std::move(sizes), std::move(order), ops, invalid, outputs, extra, copy_at);
  });
}

}  // namespace slicefuzz
