// A worked example of plugging your own implementation into slicefuzz: a backend
// named `example-naive-kernels` whose slice_copy is written from scratch against
// the Tensor API, one element at a time, the way a kernel author might write a
// first version. Everything it does not replace (et_slice, the pass, the
// planner) is the reference implementation. See README "Adding a backend".
//
// To add yours: copy this file, change the name and the functions you replace,
// and call your add_* function from make_backends() in registry.cpp.
#include "backends/backend.h"
#include "kernels/boxing.h"
#include "kernels/util/slice_util.h"

#include <cstring>

namespace slicefuzz {

namespace {

// Same signature as the reference kernel (ExecuTorch's slice_copy.Tensor_out).
Tensor& my_slice_copy(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                      std::optional<int64_t> start, std::optional<int64_t> end, int64_t step,
                      Tensor& out) {
  // Argument checks first, with the shared helpers (one implementation of each fact).
  const std::string why = slice_args_error(in, dim, step);
  SF_KERNEL_CHECK_MSG(ctx, why.empty(), InvalidArgument, out, "my_slice_copy: %s", why.c_str());
  SF_KERNEL_CHECK_MSG(ctx, in.dtype == out.dtype && same_dim_order(in, out), InvalidArgument, out,
                      "my_slice_copy: out must match in's dtype and dim order");
  const int d = *normalize_dim(dim, in.rank);
  const SliceRange r = normalize_slice(in.sizes[d], start, end, step);
  int64_t sizes[kMaxRank];
  for (int i = 0; i < in.rank; ++i) sizes[i] = i == d ? r.length : in.sizes[i];
  SF_KERNEL_CHECK_MSG(ctx, resize_tensor(out, sizes), InvalidArgument, out,
                      "my_slice_copy: out cannot hold the result");

  // One element at a time: walk out's logical indices, map each to in's.
  const size_t es = in.element_size();
  int64_t index[kMaxRank] = {};
  for (int64_t n = 0, total = out.numel(); n < total; ++n) {
    int64_t src = 0, dst = 0;
    for (int i = 0; i < in.rank; ++i) {
      src += (i == d ? r.start + index[i] * step : index[i]) * in.strides[i];
      dst += index[i] * out.strides[i];
    }
    std::memcpy(out.bytes() + dst * es, in.bytes() + src * es, es);
    for (int i = in.rank - 1; i >= 0 && ++index[i] == out.sizes[i]; --i) index[i] = 0;
  }
  return out;
}

}  // namespace

void add_example_backend(std::vector<Backend>& out) {
  Backend b;
  b.name = "example-naive-kernels";
  b.description = "worked example: an element-by-element slice_copy written against the Tensor API";
  b.kernels.boxed_of(OpKind::SliceCopy) = &boxed_slice_args<&my_slice_copy>;
  out.push_back(b);
}

}  // namespace slicefuzz
