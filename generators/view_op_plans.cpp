#include "generators/gen_weights.h"
#include "generators/view_op_plans.h"

#include <algorithm>
#include <limits>

namespace slicefuzz::gen {

namespace {

// Spells normalised dim `d` of a tensor of rank `span` negative (d - span).
int64_t spelled(int d, int span, bool negative) { return negative ? d - span : d; }

int rank_of(const judge::Layout& in) { return static_cast<int>(in.sizes.size()); }

}  // namespace

std::vector<int64_t> huge_sizes() {
  return {int64_t{1} << 31, 3000000000, int64_t{1} << 32, (int64_t{1} << 32) + 1,
          (int64_t{1} << 31) + 1, int64_t{1} << 40};
}

int64_t numel_saturated(const std::vector<int64_t>& sizes) {
  if (std::count(sizes.begin(), sizes.end(), 0) > 0) return 0;
  int64_t n = 1;
  for (int64_t s : sizes) {
    if (s > std::numeric_limits<int64_t>::max() / std::max<int64_t>(n, 1))
      return std::numeric_limits<int64_t>::max();
    n *= s;
  }
  return n;
}

// -------------------------------------------------------------------- select

enum SelectDimKind : size_t { kSelOutermost, kSelFromFront, kSelFromBack, kSelInnermost };
enum SelectIndexKind : size_t { kIdxZero, kIdxInRange, kIdxNegative, kIdxLast, kIdxMostNegative };
static_assert(kSelectDimKinds == kSelInnermost + 1 && kSelectIndexKinds == kIdxMostNegative + 1);

rc::Gen<SelectPlan> genSelectPlan() {
  return rc::gen::map(rc::gen::pair(genPick(weights::kSelectDim), genPick(weights::kSelectIndex)),
                      [](const std::pair<Pick, Pick>& p) { return SelectPlan{p.first, p.second}; });
}

bool realize_select(const SelectPlan& p, const judge::Layout& in, Op& op) {
  const int rank = rank_of(in);
  if (rank == 0) return false;
  int d = 0;
  switch (p.dim.kind) {
    case kSelOutermost: d = in.dim_order[0]; break;
    case kSelInnermost: d = in.dim_order[rank - 1]; break;
    default: d = static_cast<int>(below(p.dim.k, rank)); break;
  }
  // An empty dim has no index to select: take the next non-empty one in the order.
  const size_t at = std::find(in.dim_order.begin(), in.dim_order.end(), d) - in.dim_order.begin();
  for (int i = 0; i < rank && in.sizes[d] == 0; ++i) d = in.dim_order[(at + i) % rank];
  if (in.sizes[d] == 0) return false;
  const int64_t size = in.sizes[d];
  op.dim = spelled(d, rank, p.dim.kind == kSelFromBack);
  switch (p.index.kind) {
    case kIdxZero: op.index = 0; break;
    case kIdxInRange: op.index = below(p.index.k, size); break;
    case kIdxNegative: op.index = -1 - below(p.index.k, size); break;
    case kIdxLast: op.index = size - 1; break;
    default: op.index = -size; break;
  }
  return true;
}

// -------------------------------------------------------------- squeeze_copy

enum SqueezeWhich : size_t { kSqAllOnes, kSqOneOne, kSqNonOne, kSqMixed, kSqEveryDim, kSqNone };
enum SqueezeForm : size_t { kFormList, kFormListNegative, kFormSingle, kFormSingleNegative };
static_assert(kSqueezeWhichKinds == kSqNone + 1 && kSqueezeFormKinds == kFormSingleNegative + 1);

rc::Gen<SqueezePlan> genSqueezePlan() {
  return rc::gen::map(rc::gen::pair(genPick(weights::kSqueezeWhich), genPick(weights::kSqueezeForm)),
                      [](const std::pair<Pick, Pick>& p) { return SqueezePlan{p.first, p.second}; });
}

bool realize_squeeze(const SqueezePlan& p, const judge::Layout& in, Op& op) {
  const int rank = rank_of(in);
  const int span = std::max(rank, 1);  // a rank-0 tensor takes dim 0 / -1
  std::vector<int> ones, others, listed;
  for (int d = 0; d < rank; ++d) (in.sizes[d] == 1 ? ones : others).push_back(d);
  auto one_of = [&](const std::vector<int>& v, const std::vector<int>& fallback) {
    const std::vector<int>& from = v.empty() ? fallback : v;
    return from.empty() ? 0 : from[p.which.k % from.size()];
  };
  switch (p.which.kind) {
    case kSqAllOnes: listed = ones.empty() ? std::vector<int>{one_of(others, {})} : ones; break;
    case kSqOneOne: listed = {one_of(ones, others)}; break;
    case kSqNonOne: listed = {one_of(others, ones)}; break;
    case kSqMixed:
      listed = {one_of(ones, others)};
      if (!ones.empty() && !others.empty()) listed.push_back(one_of(others, {}));
      break;
    case kSqEveryDim:
      for (int d = 0; d < span; ++d) listed.push_back(d);
      break;
    default: break;  // dims=[]: nothing listed, nothing removed
  }
  if ((p.which.k >> 8) & 1) std::reverse(listed.begin(), listed.end());
  const bool negative = p.form.kind == kFormListNegative || p.form.kind == kFormSingleNegative;
  op.kind = OpKind::SqueezeCopy;
  op.ints.clear();
  for (int d : listed) op.ints.push_back(spelled(d, span, negative));
  op.single_dim = listed.size() == 1 && p.form.kind >= kFormSingle;
  return true;
}

// ------------------------------------------------------------ unsqueeze_copy

enum UnsqueezeKind : size_t { kUnsFront, kUnsEnd, kUnsMiddle, kUnsNegative };
static_assert(kUnsqueezeKinds == kUnsNegative + 1);

rc::Gen<UnsqueezePlan> genUnsqueezePlan() {
  return rc::gen::map(genPick(weights::kUnsqueezeDim), [](const Pick& p) { return UnsqueezePlan{p}; });
}

bool realize_unsqueeze(const UnsqueezePlan& p, const judge::Layout& in, Op& op) {
  const int rank = rank_of(in);
  if (rank >= kMaxCaseRank) return false;
  switch (p.dim.kind) {
    case kUnsFront: op.dim = 0; break;
    case kUnsEnd: op.dim = rank; break;
    case kUnsMiddle: op.dim = below(p.dim.k, rank + 1); break;
    default: op.dim = -1 - below(p.dim.k, rank + 1); break;
  }
  return true;
}

// ----------------------------------------------------------------- view_copy

enum ViewShape : size_t {
  kViewSame,
  kViewFlatten,
  kViewMerge,
  kViewSplit,
  kViewInsertOne,
  kViewDropOnes,
  kViewToRank0,
  kViewHugeEmpty
};
enum MinusOne : size_t { kNoMinusOne, kMinusOneAt };
static_assert(kViewShapeKinds == kViewHugeEmpty + 1 && kMinusOneKinds == kMinusOneAt + 1);

rc::Gen<ViewPlan> genViewPlan() {
  return rc::gen::map(rc::gen::pair(genPick(weights::kViewShape), genPick(weights::kViewMinusOne)),
                      [](const std::pair<Pick, Pick>& p) { return ViewPlan{p.first, p.second}; });
}

bool realize_view(const ViewPlan& p, const judge::Layout& in, Op& op) {
  const int rank = rank_of(in);
  const int64_t n = numel_saturated(in.sizes);
  const uint64_t k = p.shape.k;
  std::vector<int64_t> sizes{n};  // flattened: the fallback of every other shape
  switch (p.shape.kind) {
    case kViewSame: sizes = in.sizes; break;
    case kViewMerge:
      if (rank >= 2) {
        const int i = static_cast<int>(below(k, rank - 1));
        sizes = in.sizes;
        sizes[i] *= sizes[i + 1];  // <= the element count, or 0
        sizes.erase(sizes.begin() + i + 1);
      }
      break;
    case kViewSplit:
      if (rank >= 1 && rank < kMaxCaseRank) {
        const int i = static_cast<int>(below(k, rank));
        const int64_t s = in.sizes[i];
        // The smallest factor below 1024 (huge sizes stay cheap), else (1, s).
        int64_t f = s < 2 ? 1 : 2;
        while (f < s && f < 1024 && s % f != 0) ++f;
        if (s % f != 0) f = 1;
        sizes = in.sizes;
        sizes[i] = f;
        sizes.insert(sizes.begin() + i + 1, s / f);  // s = 0: (1, 0), s = 1: (1, 1)
      }
      break;
    case kViewInsertOne:
      if (rank < kMaxCaseRank) {
        sizes = in.sizes;
        sizes.insert(sizes.begin() + below(k, rank + 1), 1);
      }
      break;
    case kViewDropOnes:
      sizes.clear();
      for (int64_t s : in.sizes)
        if (s != 1) sizes.push_back(s);
      break;
    case kViewToRank0:
      if (n == 1) sizes.clear();
      break;
    case kViewHugeEmpty:
      if (n == 0) {
        const std::vector<int64_t> huge = huge_sizes();
        const int64_t h = huge[k % huge.size()];
        const std::vector<std::vector<int64_t>> shapes{
            {0, h}, {h, 0}, {h, 0, 3}, {2, 0, h}, {65536, 0, 65537}};
        sizes = shapes[(k / huge.size()) % shapes.size()];
      }
      break;
    default: break;
  }
  // One entry spelled -1 (inferred): only without a 0 among the sizes, where the
  // inferred size would be ambiguous (an error; see invalid_ops.cpp).
  if (p.minus_one.kind == kMinusOneAt && !sizes.empty() &&
      std::count(sizes.begin(), sizes.end(), 0) == 0)
    sizes[below(p.minus_one.k, static_cast<int64_t>(sizes.size()))] = -1;
  op.kind = OpKind::ViewCopy;
  op.ints = sizes;
  return true;
}

// ------------------------------------------------------- clone(dim_order=...)

enum OrderKind : size_t { kOrdIdentity, kOrdSource, kOrdReversed, kOrdChannelsLast, kOrdRandom, kOrdSwap };
static_assert(kOrderKinds == kOrdSwap + 1);

rc::Gen<OrderPlan> genOrderPlan() {
  return rc::gen::map(
      rc::gen::pair(genPick(weights::kCloneOrder),
                    rc::gen::container<std::vector<uint64_t>>(kMaxCaseRank, genBelow(64))),
      [](const std::pair<Pick, std::vector<uint64_t>>& p) { return OrderPlan{p.first, p.second}; });
}

std::vector<int> realize_order(const OrderPlan& p, const judge::Layout& in) {
  const int rank = rank_of(in);
  std::vector<int> order = judge::identity_order(rank);
  switch (p.kind.kind) {
    case kOrdIdentity: break;
    case kOrdSource: order = in.dim_order; break;
    case kOrdReversed: std::reverse(order.begin(), order.end()); break;
    case kOrdChannelsLast:
      // (0, 2, 3, ..., r-1, 1): channels-last for rank 4, channels-last-3d for 5.
      if (rank >= 3) std::rotate(order.begin() + 1, order.begin() + 2, order.end());
      else std::reverse(order.begin(), order.end());
      break;
    case kOrdRandom:
      order = argsort(std::vector<uint64_t>(p.keys.begin(), p.keys.begin() + rank));
      break;
    default:
      order = in.dim_order;
      if (rank >= 2) {
        const int a = static_cast<int>(below(p.kind.k, rank));
        const int b = static_cast<int>(below(p.kind.k / 16 + 1 + a, rank));
        std::swap(order[a], order[b]);
      }
      break;
  }
  return order;
}

}  // namespace slicefuzz::gen
