// Version-2 copy programs: chains mixing slice_copy with the select copy, the
// squeeze copy (dims=[...] and dim=), the unsqueeze copy, the view copy (with and without
// one -1) and clone(dim_order=...), with in-place mutations (add_, copy_) through
// any alias candidate of a chain (an alias, an alias of an alias, the root under
// them), outputs at various places (often a value with several users, issue
// 3602), on any input layout. A case without a version-2 op is printed as
// version 1.
//
// Built like genCase (case_gen.h): shape-independent plans, realised op by op
// against each value's layout as the judge computes it (judge::op_result), so
// every op is valid except the one deliberately invalid op below; shrinking
// drops ops, then simplifies the input, then each op's arguments.
#pragma once
#include <rapidcheck.h>

#include "vocab/case.h"

namespace slicefuzz {

// Blind spots (issue 10). In kInvalidOpCasePercent of the cases exactly one op,
// at a uniformly chosen position of the chain, is replaced by an op that must
// fail there (every error rule of generators/invalid_ops.h, equally often except
// copy_ between different sizes of the same element count, 3x as often and in the
// second half of the chain, where values to pair exist; then select index or dim
// out of range, a squeeze dim repeated or out of range, view sizes with two -1,
// -1 beside a 0, another element count or a size < -1, unsqueeze dim out of
// range, slice dim or step invalid mid-chain, a clone dim order that is not a
// permutation). Every other op of every case is valid. Low, so that most
// programs run to the end; tests/generators_view_ops_test.cpp measures it.
inline constexpr int kInvalidOpCasePercent = 3;

// In kHugeBesideZeroPercent of the cases the input has a size-0 dim next to
// sizes past int32 (e.g. [0, 3000000000], or 65536 and 65537 whose product is
// past int32): no bytes, but lengths and element-count products that overflow
// ExecuTorch's int32 sizes. view_copy of any empty value also produces such
// sizes now and then (view_op_plans.h).
inline constexpr int kHugeBesideZeroPercent = 2;

// In kSeveralInputsPercent of the cases (version 2) there are 2 or 3 inputs
// (x, x1, x2) of different dtypes and dim orders: each extra input has sizes of
// its own (40%), or x's sizes in another dtype (30%: a copy_ between them must
// fail), or x's sizes in x's dtype in its own dim order (30%). Ops read any of
// them (sources are drawn over every value); half of these cases copy_ between
// two inputs of the same sizes and dtype at a random op; and in these cases the
// one invalid op above is, half of the time, a copy_ between two values of equal
// sizes and different dtypes (where there are such values). Drawn last, so that
// a case of one input is the one the generator gave before.
inline constexpr int kSeveralInputsPercent = 6;

// 1..8 ops (kMaxGeneratedOps), input and byte bounds as genCase's: always passes
// analyze() with kDefaultByteBudget, and parse(print(c)) == c.
rc::Gen<Case> genViewOpsCase();

}  // namespace slicefuzz
