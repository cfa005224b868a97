// Shape-independent plans for the version-2 view-copy ops (the select,
// squeeze, unsqueeze and view copies) and for clone's dim order, and their
// realisation against a concrete source layout (the judge's, judge_layouts.h).
// Internal to generators/. Every plan lists its options simplest first and
// shrinks toward the first, like the slice plans (slice_plan.h).
//
// A realised op is valid for its source: the realise functions return false when
// no valid op of that kind exists for the source (select of a rank-0 or all-empty
// tensor, unsqueeze at rank 16), and the caller picks another kind.
#pragma once
#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "generators/gen_choices.h"
#include "oracles/judge_layouts.h"
#include "vocab/case.h"

namespace slicefuzz::gen {

// select: which dim (outermost in the source's dim order: the dense alias;
// by position from the front or, spelled negative, from the back; innermost in
// the order: a copy unless the outer dims have size 1) and which index (0, in
// range, negative, size - 1, -size).
struct SelectPlan {
  Pick dim, index;
};
rc::Gen<SelectPlan> genSelectPlan();
bool realize_select(const SelectPlan& p, const judge::Layout& in, Op& op);

// squeeze_copy: which dims to list (every size-1 dim, one of them, a dim of
// size > 1 that stays, one of each, every dim, none) and how to spell them
// (dims=[...] or dim=INT, positive or negative). Always realisable.
struct SqueezePlan {
  Pick which, form;
};
rc::Gen<SqueezePlan> genSqueezePlan();
bool realize_squeeze(const SqueezePlan& p, const judge::Layout& in, Op& op);

// unsqueeze_copy: front, end (dim == rank), middle, or spelled negative.
struct UnsqueezePlan {
  Pick dim;
};
rc::Gen<UnsqueezePlan> genUnsqueezePlan();
bool realize_unsqueeze(const UnsqueezePlan& p, const judge::Layout& in, Op& op);

// view_copy: the target shape (the same, flattened, two neighbours merged, a dim
// split in two, a 1 inserted, the 1s dropped, rank 0, or, for an empty source,
// sizes past int32 beside a 0) and whether one entry is spelled -1. Always
// realisable (falls back to the flattened shape).
struct ViewPlan {
  Pick shape, minus_one;
};
rc::Gen<ViewPlan> genViewPlan();
bool realize_view(const ViewPlan& p, const judge::Layout& in, Op& op);

// clone(dim_order=...): identity, the source's own order spelled out, reversed,
// channels-last-like (0, 2, ..., r-1, 1), a random permutation, or the source's
// order with two entries swapped.
struct OrderPlan {
  Pick kind;
  std::vector<uint64_t> keys;  // kMaxCaseRank random keys for the random permutation
};
rc::Gen<OrderPlan> genOrderPlan();
std::vector<int> realize_order(const OrderPlan& p, const judge::Layout& in);

// How many options each plan's Pick kinds have, for callers that draw plans
// without RapidCheck (the fuzzer's mutator); a kind past the count is invalid.
inline constexpr size_t kSelectDimKinds = 4, kSelectIndexKinds = 5, kSqueezeWhichKinds = 6,
                        kSqueezeFormKinds = 4, kUnsqueezeKinds = 4, kViewShapeKinds = 8,
                        kMinusOneKinds = 2, kOrderKinds = 6;

// Sizes past int32 for a dim next to a size-0 dim (no bytes, but lengths and
// products that overflow ExecuTorch's int32 sizes): 2^31, 3e9, 2^32, 2^32+1, ...
std::vector<int64_t> huge_sizes();

// The element count of `sizes`, saturated at INT64_MAX (0 when any size is 0).
int64_t numel_saturated(const std::vector<int64_t>& sizes);

}  // namespace slicefuzz::gen
