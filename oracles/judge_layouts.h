// The judge's facts about every op's result: which op must fail and why, and the
// layout (sizes and dim order) of what each defining op produces, from DESIGN 2
// and ExecuTorch's portable kernels (kernels/portable/cpu/op_*_copy.cpp), written
// apart from the kernels' own (kernels/util). The analysis, the naive reference,
// explain and the generators read these; nothing here calls the system under test.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "oracles/judge_facts.h"
#include "vocab/case.h"

namespace slicefuzz::judge {

// A value's layout: sizes and its full dim order (identity spelled out).
struct Layout {
  std::vector<int64_t> sizes;
  std::vector<int> dim_order;
};

std::vector<int> identity_order(int rank);
// Why `order` is not a permutation of 0..rank-1, or "".
std::string dim_order_error(int rank, const std::vector<int>& order);

// What a defining op makes of `in`: the result's layout, or why it must fail.
//   slice_copy, clone, add (eager), slice (eager): in's dim order;
//   clone(dim_order=P): P (must be a permutation of in's rank);
//   select (copy or eager): d removed from the order, later dims renumbered;
//   squeeze_copy: every listed dim of size 1 removed (a listed dim of size > 1
//     stays, as in aten); a repeated dim is an error (ExecuTorch's .dims);
//   unsqueeze_copy(d): dims >= d renumbered up, d inserted just outside the dim
//     it is put in front of (innermost when d == rank), so the bytes are those
//     of the input;
//   view_copy(sizes): row-major; at most one -1, no size below -1, no -1 beside a
//     0 (the inferred size would be ambiguous), and the element count kept.
struct OpOutcome {
  std::string error;  // non-empty: the op must fail
  Layout layout;
};
OpOutcome op_result(const Op& op, const Layout& in);
// The same into `out`, whose vectors keep their capacity (no heap allocation
// once they are large enough).
void op_result_into(const Op& op, const Layout& in, OpOutcome& out);

// For a caller that asks op_result once per op of every case (the naive
// reference, the eligibility check): the source's layout and the outcome live
// here between calls, so asking copies no vector into fresh heap memory (issue
// 11: these copies were the judge's largest malloc site). The outcome stays
// valid until the next call on the same query.
class LayoutQuery {
 public:
  const OpOutcome& result(const Op& op, const std::vector<int64_t>& sizes,
                          const std::vector<int>& dim_order) {
    in_.sizes.assign(sizes.begin(), sizes.end());
    in_.dim_order.assign(dim_order.begin(), dim_order.end());
    op_result_into(op, in_, out_);
    return out_;
  }

 private:
  Layout in_;
  OpOutcome out_;
};

// Why copy_(target, src) must fail for their sizes, or "".
std::string copy_error(const Layout& target, const Layout& src);
// Why copy_(target, src) must fail for their dtypes, or "": slicefuzz's copy_
// never casts (aten's and ExecuTorch's do; a documented choice of the case
// language, README "copy_").
std::string copy_dtype_error(ScalarType target, ScalarType src);
// Why add or mul of two tensors must fail, or "" (and "" for every other op):
// their operands must have one dtype and one size (torch would cast and
// broadcast; slicefuzz programs do neither, a documented choice).
std::string other_operand_error(OpKind kind, const Layout& src, ScalarType src_dtype, const Layout& other,
                                ScalarType other_dtype);
// Why a defining op must fail for its source's dtype, or "": relu refuses bool
// (aten: "Boolean inputs not supported for relu") and float16 (torch 1.13's CPU
// clamp_min has no Half kernel; measured, README "relu"); sigmoid refuses float16,
// gelu everything but float32, float64 and bfloat16 (torch 1.13's CPU kernels,
// measured with /usr/bin/python3 on Debian's python3-torch).
std::string op_dtype_error(OpKind kind, ScalarType src);
// A defining op's result dtype: its source's, but sigmoid of a bool or integer
// tensor is float32 (torch's type promotion of a unary float op).
ScalarType op_result_dtype(OpKind kind, ScalarType src);

// view_copy's result sizes with -1 inferred, or nullopt (see op_result for why).
std::optional<std::vector<int64_t>> view_sizes(int64_t numel, const std::vector<int64_t>& sizes,
                                               std::string& why);

// torch's view of a defining view-copy op (op_is_view_copy: each the copy of its
// torch view) and of the eager views, taken over a source seen
// through `src` (its sizes, strides and element offset). view_copy follows
// torch's own viewability rule (ATen's computeStride): nullopt where torch
// cannot view the source with the new sizes (the copy is then never an alias).
// A row-major source can always be viewed. Requires op_result(op, ...) to succeed.
std::optional<StridedView> op_view(const Op& op, const StridedView& src);
// The same into `out` (false for nullopt), reusing its vectors; `out` must not
// be `src`.
bool op_view_into(const Op& op, const StridedView& src, StridedView& out);

// Whether the op's result lists the source's elements in the source's own
// row-major order: et_view, which takes sizes only, can alias nothing else, so
// its density guard can only be held to such ops. Every view-copy op but a
// permute that moves a dim of size > 1 past another.
bool op_keeps_element_order(const Op& op, const std::vector<int64_t>& src_sizes);

}  // namespace slicefuzz::judge
