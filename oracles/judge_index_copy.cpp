// index_copy's facts (judge_index_copy.h says where they come from).
#include "oracles/judge_index_copy.h"

#include <cstdio>
#include <cstring>

#include "oracles/values.h"

namespace slicefuzz::judge {

namespace {
// `sizes` without entry d (a 0-dim tensor's are empty already).
std::vector<int64_t> without(std::vector<int64_t> sizes, int d) {
  if (!sizes.empty()) sizes.erase(sizes.begin() + d);
  return sizes;
}

int64_t product(const std::vector<int64_t>& s, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to; ++i) n *= s[i];
  return n;
}
}  // namespace

std::string index_copy_error(const Layout& self, ScalarType self_type, const Layout& source,
                             ScalarType source_type, int64_t dim, const std::vector<int64_t>& index) {
  const int rank = static_cast<int>(self.sizes.size());
  const int span = rank > 0 ? rank : 1;
  const int d = dim_index(span, dim);
  if (d < 0)
    return "index_copy: dim " + std::to_string(dim) + " is outside [" + std::to_string(-span) + ", " +
           std::to_string(span - 1) + "]";
  const int source_rank = static_cast<int>(source.sizes.size());
  const int64_t count = static_cast<int64_t>(index.size());
  if (source_rank == 0 && count != 1)
    return "index_copy: a 0-dim source takes one index, not " + std::to_string(count);
  if (source_rank != 0 && rank != 0 && source_rank != rank)
    return "index_copy: source has rank " + std::to_string(source_rank) + ", self " + std::to_string(rank);
  if (self_type != source_type)
    return "index_copy: self is " + std::string(scalar_type_name(self_type)) + ", source " +
           std::string(scalar_type_name(source_type)) + " (slicefuzz programs do not cast)";
  // torch erases `dim` from source's sizes too (d < source's rank here: equal
  // ranks, or a 0-dim self whose d is 0).
  if (without(self.sizes, d) != without(source.sizes, source_rank > 0 ? d : 0))
    return "index_copy: source " + sizes_string(source.sizes) + " and self " + sizes_string(self.sizes) +
           " differ outside dim " + std::to_string(d);
  if (source_rank > 0 && count != source.sizes[d])
    return "index_copy: " + std::to_string(count) + " indices for source's " +
           std::to_string(source.sizes[d]) + " slices along dim " + std::to_string(d);
  const int64_t slice = rank > 0 ? product(self.sizes, 0, d) * product(self.sizes, d + 1, rank) : 1;
  const int64_t size = rank > 0 ? self.sizes[d] : 1;
  if (slice == 0) return {};
  for (int64_t i : index)
    if (i < 0 || i >= size)
      return "index_copy: index " + std::to_string(i) + " is outside [0, " + std::to_string(size) +
             ") along dim " + std::to_string(d);
  return {};
}

void index_copy_elements(uint8_t* self, const std::vector<int64_t>& sizes, const uint8_t* source,
                         int64_t dim, const std::vector<int64_t>& index, size_t es) {
  const int rank = static_cast<int>(sizes.size());
  const int d = rank > 0 ? dim_index(rank, dim) : 0;
  const int64_t outer = rank > 0 ? product(sizes, 0, d) : 1;
  const int64_t inner = rank > 0 ? product(sizes, d + 1, rank) : 1;
  const int64_t n = rank > 0 ? sizes[d] : 1;
  const int64_t k = static_cast<int64_t>(index.size());
  const size_t row = static_cast<size_t>(inner) * es;
  // Slices of no element, or no index: nothing moves (and the buffers may be
  // empty). Without the second check an empty self of a huge outer extent
  // ([2^40, 0] along dim 1) looped 2^40 times writing nothing: found by
  // fuzz_program on torch-fx-functionalize: one execution ran for over 13 minutes.
  if (row == 0 || k == 0) return;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < k; ++j)
      std::memcpy(self + static_cast<size_t>(o * n + index[j]) * row,
                  source + static_cast<size_t>(o * k + j) * row, row);
}

}  // namespace slicefuzz::judge
