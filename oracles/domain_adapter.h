// The oracle-domain adapter: where libtorch 1.13 cannot take an argument as the
// case language means it (measured), the argument is mapped to an equivalent one
// before calling torch, or, where our semantics (oracles/judge_layouts.h) call the
// op an error and torch 1.13 would run it, the op is refused here with a clear
// message, so that torch fails at the same op. The system under test always gets
// the raw values. Every function is unit-tested (tests/oracle_agreement_test.cpp).
//
// slice: a start/end below -2^62 throws (c10::SymInt reserves those bit
// patterns), and a step near INT64_MAX overflows inside slice (INT64_MAX on 5
// elements gives size 0 instead of 1; INT64_MAX-1 throws). Each value is mapped
// to an *equivalent* one: start/end clamped into [-(size+1), size+1] (every value
// beyond already clamps to 0 or size), step into [1, max(size, 1)] (a step >= size
// selects at most one element either way). Steps <= 0 pass through unchanged so
// that torch still raises its error.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

namespace slicefuzz {

struct TorchSliceArgs {
  std::optional<int64_t> start, end;
  int64_t step;
};

TorchSliceArgs adapt_slice_args_for_torch(int64_t size, std::optional<int64_t> start,
                                          std::optional<int64_t> end, int64_t step);

// The step torch is given for a slice of a dim of `size` elements. It is also
// the factor on that dim's stride in torch's view, even where the slice keeps
// one element or none (torch multiplies always), and torch's copy_ compares
// whole stride lists: a view's strides on its size-1 dims decide whether copy_
// between two views of one storage is refused. The judge's view of a slice
// (judge_layouts.cpp, op_view) takes its stride from here for that reason.
int64_t torch_slice_step(int64_t size, int64_t step);

// What the adapter throws for an op that our semantics refuse and torch 1.13
// would run (the oracle reports it as the op's error, like torch's own).
struct TorchDomainError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// squeeze_copy(dims): torch 1.13 has squeeze.dim but no squeeze.dims. The dims
// to squeeze one at a time with squeeze.dim, normalised against `rank` (a 0-dim
// tensor takes 0 and -1, as torch's and ExecuTorch's squeeze), highest first so
// that each squeeze leaves the lower dims' numbers alone. A dim outside the range
// comes back alone and raw, so that torch raises its own IndexError on it. Throws
// TorchDomainError for a dim listed twice (ExecuTorch's squeeze_copy.dims refuses
// it; torch 1.13, squeezing one at a time, would not).
std::vector<int64_t> squeeze_dims_for_torch(int64_t rank, const std::vector<int64_t>& dims);

// unsqueeze_copy: throws TorchDomainError when the result's rank would exceed 16
// (ExecuTorch's limit; torch 1.13 allows up to 64). torch checks the dim itself.
void check_unsqueeze_for_torch(int64_t rank);

// view_copy(sizes): throws TorchDomainError for more than 16 sizes (torch allows
// more), and where the product of the sizes other than -1 passes INT64_MAX with
// no size 0: torch 1.13 multiplies them in int64 and wraps (`view(3,
// 6148914691236517206)` of 2 elements passes its size check as 2 elements). All
// other bad sizes (two -1s, a size below -1, a -1 beside a 0, a count that
// differs) torch 1.13 refuses itself.
void check_view_sizes_for_torch(const std::vector<int64_t>& sizes);

// expand_copy(sizes): throws TorchDomainError for more than 16 sizes (the result's
// rank; torch 1.13 allows 64). Torch refuses every other bad size list itself.
void check_expand_sizes_for_torch(const std::vector<int64_t>& sizes);

}  // namespace slicefuzz
