// Generator pieces of the ops added since the op schema (case format version 3
// on): one realiser per op, from a random key, over a source layout. Inserted
// into generated cases (generate.cpp, version 3) and by the InsertSchemaOp
// mutator, so that the version-2 generators and their streams stay as they were.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "oracles/judge_layouts.h"
#include "vocab/case.h"

namespace slicefuzz::gen {

// The ops that have a piece here (table order).
const std::vector<OpKind>& schema_op_kinds();

// `kind` over a source of layout `in`, from `rng`: valid mostly, deliberately
// invalid at a small rate (its own errors). result and src are left empty.
// false when the op cannot be realised over `in`.
bool realize_schema_op(OpKind kind, const judge::Layout& in, std::mt19937_64& rng, Op& op);

// Those of them a case of format `version` may hold (table order).
const std::vector<OpKind>& schema_op_kinds_up_to(int version);

// Inserts one schema op of format `version` or older reading a value of `c` at
// a random place, and sometimes a reader of its result (a clone that is an
// output, an add_ that mutates it), so that the pass has something to alias or
// to refuse. false if nothing fits.
bool insert_schema_op_up_to(Case& c, std::mt19937_64& rng, int version);
// One of the ops of a version after 3 and up to `version` (generate.cpp's
// stream of its own for them); false if there is none or nothing fits.
bool insert_newer_schema_op(Case& c, std::mt19937_64& rng, int version);
// The mutators' two: version 3's ops (narrow_copy, expand_copy), and every op
// (permute_copy since version 4), which a version-3 campaign leaves out.
bool insert_schema_op(Case& c, std::mt19937_64& rng);
bool insert_schema_op_v4(Case& c, std::mt19937_64& rng);

}  // namespace slicefuzz::gen
