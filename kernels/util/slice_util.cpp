#include "kernels/util/slice_util.h"

#include "kernels/kernel_runtime_context.h"
#include "kernels/util/planted_bug.h"

namespace slicefuzz {

namespace {
int64_t clamp_index(int64_t v, int64_t size) {
  if (v < 0) v += size;  // v >= INT64_MIN and size >= 0: no overflow
  if (v < 0) return 0;
  if (v > size) return size;
  return v;
}

int64_t clamp_start(int64_t v, int64_t size) {
  if (planted(PlantedBug::UnclampedNegativeStart) && v < -size) return v + size;
  if (planted(PlantedBug::StartClampOffByOne) && v > size && size > 0) return size - 1;
  return clamp_index(v, size);
}
}  // namespace

SliceRange normalize_slice(int64_t size, std::optional<int64_t> start,
                           std::optional<int64_t> end, int64_t step) {
  SliceRange r;
  r.step = step;
  r.start = start ? clamp_start(*start, size) : 0;
  int64_t e = end ? clamp_index(*end, size) : size;
  // (e - start - 1) / step + 1 == ceil((e - start) / step) without the overflow of
  // adding step - 1 when step is huge.
  r.length = e > r.start ? (e - r.start - 1) / step + 1 : 0;
  return r;
}

std::optional<int> normalize_dim(int64_t dim, int rank) {
  if (rank <= 0) return std::nullopt;
  if (dim < -rank || dim >= rank) return std::nullopt;
  if (planted(PlantedBug::NormalizeDimNegRank) && dim == -rank) return std::nullopt;
  return static_cast<int>(dim < 0 ? dim + rank : dim);
}

std::string slice_args_error(const Tensor& in, int64_t dim, int64_t step) {
  if (in.rank == 0) return "slice_copy cannot be applied to a 0-dim tensor";
  if (!normalize_dim(dim, in.rank))
    return format_msg("dim %lld is out of range for a tensor of rank %d (expected %d..%d)",
                      static_cast<long long>(dim), in.rank, -in.rank, in.rank - 1);
  if (step <= 0 && !(planted(PlantedBug::StepZeroAccepted) && step == 0))
    return format_msg("step must be positive, got %lld", static_cast<long long>(step));
  return {};
}

bool slice_is_dense(const int64_t* sizes, const uint8_t* dim_order, int rank, int d,
                    const SliceRange& r) {
  for (int i = 0; i < rank; ++i)
    if (i == d ? r.length == 0 : sizes[i] == 0) return true;  // empty result
  if (r.step != 1 && r.length != 1 && !planted(PlantedBug::DenseIgnoresStep)) return false;
  if (r.length == sizes[d]) return true;
  for (int i = 0; i < rank && dim_order[i] != d; ++i)
    if (sizes[dim_order[i]] != 1) return false;
  return true;
}

int64_t slice_alias_offset_elems(const Tensor& in, int d, const SliceRange& r) {
  for (int i = 0; i < in.rank; ++i)
    if (i == d ? r.length == 0 : in.sizes[i] == 0) return 0;
  return r.start * in.strides[planted(PlantedBug::AliasOffsetStride0) ? 0 : d];
}

}  // namespace slicefuzz
