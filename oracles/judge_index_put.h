// The judge's facts about index_put with one index tensor (aten::index_put(self,
// [None] * dim + [index], values), torch 1.13's advanced indexing and CPU index
// kernel, measured on Debian's torch 1.13.1): which programs must fail, and the
// values of the result. Its writes are index_copy's once the indices are wrapped
// and the values broadcast (judge_index_copy.h's index_copy_elements).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "oracles/judge_layouts.h"
#include "vocab/scalar_type.h"

namespace slicefuzz::judge {

// The indexed shape: self's sizes with dim's replaced by the index count.
std::vector<int64_t> index_put_target_sizes(const std::vector<int64_t>& self, int dim, size_t count);

// Why index_put(self, [None] * dim + [index], values) must fail, or "": a 0-dim
// self ("too many indices"); dim outside self's rank; values of another dtype;
// values that do not broadcast to the indexed shape (right-aligned: each of its
// dims 1 or equal, no more dims than it); an index outside [-size, size) when
// any element is written (negative ones count from the end).
std::string index_put_error(const Layout& self, ScalarType self_type, const Layout& values,
                            ScalarType values_type, int64_t dim, const std::vector<int64_t>& index);

// values (row-major, `values_sizes`) broadcast to `target` sizes, row-major.
std::vector<uint8_t> broadcast_elements(const uint8_t* values, const std::vector<int64_t>& values_sizes,
                                        const std::vector<int64_t>& target, size_t es);

// The result in place over self's row-major elements (index_put_error gave "").
void index_put_elements(uint8_t* self_row_major, const std::vector<int64_t>& self_sizes,
                        const uint8_t* values_row_major, const std::vector<int64_t>& values_sizes,
                        int64_t dim, const std::vector<int64_t>& index, size_t es);

}  // namespace slicefuzz::judge
