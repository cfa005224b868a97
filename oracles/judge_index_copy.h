// The judge's facts about index_copy (aten::index_copy(self, dim, index, source),
// torch 1.13's meta function and CPU kernel, TensorAdvancedIndexing.cpp and
// IndexKernel.cpp, read and measured on Debian's torch 1.13.1): which programs
// must fail, and the values of the result. One op, one file, as ExecuTorch's
// kernels are; written apart from anything the systems under test run.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "oracles/judge_layouts.h"
#include "vocab/scalar_type.h"

namespace slicefuzz::judge {

// Why index_copy(self, dim, index, source) must fail, or "". In torch's order:
// dim within self's rank (a 0-dim self takes 0 and -1); a 0-dim source needs one
// index; otherwise source and self of different ranks fail unless one is 0-dim;
// the dtypes match (slicefuzz programs do not cast); self's and source's sizes
// without `dim` match; the index count equals source's size at dim. Then each
// index lies in [0, size of dim) (a 0-dim self: [0, 1)): negative indices fail,
// as in torch. The bounds are checked per element copied, so when no element is
// copied (no index, or a slice of 0 elements) any index passes.
std::string index_copy_error(const Layout& self, ScalarType self_type, const Layout& source,
                             ScalarType source_type, int64_t dim, const std::vector<int64_t>& index);

// The result, in place over self's row-major elements: for every j, the slice
// at index[j] along dim becomes source's slice j (in order: a repeated index
// keeps the last, as torch's serial CPU kernel does). Assumes index_copy_error
// gave "". `es` is the element size.
void index_copy_elements(uint8_t* self_row_major, const std::vector<int64_t>& self_sizes,
                         const uint8_t* source_row_major, int64_t dim,
                         const std::vector<int64_t>& index, size_t es);

}  // namespace slicefuzz::judge
