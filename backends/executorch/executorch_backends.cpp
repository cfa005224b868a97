// Backends over ExecuTorch's real code. Each kernel entry converts slicefuzz's
// tensors through the adapter and calls ExecuTorch's portable kernel; everything
// else (the pass, the planner) is slicefuzz's reference unless named below.
//   executorch-portable: clone, copy_, add_ are ExecuTorch's portable kernels, and
//     every view-copy op's kernel and et_view (view_copy_kernels.cpp);
//     et_slice and et_select are the ExecuTorch-typed prim ops in et_*_prim.cpp.
//   pr21552-rule: PR 21552's pass rule and offset formula, aliases placed by the
//     memory plan (no runtime op), on the portable kernels (pr21552_rule.cpp).
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/platform/runtime.h>

#include <cinttypes>
#include <optional>

#include "backends/backend.h"
#include "backends/executorch/adapter.h"
#include "backends/executorch/portable_kernels.h"
#include "backends/executorch/et_slice_prim.h"
#include "backends/executorch/portable_limits.h"
#include "backends/executorch/process_killers.h"
#include "backends/executorch/runtime/pte_writer.h"
#include "backends/executorch/runtime/runtime_method.h"
#include "backends/executorch/view_copy_kernels.h"


namespace slicefuzz {

namespace {

namespace native = torch::executor::native;
using et_adapter::EtTensor;
using et_adapter::kOut;

Tensor& et_clone(KernelRuntimeContext& ctx, const Tensor& in, std::optional<MemoryFormat>,
                 Tensor& out) {
  return et_adapter::call(ctx, out, [&](auto& et_ctx) {
    EtTensor a(in), o(out, kOut);
    if (!a.ok() || !o.ok()) return et_ctx.fail(executorch::runtime::Error::NotSupported), true;
    // ExecuTorch's clone takes no memory format (its graphs keep the dim order
    // through _clone_dim_order); the out tensor's dim order is the input's.
    native::clone_out(et_ctx, a.get(), std::nullopt, o.get());
    return o.sizes_back(out);
  });
}

Tensor& et_copy(KernelRuntimeContext& ctx, Tensor& self, const Tensor& src, bool non_blocking) {
  // The case language's copy_ takes equal sizes (DESIGN 4); aten::copy_, and so
  // ExecuTorch's, also broadcasts. Only the calls the language can express reach
  // ExecuTorch: a broadcast is refused here, as every path refuses it.
  SF_KERNEL_CHECK_MSG(ctx, same_sizes(self, src), InvalidArgument, self,
                      "copy_: sizes differ (slicefuzz programs do not broadcast)");
  return et_adapter::call(ctx, self, [&](auto& et_ctx) {
    EtTensor s(self), a(src);
    if (!s.ok() || !a.ok()) return et_ctx.fail(executorch::runtime::Error::NotSupported), true;
    native::copy_(et_ctx, s.get(), a.get(), non_blocking);
    return true;
  });
}

// add_(self, k) as ExecuTorch's graph has it: add.Scalar_out(self, k, alpha=1, out=self).
Tensor& et_add(KernelRuntimeContext& ctx, Tensor& self, int64_t other) {
  return et_adapter::call(ctx, self, [&](auto& et_ctx) {
    EtTensor s(self), o(self, kOut);
    if (!s.ok() || !o.ok()) return et_ctx.fail(executorch::runtime::Error::NotSupported), true;
    native::add_scalar_out(et_ctx, s.get(), executorch::aten::Scalar(other),
                           executorch::aten::Scalar(int64_t{1}), o.get());
    return true;
  });
}

// slicefuzz's et_slice stack in, ExecuTorch's EValues to the prim op, the alias back.
void et_slice_prim_op(KernelRuntimeContext& ctx, EValue** stack) {
  Tensor& out = *stack[5]->tensor;
  et_adapter::call(ctx, out, [&](auto& et_ctx) {
    using ETValue = executorch::runtime::EValue;
    EtTensor in(*stack[0]->tensor), o(out, kOut);
    if (!in.ok() || !o.ok()) return et_ctx.fail(executorch::runtime::Error::NotSupported), true;
    auto int_or_none = [](const EValue* v) { return v->is_int() ? ETValue(v->int_value) : ETValue(); };
    ETValue values[6] = {ETValue(in.get()), ETValue(stack[1]->int_value), int_or_none(stack[2]),
                         int_or_none(stack[3]), ETValue(stack[4]->int_value), ETValue(o.get())};
    ETValue* et_stack[6] = {&values[0], &values[1], &values[2], &values[3], &values[4], &values[5]};
    et_prim::et_slice(et_ctx, executorch::runtime::Span<ETValue*>(et_stack, 6));
    if (et_ctx.failure_state() != executorch::runtime::Error::Ok) return true;
    return o.data_back(out);
  });
}

RewritePlan rewrite_with_planned_sizes(const std::vector<const ProgramInfo*>& infos,
                                       const std::vector<RewritePlan>& plans, bool planned) {
  DynamicPassRules rules;
  rules.planned_sizes_must_stay = true;
  rules.planned_constant_alignment = et_runtime::kConstantAlignment;
  return rewrite_for_every_execution_with(infos, plans, planned, rules);
}

// executorch-portable's limits, and what is not written as a .pte yet.
std::string runtime_limits(const Case& c, const ProgramInfo& info) {
  std::string why = et_limits::portable_limits(c, info);
  if (why.empty()) why = et_runtime::pte_unwritable(c, info);
  return why;
}

}  // namespace

void add_executorch_backends(std::vector<Backend>& out) {
  // ExecuTorch's platform layer, as a program embedding ExecuTorch starts it
  // (executor_runner does the same): without it, in a build without NDEBUG (the
  // coverage preset), the first ET_LOG aborts the process in et_pal_current_ticks
  // ("ExecuTorch PAL must be initialized"), so the nightly's coverage replay of
  // this backend died on the first kernel that logged and reported 0% coverage.
  executorch::runtime::runtime_init();
  Backend b;
  b.name = "executorch-portable";
  b.description =
      "ExecuTorch's portable kernels of every view-copy op, clone, copy_, add_, "
      "_clone_dim_order, its et_view prim op, and ExecuTorch-typed "
      "et_slice and et_select prim ops (built from SLICEFUZZ_EXECUTORCH_SRC)";
  b.kernels.clone = &et_clone;
  b.kernels.copy = &et_copy;
  b.kernels.add = &et_add;
  b.kernels.et_slice_op = &et_slice_prim_op;
  b.kernels.clone_dim_order = &et_kernels::clone_dim_order;
  b.kernels.et_select_op = &et_kernels::et_select;
  b.kernels.et_view_op = &et_kernels::et_view;
  b.et_view_guards_density = false;  // upstream's: dtype and numel only (backend.h)
  // Ops without a slot of their own: ExecuTorch's kernel where one is wired,
  // none otherwise (never the reference's: portable_limits calls them unsupported).
  for (const OpKindInfo& row : kOpKinds)
    b.kernels.boxed_of(row.kind) = et_kernels::boxed_kernel(row.kind);
  b.outside_limits = &et_limits::portable_limits;
  b.process_killing_known_finding = &et_limits::process_killing_known_finding;
  out.push_back(b);

  // The same kernels on the copy path; the rewrite path a real ExecuTorch
  // program run by ExecuTorch's Method (backends/executorch/runtime/).
  Backend r = b;
  r.name = "executorch-runtime";
  r.description =
      "each case written as a real ExecuTorch program (.pte) and run by ExecuTorch's Program::load, "
      "Method and prim ops over the poisoned arena, aliases as runtime prim ops (et_view upstream's, "
      "et_slice/et_select slicefuzz's); executorch-portable's kernels on the copy path";
  r.alias_mode = AliasMode::RuntimeOp;
  r.make_method = et_runtime::runtime_method_factory(et_runtime::PteFault::None);
  r.write_program = et_runtime::runtime_program_writer(et_runtime::PteFault::None);
  r.outside_limits = &runtime_limits;
  r.process_killing_known_finding = &et_limits::process_killing_known_finding_in_programs;
  r.input_check = &et_runtime::executorch_input_check;
  out.push_back(r);

  // The same programs with aliases planned as allocation_info offsets (PR
  // 21552's memory.slice): an alias whose sizes vary stays a copy, as nothing in
  // a program resizes it.
  Backend p = r;
  p.name = "executorch-runtime-planned";
  p.description =
      "executorch-runtime with aliases planned as allocation_info offsets (no op runs for them; an alias "
      "whose sizes vary between executions stays a copy, as PR 21552 keeps dynamic bases)";
  p.alias_mode = AliasMode::Planned;
  p.dynamic_pass = &rewrite_with_planned_sizes;
  p.known_findings_of = r.name;
  p.process_killing_known_finding = &et_limits::process_killing_known_finding_in_planned_programs;
  // The judge's planned-mode eligibility gives a planned alias each execution's
  // sizes (the reference's method does); a program cannot: the aliases this
  // backend keeps copies for that reason are counted MISSED_REWRITEs, not failed.
  p.tolerates_missed_rewrite = true;
  out.push_back(p);

  // Their faulty variants, one real bug class each (the self-test must kill them).
  struct Variant {
    const char* name;
    const char* description;
    et_runtime::PteFault fault;
    const Backend* base;
  };
  const Variant variants[] = {
      {"faulty-et-runtime-offset-without-delta",
       "executorch-runtime-planned whose .pte gives a planned alias its root's allocation_info offset (the alias "
       "delta lost)",
       et_runtime::PteFault::AliasOffsetWithoutDelta, &p},
      {"faulty-et-runtime-drops-dim-order",
       "executorch-runtime whose .pte writer writes every tensor in the default dim order, whatever its own",
       et_runtime::PteFault::DropsDimOrder, &r},
      {"faulty-et-runtime-pointer-once",
       "executorch-runtime whose alias prim ops set out's data pointer only while it is null "
       "(pytorch/executorch issue 2843), over inputs in fresh memory at every execution",
       et_runtime::PteFault::PrimKeepsFirstPointer, &r},
  };
  for (const Variant& v : variants) {
    Backend f = *v.base;
    f.name = v.name;
    f.known_findings_of = r.name;
    f.description = v.description;
    f.make_method = et_runtime::runtime_method_factory(v.fault);
    f.write_program = et_runtime::runtime_program_writer(v.fault);
    out.push_back(f);
  }
}

}  // namespace slicefuzz
