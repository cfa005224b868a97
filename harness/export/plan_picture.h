// Pictures of a memory plan: program steps on one axis, arena bytes on the other,
// each tensor a box, aliases inside their root, lifetime extensions visible. The
// copy-only plan of the same program is drawn beside (the rewrite is not always a
// memory win), and a failing case marks its failure.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "vocab/program_info.h"
#include "program/memory_planner.h"
#include "program/rewrite_pass.h"

namespace slicefuzz {

// A rewrite-path failure to mark. `value` is the value the failing op defines
// (-1: none, only the label is drawn). `reads` are the byte ranges, from its
// root's first byte, that the op's slice really reads (torch's view: strided, with
// gaps for a step > 1); the alias claims [delta, delta + nbytes) instead.
struct PictureFailure {
  std::string label;  // "UNSOUND_REWRITE: op 0 `y = ...` ..."
  int value = -1;
  std::vector<std::pair<int64_t, int64_t>> reads;  // [begin, end) bytes
  bool reads_truncated = false;                    // too many runs to draw each
  // Where the backend's et_slice really put the alias (bytes from its root), when
  // that differs from the plan's delta (ALIAS_VIOLATION); -1: not known.
  int64_t executed_delta = -1;
  // Names from the op table for the failing op: what reads ("slice" for
  // slice_copy, else the op's name, e.g. "view_copy") and the alias prim op
  // that placed the alias ("et_slice", "et_select", "et_view").
  std::string op_word = "slice";
  std::string alias_prim = "et_slice";
};

// Text: one row per tensor, one column per step.
//   '#' the tensor is live on its own, '+' live only because an alias still
//   reads it (the extension), '=' an alias (no bytes of its own).
// With copy_plan, the copy-only plan follows; with failure, the failing row is
// marked and the failure is named.
std::string plan_text_picture(const ProgramInfo& info, const RewritePlan& rewrite,
                              const MemoryPlan& plan, const MemoryPlan* copy_plan = nullptr,
                              const PictureFailure* failure = nullptr);

// A standalone SVG document: the rewrite plan, and the copy-only plan beside it
// on the same byte scale when given. `alias_legend` names the plan's aliases in
// the legend (the alias prim ops the pass used, e.g. "et_select/et_view alias").
std::string plan_svg(const std::string& title, const ProgramInfo& info,
                     const RewritePlan& rewrite, const MemoryPlan& plan,
                     const MemoryPlan* copy_plan = nullptr,
                     const PictureFailure* failure = nullptr,
                     const std::string& alias_legend = "et_slice alias");

}  // namespace slicefuzz
