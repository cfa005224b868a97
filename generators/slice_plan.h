// Slice arguments as shape-independent plans (see case_gen.h): shared by the
// version-1 case generator and the view-op case generator. Internal to generators/.
#pragma once
#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "generators/case_gen.h"
#include "generators/gen_choices.h"

namespace slicefuzz::gen {

struct SlicePlan {
  Pick validity, dim, start, end, step;
};

// About `invalid_percent`% of plans give invalid arguments (dim out of range or
// step <= 0); the rest are valid for any source of rank >= 1.
rc::Gen<SlicePlan> genSlicePlan(int invalid_percent);

SliceArgs realize_slice(const SlicePlan& plan, const std::vector<int64_t>& sizes);

// The result's sizes, or (for invalid arguments) the source's as a stand-in:
// nothing after a failing op runs, the stand-in only keeps later plans realisable.
std::vector<int64_t> slice_result_sizes(const std::vector<int64_t>& sizes, const SliceArgs& a);

// add_'s scalar: small mostly, sometimes past int32 or an int64 extreme.
rc::Gen<int64_t> genAddScalar();

Op slice_op(std::string result, std::string src, const SliceArgs& a);

}  // namespace slicefuzz::gen
