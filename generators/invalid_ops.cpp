#include "generators/invalid_ops.h"

#include <algorithm>
#include <limits>

#include "generators/interesting_values.h"
#include "generators/view_op_plans.h"

namespace slicefuzz::gen {

namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

template <typename T>
const T& choose(uint64_t k, const std::vector<T>& options) {
  return options[k % options.size()];
}

Op op_of(OpKind kind) {
  Op op;
  op.kind = kind;
  return op;
}

}  // namespace

const char* invalid_kind_name(InvalidKind kind) {
  static const char* const kNames[kNumInvalidKinds] = {
      "copy_ same count", "select index", "select dim", "squeeze repeated dim",
      "squeeze dim",      "view two -1",  "view -1 beside 0", "view count mismatch",
      "view size < -1",   "unsqueeze dim", "slice dim", "slice step", "clone dim_order"};
  return kNames[static_cast<size_t>(kind)];
}

Op realize_invalid_op(InvalidKind kind, uint64_t k, const judge::Layout& in) {
  const int rank = static_cast<int>(in.sizes.size());
  const int span = std::max(rank, 1);
  const int64_t n = numel_saturated(in.sizes);
  const int d = static_cast<int>(k % static_cast<uint64_t>(span));
  const uint64_t k2 = k / 16;  // a second, independent choice
  switch (kind) {
    case InvalidKind::SelectIndex: {
      Op op = op_of(OpKind::SelectCopy);
      op.dim = d;  // a rank-0 source fails for its rank
      const int64_t size = rank ? in.sizes[d] : 0;
      op.index = choose<int64_t>(k2, {size, -size - 1, size + 7, kInt64Max, kInt64Min, -size - 7});
      return op;
    }
    case InvalidKind::SelectDim: {
      Op op = op_of(OpKind::SelectCopy);
      op.dim = choose(k2, out_of_range_dims(rank));
      return op;
    }
    case InvalidKind::SqueezeRepeated: {
      Op op = op_of(OpKind::SqueezeCopy);
      // The same dim twice, maybe once positive and once negative, maybe with a
      // distinct valid dim between the two.
      const int64_t again = (k2 & 1) ? d - span : d;
      op.ints = {d};
      if ((k2 & 2) && span > 1) op.ints.push_back((d + 1) % span);
      op.ints.push_back(again);
      return op;
    }
    case InvalidKind::SqueezeDim: {
      Op op = op_of(OpKind::SqueezeCopy);
      const int64_t bad = choose(k2, out_of_range_dims(span));
      op.single_dim = (k2 / 8) & 1;
      op.ints = op.single_dim ? std::vector<int64_t>{bad} : std::vector<int64_t>{d, bad};
      return op;
    }
    case InvalidKind::ViewTwoMinusOnes: {
      Op op = op_of(OpKind::ViewCopy);
      op.ints = rank >= 2 ? in.sizes : std::vector<int64_t>{1, 1};
      op.ints[0] = -1;
      op.ints[op.ints.size() - 1] = -1;
      if (k2 & 1) op.ints.insert(op.ints.begin() + 1, 1);
      return op;
    }
    case InvalidKind::ViewMinusOneBesideZero: {
      Op op = op_of(OpKind::ViewCopy);
      op.ints = choose<std::vector<int64_t>>(k2, {{0, -1}, {-1, 0}, {2, 0, -1}, {-1, 3, 0}});
      return op;
    }
    case InvalidKind::ViewCountMismatch: {
      Op op = op_of(OpKind::ViewCopy);
      switch (k2 % 4) {
        case 0: op.ints = {n + 1}; break;
        case 1: op.ints = {n == 0 ? 1 : 2 * n}; break;
        case 2:
          // The source's sizes with one entry one larger (an empty source stays
          // empty: count 0 == 0; so grow a 0 to 1 there, and nothing else is 0).
          op.ints = in.sizes.empty() ? std::vector<int64_t>{2} : in.sizes;
          if (n == 0) std::replace(op.ints.begin(), op.ints.end(), int64_t{0}, int64_t{1});
          else op.ints[k % op.ints.size()] += 1;
          break;
        default:
          // -1 with the other sizes' product not dividing the count.
          op.ints = n > 0 ? std::vector<int64_t>{-1, n + 1} : std::vector<int64_t>{1, 1};
          break;
      }
      return op;
    }
    case InvalidKind::ViewNegativeSize: {
      Op op = op_of(OpKind::ViewCopy);
      op.ints = choose<std::vector<int64_t>>(k2, {{-2}, {n, -3}, {kInt64Min}, {-1, -2}});
      return op;
    }
    case InvalidKind::UnsqueezeDim: {
      Op op = op_of(OpKind::UnsqueezeCopy);
      op.dim = choose(k2, out_of_range_dims(rank + 1));  // at rank 16 every dim fails
      return op;
    }
    case InvalidKind::SliceDim: {
      Op op = op_of(OpKind::SliceCopy);
      op.dim = choose(k2, out_of_range_dims(rank));
      return op;
    }
    case InvalidKind::SliceStep: {
      Op op = op_of(OpKind::SliceCopy);
      op.dim = rank ? d : 0;
      op.step = choose(k2, non_positive_steps());
      return op;
    }
    case InvalidKind::CloneOrder:
    case InvalidKind::CopySameCount: break;
  }
  // clone(dim_order=...): an entry repeated, one entry too many or too few, or
  // an entry equal to the rank (all entries stay in 0..15, so the file parses).
  Op op = op_of(OpKind::Clone);
  std::vector<int> order = judge::identity_order(rank);
  switch (k2 % 3) {
    case 0:
      if (rank >= 2) order[1] = order[0];
      else order.push_back(0);
      break;
    case 1:
      if (rank < kMaxCaseRank) order.push_back(rank);
      else order.pop_back();
      break;
    default:
      if (rank >= 1 && rank < kMaxCaseRank) order[d] = rank;
      else if (rank == 0) order = {0};
      else order.pop_back();
      break;
  }
  op.dim_order = order;
  return op;
}

}  // namespace slicefuzz::gen
