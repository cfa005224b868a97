// libFuzzer target `fuzz_ceiling`: the throughput ceiling bench/throughput.sh
// compares fuzz_program against. One libtorch slice + one slice_copy (the
// project's kernel, compiled with the same coverage instrumentation as in
// fuzz_program) + an element compare, on float32 inputs of at most 8x8, built
// with the same ASan+UBSan flags and engine as fuzz_program. It checks almost
// nothing on purpose: it is the cost of "one oracle call + one kernel call" per
// execution, the most any harness on this stack could reach.
//
// Input bytes: rows, cols (1..8), dim (0/1), start, end (signed, -10..10), step (1..4).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/Logging.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernels/dim_order.h"
#include "kernels/kernels.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  at::set_num_threads(1);
  c10::SetStackTraceFetcher([] { return std::string(); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slicefuzz;
  if (size < 6) return 0;
  const int64_t rows = 1 + data[0] % 8, cols = 1 + data[1] % 8;
  const int64_t dim = data[2] % 2;
  const int64_t start = static_cast<int8_t>(data[3]) % 11, end = static_cast<int8_t>(data[4]) % 11;
  const int64_t step = 1 + data[5] % 4;

  std::vector<float> in_buf(rows * cols);
  for (size_t i = 0; i < in_buf.size(); ++i) in_buf[i] = static_cast<float>(i);
  at::Tensor x = at::from_blob(in_buf.data(), {rows, cols}, at::TensorOptions().dtype(at::kFloat));
  at::Tensor expected = at::slice(x, dim, start, end, step).contiguous();

  int64_t sizes[2] = {rows, cols};
  uint8_t order[2];
  identity_dim_order(2, order);
  Tensor in;
  make_tensor_meta(ScalarType::Float, 2, sizes, order, in);
  in.data = in_buf.data();
  in.capacity_nbytes = in.nbytes();
  Tensor out;
  make_tensor_meta(ScalarType::Float, 2, sizes, order, out);
  out.dynamism = ShapeDynamism::DYNAMIC_BOUND;  // slice_copy resizes it
  std::vector<float> out_buf(rows * cols);
  out.data = out_buf.data();
  out.capacity_nbytes = out_buf.size() * sizeof(float);
  KernelRuntimeContext ctx;
  slice_copy_Tensor_out(ctx, in, dim, start, end, step, out);
  if (!ctx.ok()) std::abort();  // every argument above is valid
  if (out.numel() != expected.numel() ||
      (out.numel() && std::memcmp(out.data, expected.data_ptr(), out.nbytes()) != 0))
    std::abort();
  return 0;
}
