// The judge's inexact ops (sigmoid, gelu) and how far two faithful computations
// of a value may lie apart once one of them has run.
//
// torch computes sigmoid and gelu with kernels whose rounding depends on how the
// operand lies in memory: a contiguous row runs the vectorised kernel (Sleef's
// exp, a polynomial erf), a strided one the scalar loop (std::exp, std::erf).
// Measured on Debian's torch 1.13: sigmoid of a [1000, 32] float32 view with
// step 2 differs from sigmoid of its contiguous copy in 1289 elements by one ulp,
// gelu of a transposed view in 47311 of 64000. A re-inplacing or aliasing pass
// changes exactly that layout, so the values of these ops are compared within a
// bound, never bit for bit: the naive reference computes, next to every element,
// the largest distance between two computations that each round faithfully
// (its own, in double, and torch's, in whichever kernel), carried through the ops
// after it. Elements no inexact op reached keep bound 0 and are compared exactly.
#pragma once
#include <cstdint>

#include "vocab/scalar_type.h"

namespace slicefuzz::judge {

// The ulps of its dtype one faithful computation of sigmoid or gelu may lie from
// the true value (both sides: twice this), generous for torch 1.13's kernels.
inline constexpr double kInexactUlps = 4;

// The spacing of dtype t's values at magnitude |m| (one ulp; at and below the
// smallest normal, the subnormal spacing); infinity for an infinite or NaN m.
double spacing(ScalarType t, double m);

// Writes y rounded to dtype t (float16/bfloat16 through float).
void store_value(ScalarType t, double y, uint8_t* out);

// sigmoid and gelu (approximate="none") of n contiguous elements of dtype `from`,
// computed in double and rounded once into n elements of dtype `to` (sigmoid of a
// bool or integer tensor is float32; gelu keeps the dtype). gelu is computed as
// 0.5 * x * erfc(-x / sqrt(2)), which keeps its tiny negative tail exact.
void sigmoid_elements(ScalarType from, const uint8_t* in, ScalarType to, uint8_t* out, int64_t n);
void gelu_elements(ScalarType from, const uint8_t* in, ScalarType to, uint8_t* out, int64_t n);

// The bound after each op, given the operand x's bound e (0: exact) and the
// result y (dtype t). sigmoid and gelu add their own rounding (kInexactUlps on
// each side, plus the smallest normal for a result flushed or not; gelu's erf,
// torch's a polynomial in float, also an error proportional to |x|); their
// slopes (1/4, at most 1.13) carry e. add and mul of an integer k carry e
// (times |k|) and add one rounding at y; an exact operand stays exact.
double sigmoid_bound(ScalarType t, double y, double e);
double gelu_bound(ScalarType t, double x, double y, double e);
double add_bound(ScalarType t, double y, double e);
double mul_bound(ScalarType t, double y, double e, int64_t k);
// add and mul of two tensors: y = a op b, with a's bound ea and b's eb (|a| and
// |b| as this side computed them; the other side's lie within the bounds).
double add_tensor_bound(ScalarType t, double y, double ea, double eb);
double mul_tensor_bound(ScalarType t, double a, double b, double y, double ea, double eb);

}  // namespace slicefuzz::judge
