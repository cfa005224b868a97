// Arena bytes with and without the rewrite on an LLM-style program: a KV cache
// [1, H, S, D] per layer, sliced along S (the tokens seen so far) for every layer,
// each slice consumed by a clone (standing in for attention), plus outputs.
// Reported as counters: arena_bytes (rewrite), copy_only_arena_bytes, reduction.
#include <benchmark/benchmark.h>

#include "oracles/analysis.h"
#include "vocab/case_format.h"
#include "program/memory_planner.h"
#include "program/rewrite_pass.h"

namespace slicefuzz {
namespace {

// cache [L, H, S, D]; per layer l: k = cache[l] ([1, H, S, D]); per head h:
// kh = k[:, h] ([1, 1, S, D]); kv = kh[:, :, :used] ([1, 1, used, D]); attn = clone(kv).
// Every slice is dense (the dims before the sliced one have size 1), so the pass
// turns all of them into et_slice; only the clones keep bytes of their own.
Case kv_cache_program(int layers, int64_t heads, int64_t seq, int64_t dim, int64_t used) {
  Case c;
  c.dtype = ScalarType::Float;
  c.inputs[0].name = "cache";
  c.inputs[0].sizes = {layers, heads, seq, dim};
  auto slice = [](std::string out, std::string src, int64_t d, int64_t start, int64_t end) {
    Op op;
    op.kind = OpKind::SliceCopy;
    op.result = std::move(out);
    op.src = std::move(src);
    op.dim = d;
    op.start = start;
    op.end = end;
    return op;
  };
  for (int l = 0; l < layers; ++l) {
    const std::string k = "k" + std::to_string(l);
    c.ops.push_back(slice(k, "cache", 0, l, l + 1));
    for (int64_t h = 0; h < heads; ++h) {
      const std::string suffix = std::to_string(l) + "_" + std::to_string(h);
      c.ops.push_back(slice("kh" + suffix, k, 1, h, h + 1));
      c.ops.push_back(slice("kv" + suffix, "kh" + suffix, 2, 0, used));
      Op attn;
      attn.kind = OpKind::Clone;
      attn.result = "attn" + suffix;
      attn.src = "kv" + suffix;
      c.ops.push_back(attn);
      c.outputs.push_back(attn.result);
    }
  }
  return c;
}

void BM_kv_cache_arena(benchmark::State& state) {
  const int layers = static_cast<int>(state.range(0));
  Case c = kv_cache_program(layers, /*heads=*/4, /*seq=*/512, /*dim=*/64, /*used=*/128);
  ProgramInfo info;
  AnalysisError err;
  if (!analyze(c, int64_t{1} << 40, info, err)) {
    state.SkipWithError(err.message.c_str());
    return;
  }
  MemoryPlan rewritten, copy_only;
  int aliases = 0;
  for (auto _ : state) {
    RewritePlan rw = replace_slice_copy_with_slice(c, info);
    rewritten = plan_memory(c, info, rw);
    copy_only = plan_memory(c, info, copy_only_plan(c, info));
    aliases = 0;
    for (const RewriteDecision& d : rw.decisions) aliases += d.alias;
  }
  state.counters["arena_bytes"] = static_cast<double>(rewritten.arena_bytes);
  state.counters["copy_only_arena_bytes"] = static_cast<double>(copy_only.arena_bytes);
  state.counters["reduction_pct"] =
      100.0 * (1.0 - static_cast<double>(rewritten.arena_bytes) / copy_only.arena_bytes);
  state.counters["aliases"] = aliases;
}

BENCHMARK(BM_kv_cache_arena)->Arg(2)->Arg(8)->Arg(16)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace slicefuzz
