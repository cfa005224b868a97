#!/usr/bin/python3
"""PR 21552's rule, shown wrong without slicefuzz: four programs where the draft
pass (pytorch/executorch PR 21552, exir/passes/replace_slice_copy_with_slice_pass.py)
re-inplaces a slice_copy and the program's result changes.

The PR's alias is `_SliceSpec`: the base's storage at byte offset
`start * base.stride[dim] * element_size` (start as written, None = 0), with
contiguous strides for the slice's shape. Each program runs twice in plain
PyTorch (Debian's torch 1.13): with copy semantics (what slice_copy means), and
with the slice replaced by exactly that alias (torch.as_strided on the base's
storage). Exit status 1 while any counterexample reproduces.
Run: /usr/bin/python3 docs/pr21552_counterexamples.py
"""
import sys

import torch


def fill(shape, dim_order=None):
    """slicefuzz's float32 input fill (element i holds i + 0.5), laid out in `dim_order`."""
    n = 1
    for s in shape:
        n *= s
    t = (torch.arange(n, dtype=torch.float32) + 0.5).reshape(shape)
    if dim_order is None:
        return t.clone()
    permuted = t.permute(dim_order).contiguous()       # memory order: dim_order
    inverse = [dim_order.index(i) for i in range(len(shape))]
    return permuted.permute(inverse)                    # logical order, that layout


def contiguous_strides(shape):
    strides, acc = [], 1
    for s in reversed(shape):
        strides.insert(0, acc)
        acc *= max(s, 1)
    return strides


def pr21552_alias(base, dim, start, result_shape):
    """The PR's _SliceSpec: base storage at start * base.stride[dim] elements."""
    offset = (0 if start is None else start) * base.stride(dim) + base.storage_offset()
    if offset < 0 or offset + result_shape.numel() > base.storage().size():
        return None, "alias at element offset %d leaves the base's %d elements" % (
            offset, base.storage().size())
    return torch.as_strided(base, result_shape, contiguous_strides(list(result_shape)),
                            offset), None


def negative_start():
    # a = slice_copy(x, dim=0, start=-1); out = clone(a)
    x = fill([3])
    want = x[-1:].clone()
    alias, err = pr21552_alias(x, 0, -1, want.shape)
    return want, (alias.clone() if alias is not None else err)


def mutated_slice():
    # t = clone(x); a = slice_copy(t, 0, 0, 2); add_(a, 1); outputs t, clone(a)
    t = fill([4])
    copy_t = t.clone()
    a = copy_t[0:2].clone()
    a.add_(1)
    want = torch.cat([copy_t, a])
    alias, _ = pr21552_alias(t, 0, 0, torch.Size([2]))
    alias.add_(1)                          # writes t: the copy would not
    return want, torch.cat([t, alias.clone()])


def base_written_while_live():
    # t = clone(x); a = slice_copy(t, 0, 1, 3); add_(t, 10); out = clone(a)
    t = fill([4])
    want = t[1:3].clone()
    alias, _ = pr21552_alias(t, 0, 1, torch.Size([2]))
    t.add_(10)                             # the alias sees the write, the copy did not
    return want, alias.clone()


def dim_order_ignored():
    # x [2, 3] with dim_order [1, 0] (column-major); a = slice_copy(x, 0, 1, 2)
    x = fill([2, 3], dim_order=[1, 0])
    want = x[1:2].clone()
    alias, _ = pr21552_alias(x, 0, 1, want.shape)
    return want, alias.clone()


def main():
    cases = [("negative start taken as given", negative_start),
             ("slice mutated in place", mutated_slice),
             ("base written while the slice is live", base_written_while_live),
             ("base dim order ignored", dim_order_ignored)]
    bad = 0
    for name, fn in cases:
        want, got = fn()
        same = isinstance(got, torch.Tensor) and torch.equal(want, got)
        bad += not same
        print("%-40s copy semantics %s, PR 21552 alias %s -> %s" % (
            name, want.tolist(), got.tolist() if isinstance(got, torch.Tensor) else got,
            "same" if same else "WRONG"))
    print("%d of %d counterexamples reproduce" % (bad, len(cases)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
