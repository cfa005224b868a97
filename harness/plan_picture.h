// Pictures of a memory plan: program steps on one axis, arena bytes on the other,
// each tensor a box, aliases inside their root, lifetime extensions visible.
#pragma once
#include <string>

#include "program/program_info.h"
#include "program/memory_planner.h"
#include "program/rewrite_pass.h"

namespace slicefuzz {

// Text: one row per tensor, one column per step.
//   '#' the tensor is live on its own, '+' live only because an alias still
//   reads it (the extension), '=' an alias (no bytes of its own).
std::string plan_text_picture(const ProgramInfo& info, const RewritePlan& rewrite,
                              const MemoryPlan& plan);

// A standalone SVG document.
std::string plan_svg(const std::string& title, const ProgramInfo& info,
                     const RewritePlan& rewrite, const MemoryPlan& plan);

}  // namespace slicefuzz
