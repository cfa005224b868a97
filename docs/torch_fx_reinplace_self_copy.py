#!/usr/bin/python3
# Standalone reproducer (no slicefuzz code), backend torch-fx-reinplace.
# Eager PyTorch vs make_fx(functionalize(f)) after torch.fx.passes.reinplace.
# slicefuzz: VALUE_MISMATCH: worker path: output 'x' (defined by the input): element [1]: expected 2.5, got 3.5 (torch vs worker path) [out-of-process backend torch-fx-reinplace] [the worker blames: reinplace-inverse-scatter:other-value]
# The case:
#   slicefuzz-case 2
#   dtype float32
#   input x [2]
#   add_(x, 1)
#   v = slice(x, dim=0, start=1, end=3, step=1)
#   y = add(v, 1)
#   copy_(v, v)
#   output x
import sys
import warnings
warnings.filterwarnings('ignore')
import torch
from functorch import functionalize, make_fx
from torch.fx.passes.reinplace import reinplace


def make_input():
    # x: the harness's input values, laid out with dim order [0]
    raw = bytearray.fromhex('0000003f0000c03f')
    values = torch.frombuffer(raw, dtype=torch.uint8).view(torch.float32).reshape([2])
    x = torch.empty([2], dtype=torch.float32).permute([0])
    x.copy_(values)
    return x


def add_(t, k):  # bool: addition mod 2 (torch refuses bool + int)
    return (t.logical_not_() if k & 1 else t) if t.dtype == torch.bool else t.add_(k)


def add(t, k):
    return (torch.logical_not(t) if k & 1 else t.clone()) if t.dtype == torch.bool else torch.add(t, k)


def f(x):
    add_(x, 1)
    v = torch.ops.aten.slice(x, 0, 1, 3, 1)
    y = add(v, 1)
    v.copy_(v)
    return ()


def outputs(x, results):  # the case's outputs; the input's is its final value
    results = list(results)
    return {
        'x': x,
    }


x = make_input()
eager = outputs(x, f(x))
gm = make_fx(functionalize(f))(make_input())
print('---- traced: make_fx(functionalize(f))')
print(gm.code.strip())
gm = reinplace(gm, make_input())
print('---- after torch.fx.passes.reinplace')
print(gm.code.strip())
x = make_input()
transformed = outputs(x, gm(x))
bad = 0
for name in eager:
    e, t = eager[name], transformed[name]
    same = e.shape == t.shape and torch.equal(e, t)
    print('%s %s\n  eager:       %s\n  reinplaced:  %s' % ('ok  ' if same else 'DIFF', name, e.tolist(), t.tolist()))
    bad += not same
print('reproduced: %d output(s) differ' % bad if bad else 'not reproduced: eager and the graph agree')
sys.exit(1 if bad else 0)
