#include "oracles/analysis.h"
#include "oracles/dynamic_analysis.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "oracles/judge_facts.h"
#include "oracles/judge_index_copy.h"
#include "oracles/judge_index_put.h"
#include "oracles/judge_layouts.h"
#include "oracles/judge_overlap.h"
#include "oracles/values.h"
#include "vocab/case_format.h"

namespace slicefuzz {

namespace {
std::string format_msg(const char* fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

bool fail(AnalysisError& err, AnalysisError::Where where, int op, std::string msg,
          AnalysisError::Cause cause = AnalysisError::Cause::Malformed) {
  err.where = where;
  err.op = op;
  err.cause = cause;
  err.message = std::move(msg);
  return false;
}

// Why input `in` is not a well-formed tensor (rank, negative sizes, dim order), or "".
std::string input_error(const InputDecl& in) {
  const int rank = static_cast<int>(in.sizes.size());
  if (rank > kMaxCaseRank) return format_msg("rank %d exceeds the maximum of %d", rank, kMaxCaseRank);
  for (int64_t s : in.sizes)
    if (s < 0) return format_msg("size %lld is negative", (long long)s);
  if (!in.dim_order.empty()) {
    std::vector<int> sorted = in.dim_order;
    std::sort(sorted.begin(), sorted.end());
    bool ok = sorted.size() == in.sizes.size();
    for (int i = 0; ok && i < rank; ++i) ok = sorted[i] == i;
    if (!ok) return format_msg("dim_order must be a permutation of 0..%d", rank - 1);
  }
  return {};
}

}  // namespace

namespace {

// The analysis proper; `defined` counts the values of `c` written so far into
// info.values, whose slots past it are left over from an earlier case.
bool analyze_into(const Case& c, int64_t budget, ProgramInfo& info, size_t& defined,
                  AnalysisError& err) {
  using W = AnalysisError::Where;
  info.num_inputs = 1;
  info.ops.clear();
  info.outputs.clear();
  info.failing_op = -1;
  info.failing_reason.clear();
  info.total_bytes = 0;
  if (c.inputs.empty()) return fail(err, W::Input, 0, "at least one input is required");
  for (size_t i = 0; i < c.inputs.size(); ++i)
    if (std::string why = input_error(c.inputs[i]); !why.empty())
      return fail(err, W::Input, static_cast<int>(i), why);
  if (c.ops.size() > kMaxOps)
    return fail(err, W::Op, kMaxOps, format_msg("more than %zu ops", kMaxOps));

  // Sized once; names are looked up by a scan of the few values defined so far
  // (no hash map: a node and a string copy per value). A name is defined at
  // most once, so the first match is the one.
  info.values.reserve(c.ops.size() + c.inputs.size());
  info.ops.reserve(c.ops.size());
  info.outputs.reserve(c.outputs.size());
  // A value's slot, refilled in place (its vectors keep their capacity).
  auto add_value = [&](const std::string& name, int def_op, ScalarType dtype) -> ValueInfo& {
    if (defined == info.values.size()) info.values.emplace_back();
    ValueInfo& v = info.values[defined++];
    v.name = name;
    v.dtype = dtype;
    v.def_op = def_op;
    v.known = false;
    v.constant = false;
    v.sizes.clear();
    v.dim_order.clear();
    return v;
  };
  auto lookup = [&](const std::string& name) {
    for (size_t v = 0; v < defined; ++v)
      if (info.values[v].name == name) return static_cast<int>(v);
    return -1;
  };
  int64_t total = 0;
  // Gives `v` its sizes (the caller its dim order); false when its bytes take
  // the case over the budget (views own no bytes: `owns_bytes` false).
  auto account = [&](ValueInfo& v, const std::vector<int64_t>& sizes, bool owns_bytes = true) {
    auto bytes = owns_bytes ? judge::tensor_bytes(sizes, v.dtype) : std::optional<int64_t>(0);
    // total <= budget and bytes <= INT64_MAX: the sum fits in unsigned 64 bits.
    if (!bytes || static_cast<uint64_t>(total) + static_cast<uint64_t>(*bytes) >
                      static_cast<uint64_t>(budget))
      return false;
    total += *bytes;
    v.sizes.assign(sizes.begin(), sizes.end());
    v.known = true;
    return true;
  };
  auto over_budget = [&](const std::string& what) {
    return format_msg("%s takes the case's tensors over the byte budget of %lld bytes "
                      "(change it with --max-bytes)",
                      what.c_str(), static_cast<long long>(budget));
  };

  // The inputs: values 0 .. num_inputs-1, each its own root with its own dtype.
  info.num_inputs = static_cast<int>(c.inputs.size());
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const InputDecl& in = c.inputs[i];
    const int at = static_cast<int>(i);
    if (lookup(in.name) >= 0) return fail(err, W::Input, at, "input '" + in.name + "' is already defined");
    ValueInfo& v = add_value(in.name, -1, c.input_dtype(i));
    if (!account(v, in.sizes))
      return fail(err, W::Input, at,
                  over_budget((c.inputs.size() > 1 ? "input '" + in.name + "' " : std::string("input ")) +
                              sizes_string(in.sizes)));
    v.dim_order = in.effective_dim_order();  // the identity spelled out when omitted
    v.constant = in.constant;
  }

  // Eager views share storage: with any view in the program, every value's
  // storage (the value that owns it) and its window onto it (element offset,
  // sizes, strides), so that a copy_ between views of one storage is judged as
  // torch judges it (judge_overlap.h). Without views every value owns its storage.
  const bool eager = std::any_of(c.ops.begin(), c.ops.end(), [](const Op& op) { return op_is_view(op.kind); });
  thread_local std::vector<int> storage;
  thread_local std::vector<judge::StridedView> window;
  if (eager && storage.size() < c.inputs.size() + c.ops.size()) {  // at most one value per line
    storage.resize(c.inputs.size() + c.ops.size());
    window.resize(storage.size());
  }
  auto own_window = [&](int v) {
    if (!eager) return;
    storage[v] = v;
    window[v].sizes.assign(info.values[v].sizes.begin(), info.values[v].sizes.end());
    judge::strides_into(window[v].sizes, info.values[v].dim_order, window[v].strides);
    window[v].offset = 0;
  };
  for (int i = 0; i < info.num_inputs; ++i) own_window(i);

  // Each op's outcome, kept between calls (its vectors keep their capacity).
  thread_local judge::OpOutcome out;
  for (size_t k = 0; k < c.ops.size(); ++k) {
    const Op& op = c.ops[k];
    const int ki = static_cast<int>(k);
    OpInfo oi;
    auto need = [&](const std::string& name, int& slot) {
      slot = lookup(name);
      return slot >= 0;
    };
    if (op.kind != OpKind::Add && !need(op.src, oi.src))
      return fail(err, W::Op, ki, "'" + op.src + "' is not defined before this op");
    if ((op.kind == OpKind::Add || op.kind == OpKind::Copy) && !need(op.target, oi.target))
      return fail(err, W::Op, ki, "'" + op.target + "' is not defined before this op");
    if (op_reads_other(op.kind) && !need(op.other, oi.other))
      return fail(err, W::Op, ki, "'" + op.other + "' is not defined before this op");
    if (op_defines(op.kind)) {
      if (lookup(op.result) >= 0)
        return fail(err, W::Op, ki, "'" + op.result + "' is already defined");
      oi.result = static_cast<int>(defined);
      // An op's result has its source's dtype but where torch promotes (sigmoid
      // of an integer tensor: float32); add_ and copy_ define nothing.
      add_value(op.result, ki, judge::op_result_dtype(op.kind, info.values[oi.src].dtype));
    }
    info.ops.push_back(oi);
    if (info.failing_op >= 0) continue;  // shapes after a failing op are unknown

    const bool src_known = oi.src < 0 || info.values[oi.src].known;
    const bool target_known = oi.target < 0 || info.values[oi.target].known;
    const bool other_known = oi.other < 0 || info.values[oi.other].known;
    if (!src_known || !target_known || !other_known) continue;
    std::string why;
    auto layout_of = [&](int v) {
      return judge::Layout{info.values[v].sizes, info.values[v].dim_order};
    };
    if (op_defines(op.kind)) {
      // The source's layout lent to the judge and taken back (no copy of its
      // vectors; the result is another value, op_result reads `in` only).
      ValueInfo& src = info.values[oi.src];
      judge::Layout in{std::move(src.sizes), std::move(src.dim_order)};
      judge::op_result_into(op, in, out);
      src.sizes = std::move(in.sizes);
      src.dim_order = std::move(in.dim_order);
      why = out.error.empty() ? judge::op_dtype_error(op.kind, src.dtype) : out.error;
      if (why.empty() && op.kind == OpKind::IndexCopy)
        why = judge::index_copy_error(layout_of(oi.src), src.dtype, layout_of(oi.other),
                                      info.values[oi.other].dtype, op.dim, op.ints);
      if (why.empty() && op.kind == OpKind::IndexPut)
        why = judge::index_put_error(layout_of(oi.src), src.dtype, layout_of(oi.other),
                                     info.values[oi.other].dtype, op.dim, op.ints);
      if (why.empty() && (op.kind == OpKind::AddTensor || op.kind == OpKind::MulTensor))
        why = judge::other_operand_error(op.kind, layout_of(oi.src), src.dtype, layout_of(oi.other),
                                         info.values[oi.other].dtype);
      // Eager views take no bytes of their own: they share their source's storage.
      ValueInfo& result = info.values[oi.result];
      if (why.empty()) {
        if (!account(result, out.layout.sizes, !op_is_view(op.kind)))
          return fail(err, W::Op, ki, over_budget("'" + op.result + "'"));
        result.dim_order.assign(out.layout.dim_order.begin(), out.layout.dim_order.end());
        if (eager && op_is_view(op.kind)) {
          storage[oi.result] = storage[oi.src];
          judge::op_view_into(op, window[oi.src], window[oi.result]);
        } else {
          own_window(oi.result);
        }
      }
    } else if (op.kind == OpKind::Copy) {
      why = judge::copy_dtype_error(info.values[oi.target].dtype, info.values[oi.src].dtype);
      // Layouts are built (four vector copies) only for the error's words.
      if (why.empty() && info.values[oi.target].sizes != info.values[oi.src].sizes)
        why = judge::copy_error(layout_of(oi.target), layout_of(oi.src));
      // The same tensor is torch's `is_same` (a no-op); views of one storage are
      // judged as torch does.
      if (why.empty() && eager && oi.target != oi.src && storage[oi.target] == storage[oi.src]) {
        switch (judge::copy_overlap(window[oi.target], window[oi.src])) {
          case judge::CopyOverlap::TorchRefuses: why = judge::kCopyPartialOverlapError; break;
          case judge::CopyOverlap::OrderDependent:
            return fail(err, W::Op, ki,
                        "copy_(" + op.target + ", " + op.src + "): the two views share elements in a "
                        "way torch 1.13 does not check (a view is not dense), so PyTorch's result "
                        "depends on its loop order; copy a clone of the source instead",
                        AnalysisError::Cause::OrderDependentCopy);
          case judge::CopyOverlap::Disjoint:
          case judge::CopyOverlap::SameElements: break;
        }
      }
    }
    if (!why.empty()) {
      info.failing_op = ki;
      info.failing_reason = why;
    }
  }

  if (c.outputs.empty()) return fail(err, W::Outputs, -1, "at least one output is required");
  for (const auto& name : c.outputs) {
    int v = lookup(name);
    if (v < 0) return fail(err, W::Outputs, -1, "output '" + name + "' is not defined");
    // Each output is compared in every path: a repeat would only multiply the work.
    for (int seen : info.outputs)
      if (seen == v) return fail(err, W::Outputs, -1, "output '" + name + "' is listed twice");
    info.outputs.push_back(v);
  }
  info.total_bytes = total;
  return true;
}

}  // namespace

bool analyze(const Case& c, int64_t budget, ProgramInfo& info, AnalysisError& err) {
  // This runs for every case, its shadow, and several times per mutant (repair,
  // refit, a mutator's layout look-up): `info` is refilled in place, so that a
  // caller keeping it allocates nothing once its vectors are large enough
  // (issue 11: the analysis's heap blocks were half its time).
  size_t defined = 0;
  const bool ok = analyze_into(c, budget, info, defined, err);
  info.values.resize(defined);
  return ok;
}

}  // namespace slicefuzz
