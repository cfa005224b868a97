// The system under test's facts about one op of a program, from the kernels'
// utilities (kernels/util): whether its arguments are valid for a source tensor,
// the layout of its result, and, for a view-copy op, its result as a strided view
// of the source's bytes. The rewrite pass decides from these; the executors give
// a failing op's out a plausible layout from them. (The judge's facts are its own,
// in oracles/judge_layouts.h.)
#pragma once
#include <optional>
#include <string>

#include "kernels/tensor.h"
#include "kernels/util/shape_util.h"
#include "kernels/util/view_util.h"
#include "vocab/case.h"
#include "vocab/program_info.h"

namespace slicefuzz {

struct OpLayoutFacts {
  std::string error;  // non-empty: the arguments are invalid for the source
  ResultLayout result;
  // A view-copy op's result as a view of the source (offset in source elements);
  // nullopt for other ops, and for a view_copy whose source is not one row-major
  // block (no view exists).
  std::optional<ViewLayout> view;
};

// view_copy's view fact, replaceable (a faulty backend swaps it).
using ReshapeViewFn = std::optional<ViewLayout> (*)(const ViewLayout&, const int64_t*, int);

// The facts of a defining op (every view-copy op, clone) over `src`. Other ops keep src's layout.
OpLayoutFacts op_layout_facts(const Op& op, const Tensor& src,
                              ReshapeViewFn reshape = &reshape_view);

// A value's tensor metadata from its layout (sizes, dim order, dtype), data null.
// Aborts with a message when the layout is not a valid tensor: the analysis
// vouched for it, so a failure here is a broken contract, never a case to skip.
Tensor value_meta(const ValueInfo& v);

// Version 4: a value's tensor as a program planned at its upper bound holds it
// (ExecuTorch's DYNAMIC_BOUND): `bounds[v]`'s sizes, which kernels resize within;
// value_meta's when there are no bounds or the bound lacks the value's rank.
Tensor bound_meta(const std::vector<std::vector<int64_t>>* bounds, int v, const ValueInfo& info);

// The out tensor of the op that must fail (ProgramInfo::failing_op): the analysis
// gives its result no layout, so the executors make one up that the op could
// plausibly write (the layout it would have with only the bad argument ignored,
// at most a few KiB beyond the source's bytes), so that a kernel that forgets the
// check has somewhere to write and is caught, rather than refusing for a rank or
// dim-order mismatch that hides the missing check.
Tensor failing_out_meta(const Op& op, const Tensor& src);

}  // namespace slicefuzz
