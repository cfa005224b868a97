#include "oracles/domain_adapter.h"

#include <algorithm>

namespace slicefuzz {

TorchSliceArgs adapt_slice_args_for_torch(int64_t size, std::optional<int64_t> start,
                                          std::optional<int64_t> end, int64_t step) {
  // size <= 2^62 for any case within a byte budget, so size + 1 cannot overflow.
  auto clamp_index = [&](std::optional<int64_t> v) -> std::optional<int64_t> {
    if (!v) return v;
    return std::clamp<int64_t>(*v, -(size + 1), size + 1);
  };
  TorchSliceArgs a{clamp_index(start), clamp_index(end), step};
  if (step > 0) a.step = std::min<int64_t>(step, std::max<int64_t>(size, 1));
  return a;
}

}  // namespace slicefuzz
