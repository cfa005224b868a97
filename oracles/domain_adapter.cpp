#include "oracles/domain_adapter.h"

#include <algorithm>
#include <string>

namespace slicefuzz {

TorchSliceArgs adapt_slice_args_for_torch(int64_t size, std::optional<int64_t> start,
                                          std::optional<int64_t> end, int64_t step) {
  // size <= 2^62 for any case within a byte budget, so size + 1 cannot overflow.
  auto clamp_index = [&](std::optional<int64_t> v) -> std::optional<int64_t> {
    if (!v) return v;
    return std::clamp<int64_t>(*v, -(size + 1), size + 1);
  };
  return TorchSliceArgs{clamp_index(start), clamp_index(end), torch_slice_step(size, step)};
}

int64_t torch_slice_step(int64_t size, int64_t step) {
  return step > 0 ? std::min<int64_t>(step, std::max<int64_t>(size, 1)) : step;
}

std::vector<int64_t> squeeze_dims_for_torch(int64_t rank, const std::vector<int64_t>& dims) {
  const __int128 span = std::max<int64_t>(rank, 1);  // a 0-dim tensor takes [-1, 0]
  std::vector<int64_t> normalised;
  for (int64_t dim : dims) {
    const __int128 d = dim < 0 ? dim + span : __int128{dim};
    if (d < 0 || d >= span) return {dim};  // torch raises its own error on it
    if (std::find(normalised.begin(), normalised.end(), static_cast<int64_t>(d)) != normalised.end())
      throw TorchDomainError("squeeze_copy: dim " + std::to_string(static_cast<int64_t>(d)) +
                             " appears more than once in dims (refused before torch 1.13, "
                             "which has no squeeze.dims)");
    normalised.push_back(static_cast<int64_t>(d));
  }
  std::sort(normalised.rbegin(), normalised.rend());
  return normalised;
}

void check_unsqueeze_for_torch(int64_t rank) {
  if (rank + 1 > 16)
    throw TorchDomainError("unsqueeze_copy: the result's rank " + std::to_string(rank + 1) +
                           " exceeds 16 (refused before torch 1.13, which allows 64)");
}

void check_expand_sizes_for_torch(const std::vector<int64_t>& sizes) {
  if (sizes.size() > 16)
    throw TorchDomainError("expand_copy: " + std::to_string(sizes.size()) +
                           " sizes exceed rank 16 (refused before torch 1.13, which allows 64)");
}

void check_view_sizes_for_torch(const std::vector<int64_t>& sizes) {
  if (sizes.size() > 16)
    throw TorchDomainError("view_copy: " + std::to_string(sizes.size()) +
                           " sizes exceed rank 16 (refused before torch 1.13, which allows 64)");
  __int128 product = 1;
  bool zero = false, overflow = false;
  for (int64_t s : sizes) {
    if (s == -1) continue;
    if (s < -1) return;  // torch refuses it itself
    zero = zero || s == 0;
    if (!overflow) product *= s;
    overflow = overflow || product > INT64_MAX;
  }
  if (overflow && !zero)
    throw TorchDomainError("view_copy: the sizes' product passes INT64_MAX (refused before "
                           "torch 1.13, which wraps it in int64)");
}

}  // namespace slicefuzz
