// Deliberately faulty backends: each reproduces one real bug class with a small,
// readable diff against the reference, so the self-test can prove slicefuzz
// catches it. Never use them for anything else.
#pragma once
#include <vector>

#include "backends/backend.h"

namespace slicefuzz {

void add_faulty_backends(std::vector<Backend>& out);
// A faulty backend: the reference with a name and its bug class in one line (each
// registration then swaps in the one broken piece).
Backend faulty(const char* name, const char* description);
// The view-copy ops' bug classes (faulty_view_ops.cpp); add_faulty_backends calls it.
void add_faulty_view_backends(std::vector<Backend>& out);
// Dynamic shapes' bug classes (faulty_dynamic.cpp); add_faulty_backends calls it.
void add_faulty_dynamic_backends(std::vector<Backend>& out);

}  // namespace slicefuzz
