#include "oracles/analysis.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <unordered_map>

#include "oracles/judge_facts.h"
#include "oracles/values.h"
#include "program/case_format.h"

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

bool fail(AnalysisError& err, AnalysisError::Where where, int op, std::string msg) {
  err.where = where;
  err.op = op;
  err.message = std::move(msg);
  return false;
}

// Sizes of slice_copy's result, or a reason why the arguments are invalid.
bool slice_result(const std::vector<int64_t>& in, const Op& op, std::vector<int64_t>& out,
                  std::string& why) {
  why = judge::slice_error(static_cast<int>(in.size()), op.dim, op.step);
  if (!why.empty()) return false;
  const judge::SliceSpan span = judge::normalize_slice_args(in, op.dim, op.start, op.end, op.step);
  out = in;
  out[span.dim] = span.length;
  return true;
}
}  // namespace

bool analyze(const Case& c, int64_t budget, ProgramInfo& info, AnalysisError& err) {
  using W = AnalysisError::Where;
  info = ProgramInfo{};
  const int rank = static_cast<int>(c.sizes.size());
  if (rank > kMaxCaseRank)
    return fail(err, W::Input, -1,
                format_msg("rank %d exceeds the maximum of %d", rank, kMaxCaseRank));
  for (int64_t s : c.sizes)
    if (s < 0) return fail(err, W::Input, -1, format_msg("size %lld is negative", (long long)s));
  if (!c.dim_order.empty()) {
    std::vector<int> sorted = c.dim_order;
    std::sort(sorted.begin(), sorted.end());
    bool ok = sorted.size() == c.sizes.size();
    for (int i = 0; ok && i < rank; ++i) ok = sorted[i] == i;
    if (!ok)
      return fail(err, W::Input, -1,
                  format_msg("dim_order must be a permutation of 0..%d", rank - 1));
  }
  if (c.ops.size() > kMaxOps)
    return fail(err, W::Op, kMaxOps, format_msg("more than %zu ops", kMaxOps));

  std::unordered_map<std::string, int> index;
  auto add_value = [&](const std::string& name, int def_op) {
    index.emplace(name, static_cast<int>(info.values.size()));
    info.values.push_back(ValueInfo{name, {}, false, def_op});
  };
  auto lookup = [&](const std::string& name) {
    auto it = index.find(name);
    return it == index.end() ? -1 : it->second;
  };
  int64_t total = 0;
  auto account = [&](ValueInfo& v, std::vector<int64_t> sizes) {
    auto bytes = judge::tensor_bytes(sizes, c.dtype);
    // total <= budget and bytes <= INT64_MAX: the sum fits in unsigned 64 bits.
    if (!bytes || static_cast<uint64_t>(total) + static_cast<uint64_t>(*bytes) >
                      static_cast<uint64_t>(budget))
      return false;
    total += *bytes;
    v.sizes = std::move(sizes);
    v.known = true;
    return true;
  };
  auto over_budget = [&](const std::string& what) {
    return format_msg("%s takes the case's tensors over the byte budget of %lld bytes "
                      "(change it with --max-bytes)",
                      what.c_str(), static_cast<long long>(budget));
  };

  add_value(c.input, -1);
  if (!account(info.values[0], c.sizes))
    return fail(err, W::Input, -1, over_budget("input " + sizes_string(c.sizes)));

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
    if (op_defines(op.kind)) {
      if (lookup(op.result) >= 0)
        return fail(err, W::Op, ki, "'" + op.result + "' is already defined");
      oi.result = static_cast<int>(info.values.size());
      add_value(op.result, ki);
    }
    info.ops.push_back(oi);
    if (info.failing_op >= 0) continue;  // shapes after a failing op are unknown

    const bool src_known = oi.src < 0 || info.values[oi.src].known;
    const bool target_known = oi.target < 0 || info.values[oi.target].known;
    if (!src_known || !target_known) continue;
    std::string why;
    std::vector<int64_t> sizes;
    switch (op.kind) {
      case OpKind::SliceCopy:
        if (!slice_result(info.values[oi.src].sizes, op, sizes, why)) break;
        if (!account(info.values[oi.result], std::move(sizes)))
          return fail(err, W::Op, ki, over_budget("'" + op.result + "'"));
        break;
      case OpKind::Clone:
      case OpKind::AddOut:
        if (!account(info.values[oi.result], info.values[oi.src].sizes))
          return fail(err, W::Op, ki, over_budget("'" + op.result + "'"));
        break;
      // Views take no bytes of their own: they share their source's storage.
      case OpKind::Slice:
        if (!slice_result(info.values[oi.src].sizes, op, sizes, why)) break;
        info.values[oi.result].sizes = std::move(sizes);
        info.values[oi.result].known = true;
        break;
      case OpKind::Select: {
        const std::vector<int64_t>& in = info.values[oi.src].sizes;
        why = judge::select_error(in, op.dim, op.index);
        if (!why.empty()) break;
        sizes = in;
        sizes.erase(sizes.begin() + judge::dim_index(static_cast<int>(in.size()), op.dim));
        info.values[oi.result].sizes = std::move(sizes);
        info.values[oi.result].known = true;
        break;
      }
      case OpKind::Copy:
        if (info.values[oi.src].sizes != info.values[oi.target].sizes)
          why = "copy_: sizes " + sizes_string(info.values[oi.src].sizes) + " and " +
                sizes_string(info.values[oi.target].sizes) + " differ";
        break;
      case OpKind::Add: break;
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

ParseResult parse_case(std::string_view text, std::string_view filename, int64_t budget) {
  ParseResult r;
  CaseSyntax syntax = parse_case_syntax(text, filename);
  r.c = std::move(syntax.c);
  if (!syntax.ok) {
    r.error = std::move(syntax.error);
    return r;
  }
  AnalysisError err;
  if (!analyze(r.c, budget, r.info, err)) {
    using W = AnalysisError::Where;
    const int line = err.where == W::Input     ? syntax.input_line
                     : err.where == W::Outputs ? syntax.output_line
                     : syntax.op_lines.empty()
                         ? syntax.input_line
                         : syntax.op_lines[std::min<size_t>(err.op, syntax.op_lines.size() - 1)];
    r.error = std::string(filename) + ":" + std::to_string(line) + ": " + err.message;
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace slicefuzz
