// Deliberately faulty backends for dynamic shapes (issue 23): each one real bug
// class that only shows below the upper bound, where a tensor planned at its bound
// must be resized to the actual result. Registered from add_faulty_backends.
#include "backends/faulty.h"
#include "kernels/kernels.h"

#include <cstdint>
#include <string>
#include <vector>

namespace slicefuzz {

namespace {

// Bug class (pytorch/executorch PR 22411: "the upper bound is precisely the shape
// at which a whole class of backend bug is invisible"): the kernel writes the
// result but never resizes its out, which keeps the sizes it was planned with
// wherever they hold the result's bytes. Right at the bound, and on every static
// tensor (planned at exactly its size); wrong below the bound.
Tensor& slice_copy_out_not_resized(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                                   std::optional<int64_t> start, std::optional<int64_t> end,
                                   int64_t step, Tensor& out) {
  Tensor result = out;  // the same bytes, resized as the kernel should
  slice_copy_Tensor_out(ctx, in, dim, start, end, step, result);
  if (!ctx.ok()) return out;
  if (out.dynamism == ShapeDynamism::DYNAMIC_BOUND && result.nbytes() <= out.nbytes()) return out;  // the bug
  out = result;
  return out;
}

// Bug class (pytorch/executorch PR 22409): squeeze_copy of a dynamic outermost
// dim never resized its out, so half the output stayed at the bound's sizes (the
// extra elements unwritten: silently zero on device).
Tensor& squeeze_copy_out_not_resized(KernelRuntimeContext& ctx, const Tensor& in,
                                     const int64_t* dims, size_t ndims, Tensor& out) {
  Tensor result = out;
  squeeze_copy_dims_out(ctx, in, dims, ndims, result);
  if (!ctx.ok()) return out;
  if (out.dynamism == ShapeDynamism::DYNAMIC_BOUND && result.nbytes() <= out.nbytes()) return out;  // the bug
  out = result;
  return out;
}

// Bug class (pytorch/executorch issue 20546): Method::set_input checks a dynamic
// input's element count against the bound's, not each dim, although program.fbs
// states the per-dim rule; [2, 8] passes as a [4, 4] input, and every kernel then
// reads strides of a shape the plan never held.
std::string check_input_numel_only(const std::vector<int64_t>& actual, const std::vector<int64_t>& bound) {
  if (actual.size() != bound.size()) return "rank differs";
  int64_t n = 1, cap = 1;
  for (size_t d = 0; d < actual.size(); ++d) {
    if (actual[d] < 0) return "negative size";
    n *= actual[d];
    cap *= bound[d];
  }
  return n <= cap ? "" : "more elements than the bound";
}

}  // namespace

void add_faulty_dynamic_backends(std::vector<Backend>& out) {
  Backend b = faulty("faulty-out-not-resized",
                     "slice_copy and squeeze_copy never resize an out planned at its upper bound "
                     "(pytorch/executorch PRs 22411, 22409): right at the bound, wrong below it");
  b.kernels.slice_copy = &slice_copy_out_not_resized;
  b.kernels.squeeze_copy = &squeeze_copy_out_not_resized;
  out.push_back(b);
  b = faulty("faulty-input-numel-only",
             "set_input checks a dynamic input's element count against its bound's, not each dim "
             "(pytorch/executorch issue 20546)");
  b.input_check = &check_input_numel_only;
  out.push_back(b);
}

}  // namespace slicefuzz
