// The kernels a path calls, as replaceable function pointers: a backend swaps
// any of them (backends/), everything else stays the reference implementation.
#pragma once
#include "kernels/kernels.h"

namespace slicefuzz {

struct KernelTable {
  decltype(&slice_copy_Tensor_out) slice_copy = &slice_copy_Tensor_out;
  decltype(&et_slice) et_slice_op = &et_slice;
  decltype(&add_scalar_) add = &add_scalar_;
  decltype(&clone_out) clone = &clone_out;
  decltype(&copy_) copy = &copy_;
};

}  // namespace slicefuzz
