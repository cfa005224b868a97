// The pieces of `slicefuzz export --python` scripts. Two forms: a version-1
// case (every value in the input's dim order, et_slice the only alias prim op)
// keeps the script it always had, byte for byte; a case that needs version 2
// (view-copy ops other than slice_copy, clone(dim_order=), eager ops) gets the
// per-value-layout form, in which every copy op is told its result's dim order
// (the judge's layouts, oracles/judge_layouts.h) and the replay handles every
// alias prim op. Version 1: kHead kSliceCopyV1 kInPlaceOps kCloneV1, then the
// replay kCanonicalStridesV1 kFirstDifference kRunCopyV1 kPoison kReplayV1
// kReplayStepChecks kReplayOutputsV1 kReplayArenaCheck, `problems = replay()`, kReplayVerdict. Per-value
// layouts: kHead kLayoutOps kInPlaceOps kCloneAndEagerOps, then kCanonicalStrides
// kFirstDifference kRunCopy kPoison kReplay kReplayStepChecks kReplayOutputs
// kReplayArenaCheck, then `problems = replay()` and kReplayVerdict. A case with
// symbols (version 4, export_python_dynamic.cpp) gets the per-value-layout form
// with one copy-semantics block and one replay() call per execution.
#pragma once

namespace slicefuzz::export_python_text {
extern const char* const kHead;  // imports, the input fill, empty_with_dim_order, slice_view (both forms)
extern const char* const kSliceCopyV1;  // version 1: slice_copy in the case's one dim order
extern const char* const kInPlaceOps;  // add_ and copy_ (both forms)
extern const char* const kCloneV1;  // version 1: clone in the case's one dim order
extern const char* const kCanonicalStridesV1;  // replay, version 1: canonical strides in DIM_ORDER
extern const char* const kFirstDifference;  // replay: first_difference (both forms)
extern const char* const kRunCopyV1;  // replay, version 1: run_copy
extern const char* const kPoison;  // replay: poison (both forms)
extern const char* const kReplayV1;  // replay, version 1: the lockstep loop's op dispatch (et_slice aliases only)
extern const char* const kReplayStepChecks;  // replay: after each op, poison what the plan frees, check what it keeps (both forms)
extern const char* const kReplayOutputsV1;  // replay, version 1: the outputs' checks
extern const char* const kReplayArenaCheck;  // replay: the arena-growth promise, return (both forms)
extern const char* const kReplayVerdict;  // replay: the verdict over `problems` (both forms)
extern const char* const kLayoutOps;  // per-value layouts: make_input, into, every view-copy op with its result's dim order
extern const char* const kCloneAndEagerOps;  // per-value layouts: copy_ between dtypes, clone(t, dim_order), the eager ops
extern const char* const kCanonicalStrides;  // replay, per-value layouts: canonical strides in a given dim order
extern const char* const kRunCopy;  // replay, per-value layouts: COPY_OPS, run_copy, reads
extern const char* const kReplay;  // replay, per-value layouts: the lockstep loop's op dispatch (every alias prim op)
extern const char* const kReplayOutputs;  // replay, per-value layouts: the outputs' checks

}  // namespace slicefuzz::export_python_text
