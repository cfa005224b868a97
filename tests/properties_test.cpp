// Properties of the system under test on generated cases, each against libtorch:
// the whole runner, the density predicate, et_slice's alias offset, and where
// errors are raised.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <memory>

#include "oracles/analysis.h"
#include "oracles/values.h"
#include "backends/backend.h"
#include "generators/case_gen.h"
#include "harness/run/findings.h"
#include "harness/run/runner.h"
#include "kernels/kernels.h"
#include "kernels/util/slice_util.h"
#include "oracles/oracle.h"
#include "vocab/program_info.h"
#include "vocab/case_format.h"
#include "program/copy_executor.h"

namespace slicefuzz {
namespace {

ProgramInfo analyzed(const Case& c) {
  ProgramInfo info;
  AnalysisError err;
  if (!analyze(c, kDefaultByteBudget, info, err))
    RC_FAIL("generated case does not analyse: " + err.message + "\n" + print_case(c));
  return info;
}

// Either a whole chain or a single slice of the input (more slice arguments per run).
rc::Gen<Case> genAnyCase() { return rc::gen::oneOf(genCase(), genSingleSliceCase(5)); }

RC_GTEST_PROP(Properties, ReferenceBackendHasNoFindings, ()) {
  const Case c = *genCase();
  const ProgramInfo info = analyzed(c);
  const CaseReport report = run_case(c, info, *find_backend("reference"), RunOptions{});
  if (const Finding* f = report.first_failure())
    RC_FAIL(std::string(finding_kind_name(f->kind)) + " on the " + std::string(finding_path_word(f->path)) +
            " path: " + f->message + "\n" + print_case(c));
}

// A tensor described by value_meta() over bytes it owns (exactly nbytes, so ASan
// guards both ends; at least one byte so that data is never null).
struct Buffer {
  Tensor t;
  std::unique_ptr<uint8_t[]> bytes;
  explicit Buffer(const ValueInfo& v) : t(value_meta(v)) {
    bytes.reset(new uint8_t[std::max<size_t>(t.nbytes(), 1)]);
    t.data = bytes.get();
    t.capacity_nbytes = t.nbytes();
  }
};

bool same_tensor(const Tensor& a, const Tensor& b) {
  return a.dtype == b.dtype && a.rank == b.rank && a.data == b.data &&
         a.capacity_nbytes == b.capacity_nbytes && a.dynamism == b.dynamism &&
         std::equal(a.sizes, a.sizes + kMaxRank, b.sizes) &&
         std::equal(a.strides, a.strides + kMaxRank, b.strides) &&
         std::equal(a.dim_order, a.dim_order + kMaxRank, b.dim_order);
}

// The facts slice_util computes for the slice op `k` of `c`.
struct OurSlice {
  int d = 0;
  SliceRange range;
  bool dense = false;
};

OurSlice our_slice(const Case& c, const ProgramInfo& info, int k) {
  const Op& op = c.ops[k];
  const Tensor src = value_meta(info.values[info.ops[k].src]);
  OurSlice s;
  s.d = *normalize_dim(op.dim, src.rank);
  s.range = normalize_slice(src.sizes[s.d], op.start, op.end, op.step);
  s.dense = slice_is_dense(src.sizes, src.dim_order, src.rank, s.d, s.range);
  return s;
}

// How many slice_copy ops torch ran: all of them before the op it stopped at.
size_t slices_run_by_torch(const Case& c, const TorchOracleResult& torch) {
  const size_t stop =
      torch.path.error_op >= 0 ? static_cast<size_t>(torch.path.error_op) : c.ops.size();
  size_t n = 0;
  for (size_t k = 0; k < stop && k < c.ops.size(); ++k) n += c.ops[k].kind == OpKind::SliceCopy;
  return n;
}

RC_GTEST_PROP(Properties, DensityPredicateMatchesTorchViewStrides, ()) {
  const Case c = *genAnyCase();
  const ProgramInfo info = analyzed(c);
  const TorchOracleResult torch = run_torch_oracle(c, info);
  RC_ASSERT(torch.op_views.size() == slices_run_by_torch(c, torch));
  bool some_dense = false, some_not_dense = false;
  for (const TorchOpView& view : torch.op_views) {
    const OurSlice ours = our_slice(c, info, view.op);
    if (view.sizes != info.values[info.ops[view.op].result].sizes)
      RC_FAIL("result sizes differ from torch's view at op " + std::to_string(view.op) + "\n" +
              print_case(c));
    if (view.dense != ours.dense)
      RC_FAIL("op " + std::to_string(view.op) + " `" + print_op(c.ops[view.op]) +
              "`: torch's view is " + (view.dense ? "dense" : "not dense") +
              " but slice_is_dense says " + (ours.dense ? "dense" : "not dense") + "\n" +
              print_case(c));
    (ours.dense ? some_dense : some_not_dense) = true;
  }
  RC_CLASSIFY(some_dense, "a dense slice");
  RC_CLASSIFY(some_not_dense, "a non-dense slice");
}

RC_GTEST_PROP(Properties, EtSliceAliasesTorchsStorageOffsetOrRefuses, ()) {
  const Case c = *genAnyCase();
  const ProgramInfo info = analyzed(c);
  const TorchOracleResult torch = run_torch_oracle(c, info);
  bool refused = false, aliased = false, empty = false;
  for (const TorchOpView& view : torch.op_views) {
    const Op& op = c.ops[view.op];
    const std::string where =
        "op " + std::to_string(view.op) + " `" + print_op(op) + "`\n" + print_case(c);
    Buffer in(info.values[info.ops[view.op].src]);
    Buffer out(info.values[info.ops[view.op].src]);  // et_slice resizes it
    const Tensor out_before = out.t;
    EValue args[6] = {EValue::from_tensor(&in.t),
                      EValue::from_int(op.dim),
                      op.start ? EValue::from_int(*op.start) : EValue::none(),
                      op.end ? EValue::from_int(*op.end) : EValue::none(),
                      EValue::from_int(op.step),
                      EValue::from_tensor(&out.t)};
    EValue* stack[6] = {&args[0], &args[1], &args[2], &args[3], &args[4], &args[5]};
    KernelRuntimeContext ctx;
    et_slice(ctx, stack);

    if (!view.dense) {
      if (ctx.ok()) RC_FAIL("et_slice accepted a slice torch's view shows is not dense: " + where);
      if (!same_tensor(out_before, out.t)) RC_FAIL("et_slice refused but changed out: " + where);
      refused = true;
      continue;
    }
    if (!ctx.ok()) RC_FAIL("et_slice refused a dense slice (" + ctx.message() + "): " + where);
    const std::vector<int64_t> sizes(out.t.sizes, out.t.sizes + out.t.rank);
    if (sizes != view.sizes) RC_FAIL("et_slice's out sizes differ from torch's view: " + where);
    const int64_t delta = out.t.bytes() - in.t.bytes();
    if (out.t.numel() == 0) {
      // An empty alias points at nothing; it must still lie inside in's bytes.
      if (delta < 0 || static_cast<size_t>(delta) > in.t.nbytes())
        RC_FAIL("et_slice's empty alias points outside its input: " + where);
      empty = true;
      continue;
    }
    const int64_t expected = view.storage_offset * static_cast<int64_t>(in.t.element_size());
    if (delta != expected)
      RC_FAIL("et_slice's alias starts " + std::to_string(delta) +
              " bytes into its input, "
              "torch's view at storage_offset " +
              std::to_string(view.storage_offset) + " (" + std::to_string(expected) +
              " bytes): " + where);
    if (static_cast<size_t>(delta) + out.t.nbytes() > in.t.nbytes())
      RC_FAIL("et_slice's alias leaves its input's bytes: " + where);
    aliased = true;
  }
  RC_CLASSIFY(aliased, "aliased");
  RC_CLASSIFY(empty, "empty alias");
  RC_CLASSIFY(refused, "refused");
}

RC_GTEST_PROP(Properties, CopyPathFailsAtTheOpTorchFailsAt, ()) {
  // Invalid arguments are the point here: a quarter of the cases are single slices
  // that are all invalid; the rest are chains with the usual ~5%.
  const Case c = *rc::gen::weightedOneOf<Case>({{3, genCase()}, {1, genSingleSliceCase(100)}});
  const ProgramInfo info = analyzed(c);
  const TorchOracleResult torch = run_torch_oracle(c, info);
  const PathResult copy = run_copy_path(c, info, make_input_values(info), KernelTable{});
  if (copy.error_op != torch.path.error_op)
    RC_FAIL("torch failed at op " + std::to_string(torch.path.error_op) + " (" +
            torch.path.error_message + "), the copy path at op " + std::to_string(copy.error_op) +
            " (" + copy.error_message + ")\n" + print_case(c));
  RC_ASSERT(copy.error_op == info.failing_op);
  RC_ASSERT(!copy.ran_past_failure);
  RC_ASSERT(!copy.partial_write);
  RC_CLASSIFY(copy.error_op >= 0, "fails");
}

}  // namespace
}  // namespace slicefuzz
