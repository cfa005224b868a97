// The declared limits of the executorch-portable backend: why ExecuTorch's
// portable kernels may refuse a case, read off the kernels' own checks, or ""
// when the case lies inside them (any refusal there is a finding).
#pragma once
#include <string>

#include "vocab/case.h"
#include "vocab/program_info.h"

namespace slicefuzz::et_limits {

std::string portable_limits(const Case& c, const ProgramInfo& info);

}  // namespace slicefuzz::et_limits
