#include "generators/gen_weights.h"
#include "generators/slice_plan.h"

#include <limits>

#include "generators/interesting_values.h"
#include "oracles/judge_facts.h"

namespace slicefuzz::gen {

namespace {
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
}  // namespace

enum DimKind : size_t { kDimFromFront, kDimFromBack };
// kIndexAfterStart (end only) lands in (start, size], so that most slices are
// not empty: an empty slice is trivially right, and so is every op after it.
enum IndexKind : size_t {
  kIndexNone,
  kIndexAfterStart,
  kIndexInRange,
  kIndexNegative,
  kIndexNearSize,
  kIndexExtreme
};
enum StepKind : size_t { kStepOne, kStepSmall, kStepAtLeastSize, kStepHuge };
enum ValidityKind : size_t { kValid, kDimOutOfRange, kStepNotPositive };

rc::Gen<SlicePlan> genSlicePlan(int invalid_percent) {
  const size_t bad = static_cast<size_t>(std::clamp(invalid_percent, 0, 100));
  return rc::gen::map(rc::gen::tuple(genPick({(100 - bad) * weights::kSliceValidPerCent,
                                              bad * weights::kSliceBadDimPerCent,
                                              bad * weights::kSliceBadStepPerCent}),
                                     genPick(weights::kSliceDimForm), genPick(weights::kSliceStart),
                                     genPick(weights::kSliceEnd), genPick(weights::kSliceStep)),
                      [](const std::tuple<Pick, Pick, Pick, Pick, Pick>& t) {
                        return SlicePlan{std::get<0>(t), std::get<1>(t), std::get<2>(t),
                                         std::get<3>(t), std::get<4>(t)};
                      });
}

int64_t realize_dim(const Pick& p, int rank) {
  if (rank == 0) return p.kind == kDimFromBack ? -1 : 0;  // slicing rank 0 fails anyway
  const int64_t d = static_cast<int64_t>(p.k % static_cast<uint64_t>(rank));
  return p.kind == kDimFromBack ? d - rank : d;
}

// Sizes are small (<= 32), so size +- 1 cannot overflow. `start` is the
// normalised start, for kIndexAfterStart.
std::optional<int64_t> realize_index(const Pick& p, int64_t size, int64_t start = 0) {
  switch (p.kind) {
    case kIndexNone:
      return std::nullopt;
    case kIndexAfterStart:
      return start + 1 + below(p.k, size - start);
    case kIndexInRange:
      return below(p.k, size);  // an element's index; size is kIndexNearSize's
    case kIndexNegative:
      return -1 - below(p.k, size);
    case kIndexNearSize: {
      const std::vector<int64_t> near = near_size_indices(size);
      return near[p.k % near.size()];
    }
    default: {
      const std::vector<int64_t> extreme = extreme_indices();
      return extreme[p.k % extreme.size()];
    }
  }
}

int64_t realize_step(const Pick& p, int64_t size) {
  switch (p.kind) {
    case kStepOne:
      return 1;
    case kStepSmall:
      return 2 + static_cast<int64_t>(p.k % 4);
    case kStepAtLeastSize:
      return std::max<int64_t>(size, 1) + static_cast<int64_t>(p.k % 3);
    default: {
      const std::vector<int64_t> huge = huge_steps();
      return huge[p.k % huge.size()];
    }
  }
}

SliceArgs realize_slice(const SlicePlan& plan, const std::vector<int64_t>& sizes) {
  const int rank = static_cast<int>(sizes.size());
  SliceArgs a;
  a.dim = realize_dim(plan.dim, rank);
  const int64_t size = rank == 0 ? 0 : sizes[judge::dim_index(rank, a.dim)];
  a.start = realize_index(plan.start, size);
  a.end = realize_index(plan.end, size,
                        judge::normalize_slice_args({size}, 0, a.start, std::nullopt, 1).start);
  a.step = realize_step(plan.step, size);
  const int64_t r = rank;
  if (plan.validity.kind == kDimOutOfRange) {
    const std::vector<int64_t> dims = out_of_range_dims(r);
    a.dim = dims[plan.validity.k % dims.size()];
  } else if (plan.validity.kind == kStepNotPositive) {
    const std::vector<int64_t> steps = non_positive_steps();
    a.step = steps[plan.validity.k % steps.size()];
  }
  return a;
}

// The result's sizes, or (for invalid arguments) the source's as a stand-in:
// nothing after a failing op runs, the stand-in only keeps later plans realisable.
std::vector<int64_t> slice_result_sizes(const std::vector<int64_t>& sizes, const SliceArgs& a) {
  if (!judge::slice_error(static_cast<int>(sizes.size()), a.dim, a.step).empty()) return sizes;
  const judge::SliceSpan span = judge::normalize_slice_args(sizes, a.dim, a.start, a.end, a.step);
  std::vector<int64_t> out = sizes;
  out[span.dim] = span.length;
  return out;
}

rc::Gen<int64_t> genAddScalar() {
  return genWeighted<int64_t>(
      {{95, genElement<int64_t>({1, -1, 2, 0, 3, -2, 4, 5, -3})},
       {5, genElement<int64_t>({100, 1000, 65536, -70000, int64_t{1} << 31, -(int64_t{1} << 31) - 1,
                                (int64_t{1} << 53) + 1, kInt64Max, kInt64Min})}});
}

Op slice_op(std::string result, std::string src, const SliceArgs& a) {
  Op op;
  op.kind = OpKind::SliceCopy;
  op.result = std::move(result);
  op.src = std::move(src);
  op.dim = a.dim;
  op.start = a.start;
  op.end = a.end;
  op.step = a.step;
  return op;
}


}  // namespace slicefuzz::gen
