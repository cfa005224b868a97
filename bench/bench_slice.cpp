// et_slice vs slice_copy on dense slices from 1 KiB to 64 MiB. et_slice only
// repoints a data pointer, so its time must not depend on the size.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "kernels/dim_order.h"
#include "kernels/kernels.h"

namespace slicefuzz {
namespace {

// A float32 [rows, 256] input; the slice keeps the first half of the rows, which
// is dense in the identity dim order. The slice's bytes are state.range(0).
struct DenseSliceFixture {
  explicit DenseSliceFixture(int64_t slice_bytes) {
    const int64_t row_bytes = 256 * 4;
    rows = std::max<int64_t>(2, 2 * slice_bytes / row_bytes);
    int64_t sizes[2] = {rows, 256};
    uint8_t order[2];
    identity_dim_order(2, order);
    make_tensor_meta(ScalarType::Float, 2, sizes, order, in);
    in_buf.reset(new uint8_t[in.nbytes()]);
    in.data = in_buf.get();
    in.capacity_nbytes = in.nbytes();
    int64_t out_sizes[2] = {rows / 2, 256};
    make_tensor_meta(ScalarType::Float, 2, out_sizes, order, out);
    out_buf.reset(new uint8_t[out.nbytes()]);
    out.data = out_buf.get();
    out.capacity_nbytes = out.nbytes();
  }
  int64_t rows;
  Tensor in, out;
  std::unique_ptr<uint8_t[]> in_buf, out_buf;
};

void BM_slice_copy(benchmark::State& state) {
  DenseSliceFixture f(state.range(0));
  KernelRuntimeContext ctx;
  for (auto _ : state) {
    slice_copy_Tensor_out(ctx, f.in, 0, 0, f.rows / 2, 1, f.out);
    benchmark::DoNotOptimize(f.out.data);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(f.out.nbytes()));
}

void BM_et_slice(benchmark::State& state) {
  DenseSliceFixture f(state.range(0));
  KernelRuntimeContext ctx;
  EValue in = EValue::from_tensor(&f.in), dim = EValue::from_int(0), start = EValue::from_int(0),
         end = EValue::from_int(f.rows / 2), step = EValue::from_int(1),
         out = EValue::from_tensor(&f.out);
  EValue* stack[6] = {&in, &dim, &start, &end, &step, &out};
  for (auto _ : state) {
    et_slice(ctx, stack);
    benchmark::DoNotOptimize(f.out.data);
  }
  if (!ctx.ok()) state.SkipWithError(ctx.message().c_str());
}

BENCHMARK(BM_slice_copy)->RangeMultiplier(8)->Range(1 << 10, 64 << 20);
BENCHMARK(BM_et_slice)->RangeMultiplier(8)->Range(1 << 10, 64 << 20);

}  // namespace
}  // namespace slicefuzz
