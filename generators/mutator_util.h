// Helpers the mutators share (generators/ only): random choices, the names
// defined before an op, each value's layout as the judge sees it, fresh names,
// and random valid arguments for the view-copy ops.
#pragma once
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "generators/mutator.h"
#include "oracles/judge_layouts.h"
#include "vocab/case.h"

namespace slicefuzz::mut {

using Rng = std::mt19937_64;

inline size_t below(Rng& rng, size_t n) { return n ? static_cast<size_t>(rng() % n) : 0; }
inline bool chance(Rng& rng, int percent) { return static_cast<int>(rng() % 100) < percent; }
template <typename T>
const T& pick(Rng& rng, const std::vector<T>& v) {
  return v[below(rng, v.size())];
}

// Names defined before op `k` (the inputs first).
std::vector<std::string> defined_before(const Case& c, size_t k);

// The layout of every value the judge knows (defined before the first failing
// op), by name; nullopt for the others.
std::optional<judge::Layout> layout_of(const Case& c, const std::string& name);

// The layout the judge gives `name`; else the input so named, else the first input's.
judge::Layout layout_or_input(const Case& c, const std::string& name);

// One of the inputs (the only one without drawing from rng).
InputDecl& some_input(Case& c, Rng& rng);

std::string fresh_name(const Case& c);

// Indices of the ops of `kind`.
std::vector<size_t> ops_of(const Case& c, OpKind kind);

// A valid defining op of `kind` (a view-copy kind, or Clone with a dim order)
// over a source of layout `in`; nullopt when none exists (select of rank 0,
// unsqueeze at rank 16). result and src are left empty.
std::optional<Op> random_view_op(OpKind kind, const judge::Layout& in, Rng& rng);

// Inserts `op` (named fresh) reading `src` at a random position after src's
// definition; sometimes makes it an output.
void insert_defining_op(Case& c, Op op, const std::string& src, Rng& rng);

// The version-1 mutators and the view ops' ones (the table is their concatenation).
std::vector<CaseMutator> v1_mutators();
std::vector<CaseMutator> view_op_mutators();
std::vector<CaseMutator> eager_mutators();  // mutators_eager.cpp
// Version 4's: executions and ranges (mutators_dynamic.cpp); none applies to a
// case without symbols.
std::vector<CaseMutator> dynamic_mutators();

}  // namespace slicefuzz::mut
