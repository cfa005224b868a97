#include "kernels/dim_order.h"

#include "kernels/tensor.h"
#include "kernels/util/planted_bug.h"

namespace slicefuzz {

bool is_valid_dim_order(const uint8_t* dim_order, int rank) {
  if (rank < 0 || rank > kMaxRank) return false;
  bool seen[kMaxRank] = {};
  for (int i = 0; i < rank; ++i) {
    if (dim_order[i] >= rank || seen[dim_order[i]]) return false;
    seen[dim_order[i]] = true;
  }
  return true;
}

void dim_order_to_strides(const int64_t* sizes, const uint8_t* dim_order, int rank,
                          int64_t* strides) {
  int64_t stride = 1;
  const bool ignore_order = planted(PlantedBug::StridesIgnoreDimOrder);
  for (int i = rank - 1; i >= 0; --i) {
    const int d = ignore_order ? i : dim_order[i];
    strides[d] = stride;
    stride *= sizes[d] > 1 ? sizes[d] : 1;
  }
}

void identity_dim_order(int rank, uint8_t* dim_order) {
  for (int i = 0; i < rank; ++i) dim_order[i] = static_cast<uint8_t>(i);
}

}  // namespace slicefuzz
