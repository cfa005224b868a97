// The case-format ops the out-of-process worker protocol carries (README
// "Out-of-process backends"): exactly the op lines that
// backends/python/slicefuzz_worker.py parses (its OP_FORMS), which every Python
// worker (torch_fx_worker.py, et_pass_worker.py) speaks through. One table here,
// read by each worker backend's limits; tests/worker_protocol_ops_test.cpp checks
// it against OP_FORMS and has the worker parse a case of each op.
#pragma once
#include <string>

#include "vocab/case.h"

namespace slicefuzz {

// The op kinds OP_FORMS parses. squeeze_copy is not one (torch 1.13 has no
// squeeze_copy.dims, the several-dims form), nor are the version-4 ops other
// than permute_copy until the worker parses them.
bool in_worker_protocol(OpKind kind);

// "" when the worker protocol carries `c`, else why not, in words (an UNSUPPORTED
// reason): a case of several inputs (the protocol sends one), or the first op
// outside it; clone into a dim order is outside it too (OP_FORMS's clone takes
// no dim_order). The generators ask it too, so a worker backend's campaign does
// not spend cases on programs it would refuse.
std::string outside_worker_protocol_ops(const Case& c);

}  // namespace slicefuzz
