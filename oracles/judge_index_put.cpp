// index_put's facts (judge_index_put.h says where they come from).
#include "oracles/judge_index_put.h"

#include <cstring>

#include "oracles/values.h"

#include "oracles/judge_index_copy.h"

namespace slicefuzz::judge {

namespace {
}  // namespace

std::vector<int64_t> index_put_target_sizes(const std::vector<int64_t>& self, int dim, size_t count) {
  std::vector<int64_t> t = self;
  t[dim] = static_cast<int64_t>(count);
  return t;
}

std::string index_put_error(const Layout& self, ScalarType self_type, const Layout& values,
                            ScalarType values_type, int64_t dim, const std::vector<int64_t>& index) {
  const int rank = static_cast<int>(self.sizes.size());
  if (rank == 0) return "index_put: too many indices for a tensor of dimension 0";
  const int d = dim_index(rank, dim);
  if (d < 0)
    return "index_put: dim " + std::to_string(dim) + " is outside [" + std::to_string(-rank) + ", " +
           std::to_string(rank - 1) + "]";
  if (self_type != values_type)
    return "index_put: self is " + std::string(scalar_type_name(self_type)) + ", values " +
           std::string(scalar_type_name(values_type)) + " (slicefuzz programs do not cast)";
  const std::vector<int64_t> target = index_put_target_sizes(self.sizes, d, index.size());
  const size_t vr = values.sizes.size();
  bool broadcasts = vr <= target.size();
  for (size_t i = 0; broadcasts && i < vr; ++i) {
    const int64_t v = values.sizes[vr - 1 - i], t = target[target.size() - 1 - i];
    broadcasts = v == 1 || v == t;
  }
  if (!broadcasts)
    return "index_put: values " + sizes_string(values.sizes) + " do not broadcast to the indexed shape " +
           sizes_string(target);
  const int64_t size = self.sizes[d];
  // torch 1.13's advanced indexing refuses any index into a dim of size 0, even
  // where nothing is written (measured: self [0, 0, 4, 5], dim 1, index [1]);
  // into a dim of another size, only the entries that write are checked.
  if (size == 0 && !index.empty())
    return "index_put: index is out of bounds for dim " + std::to_string(d) + " of size 0";
  int64_t written = 1;
  for (int64_t s : target) written *= s;
  if (written == 0) return {};
  for (int64_t i : index)
    if (i < -size || i >= size)
      return "index_put: index " + std::to_string(i) + " is outside [" + std::to_string(-size) + ", " +
             std::to_string(size) + ") along dim " + std::to_string(d);
  return {};
}

std::vector<uint8_t> broadcast_elements(const uint8_t* values, const std::vector<int64_t>& values_sizes,
                                        const std::vector<int64_t>& target, size_t es) {
  const size_t r = target.size(), vr = values_sizes.size();
  // values' row-major stride at each target dim (0 where it broadcasts).
  std::vector<int64_t> stride(r, 0);
  int64_t running = 1;
  for (size_t i = 0; i < vr; ++i) {
    const size_t vd = vr - 1 - i, td = r - 1 - i;
    if (values_sizes[vd] != 1) stride[td] = running;
    running *= values_sizes[vd];
  }
  int64_t n = 1;
  for (int64_t s : target) n *= s;
  std::vector<uint8_t> out(static_cast<size_t>(n) * es);
  std::vector<int64_t> idx(r, 0);
  for (int64_t e = 0; e < n; ++e) {
    int64_t from = 0;
    for (size_t k = 0; k < r; ++k) from += idx[k] * stride[k];
    std::memcpy(out.data() + static_cast<size_t>(e) * es, values + static_cast<size_t>(from) * es, es);
    for (size_t k = r; k-- > 0;) {
      if (++idx[k] < target[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

void index_put_elements(uint8_t* self, const std::vector<int64_t>& sizes, const uint8_t* values,
                        const std::vector<int64_t>& values_sizes, int64_t dim,
                        const std::vector<int64_t>& index, size_t es) {
  const int d = dim_index(static_cast<int>(sizes.size()), dim);
  std::vector<int64_t> wrapped = index;
  for (int64_t& i : wrapped)
    if (i < 0) i += sizes[d];
  const std::vector<uint8_t> source =
      broadcast_elements(values, values_sizes, index_put_target_sizes(sizes, d, index.size()), es);
  index_copy_elements(self, sizes, source.data(), d, wrapped, es);
}

}  // namespace slicefuzz::judge
