// The judge's copy_ overlap fact (oracles/judge_overlap.h) against what torch 1.13
// does, each expectation measured with Debian's torch (issue 21's probe):
// x[0:4].copy_(x[2:6]) raises; x[0:4].copy_(x[0:4]) is a no-op; on x [3, 4],
// x[:, 1:3].copy_(x[:, 0:2]) runs and smears (order dependent) while
// x[:, 2:4].copy_(x[:, 0:2]) is disjoint; x.copy_(x.t()) raises.
#include <gtest/gtest.h>

#include "oracles/judge_overlap.h"

namespace slicefuzz::judge {
namespace {

StridedView view(std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset) {
  return StridedView{std::move(sizes), std::move(strides), offset};
}

TEST(JudgeOverlap, DenseViewsThatMeetAreRefusedByTorch) {
  EXPECT_EQ(copy_overlap(view({4}, {1}, 0), view({4}, {1}, 2)), CopyOverlap::TorchRefuses);
  EXPECT_EQ(copy_overlap(view({4}, {1}, 0), view({4}, {1}, 4)), CopyOverlap::Disjoint);
  // the same bytes, other strides (a transpose): PARTIAL
  EXPECT_EQ(copy_overlap(view({2, 2}, {2, 1}, 0), view({2, 2}, {1, 2}, 0)), CopyOverlap::TorchRefuses);
}

TEST(JudgeOverlap, SameDataAndEmptyViewsAreFine) {
  EXPECT_EQ(copy_overlap(view({4}, {1}, 0), view({4}, {1}, 0)), CopyOverlap::SameElements);
  EXPECT_EQ(copy_overlap(view({0}, {1}, 0), view({0}, {1}, 3)), CopyOverlap::Disjoint);
  // not dense, but every element onto itself (strides differ on a size-1 dim only)
  EXPECT_EQ(copy_overlap(view({1, 2}, {8, 2}, 0), view({1, 2}, {4, 2}, 0)), CopyOverlap::SameElements);
}

TEST(JudgeOverlap, NonDenseViewsThatShareElementsAreOrderDependent) {
  // x [3, 4]: x[:, 1:3] <- x[:, 0:2]
  EXPECT_EQ(copy_overlap(view({3, 2}, {4, 1}, 1), view({3, 2}, {4, 1}, 0)), CopyOverlap::OrderDependent);
  // x[:, 2:4] <- x[:, 0:2]: byte ranges meet, no element shared
  EXPECT_EQ(copy_overlap(view({3, 2}, {4, 1}, 2), view({3, 2}, {4, 1}, 0)), CopyOverlap::Disjoint);
  // x[0:4] <- x[0:8:2]: one view dense, the other not; x[0], x[2] shared
  EXPECT_EQ(copy_overlap(view({4}, {1}, 0), view({4}, {2}, 0)), CopyOverlap::OrderDependent);
  // even and odd elements: disjoint
  EXPECT_EQ(copy_overlap(view({4}, {2}, 0), view({4}, {2}, 1)), CopyOverlap::Disjoint);
}

TEST(JudgeOverlap, NonOverlappingAndDenseIsC10sRule) {
  EXPECT_TRUE(non_overlapping_and_dense(view({}, {}, 0)));
  EXPECT_TRUE(non_overlapping_and_dense(view({1}, {7}, 0)));
  EXPECT_FALSE(non_overlapping_and_dense(view({2}, {2}, 0)));
  EXPECT_TRUE(non_overlapping_and_dense(view({2, 3}, {1, 2}, 0)));  // permuted, packed
  EXPECT_TRUE(non_overlapping_and_dense(view({2, 1, 3}, {3, 99, 1}, 0)));
  EXPECT_FALSE(non_overlapping_and_dense(view({3, 2}, {4, 1}, 0)));
}

}  // namespace
}  // namespace slicefuzz::judge
