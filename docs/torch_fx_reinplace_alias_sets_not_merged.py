#!/usr/bin/python3
# Standalone reproducer (no slicefuzz code), backend torch-fx-reinplace.
# Eager PyTorch vs make_fx(functionalize(f)) after torch.fx.passes.reinplace.
# slicefuzz: VALUE_MISMATCH: worker path: output 'c' (defined by op 4 `c = slice(a, dim=1, start=0, end=1, step=1)`): element [0, 0]: expected -4.5, got -11.5 (torch vs worker path) [out-of-process backend torch-fx-reinplace] [the worker blames: reinplace-alias-sets:copied-not-merged]
# The case:
#   slicefuzz-case 2
#   dtype float32
#   input x [1, 1]
#   a = add(x, -7)
#   add_(a, 1)
#   b = slice(a, dim=-2, start=0, end=7, step=1)
#   add_(b, 1)
#   c = slice(a, dim=1, start=0, end=1, step=1)
#   d = add(c, 5)
#   f = add(b, -7)
#   output c
import sys
import warnings
warnings.filterwarnings('ignore')
import torch
from functorch import functionalize, make_fx
from torch.fx.passes.reinplace import reinplace


def make_input():
    # x: the harness's input values, laid out with dim order [0, 1]
    raw = bytearray.fromhex('0000003f')
    values = torch.frombuffer(raw, dtype=torch.uint8).view(torch.float32).reshape([1, 1])
    x = torch.empty([1, 1], dtype=torch.float32).permute([0, 1])
    x.copy_(values)
    return x


def add_(t, k):  # bool: addition mod 2 (torch refuses bool + int)
    return (t.logical_not_() if k & 1 else t) if t.dtype == torch.bool else t.add_(k)


def add(t, k):
    return (torch.logical_not(t) if k & 1 else t.clone()) if t.dtype == torch.bool else torch.add(t, k)


def f(x):
    a = add(x, -7)
    add_(a, 1)
    b = torch.ops.aten.slice(a, -2, 0, 2, 1)
    add_(b, 1)
    c = torch.ops.aten.slice(a, 1, 0, 1, 1)
    d = add(c, 5)
    f = add(b, -7)
    return (c.clone(), )


def outputs(x, results):  # the case's outputs; the input's is its final value
    results = list(results)
    return {
        'c': results.pop(0),
    }


x = make_input()
try:
    eager = outputs(x, f(x))
except RuntimeError as e:
    print('not reproduced: eager PyTorch refuses the program (%s)' % ' '.join(str(e).split())[:300])
    sys.exit(0)
gm = make_fx(functionalize(f))(make_input())
print('---- traced: make_fx(functionalize(f))')
print(gm.code.strip())
gm = reinplace(gm, make_input())
print('---- after torch.fx.passes.reinplace')
print(gm.code.strip())
x = make_input()
try:
    transformed = outputs(x, gm(x))
except RuntimeError as e:
    print('reproduced: the graph raises where eager PyTorch runs the program (%s)' % ' '.join(str(e).split())[:300])
    sys.exit(1)
bad = 0
for name in eager:
    e, t = eager[name], transformed[name]
    same = e.shape == t.shape and torch.equal(e, t)
    print('%s %s\n  eager:       %s\n  reinplaced:  %s' % ('ok  ' if same else 'DIFF', name, e.tolist(), t.tolist()))
    bad += not same
print('reproduced: %d output(s) differ' % bad if bad else 'not reproduced: eager and the graph agree')
sys.exit(1 if bad else 0)
