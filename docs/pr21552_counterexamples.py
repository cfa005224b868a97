#!/usr/bin/python3
"""PR 21552's rule, shown wrong without slicefuzz: three programs that the draft
pass at the PR head (pytorch/executorch refs/pull/21552/head = a18eb2a8a3,
exir/passes/replace_slice_copy_with_slice_pass.py; ../shared/pr21552/) admits and
re-inplaces, and whose result changes (or whose Method cannot load). The first two
need ExecutorchBackendConfig(run_reinplace_pass=True) with an op set that makes the
write in place (the edge graph is functional); the third needs nothing.

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


def pr21552_admits(base, dim, start, step=1):
    """The head's gates (ReplaceSliceCopyWithSlicePass.call, a18eb2a8a3) that a
    plain tensor reaches: is_contiguous_slice_copy (step 1, dim normalises to 0),
    _has_default_dim_order (the base's strides sort to the identity, Python's
    stable sort), a non-negative start (None = 0). The output-user, spec and
    _is_aliasing_base gates hold for every program below by construction."""
    d = dim + base.dim() if dim < 0 else dim
    order = [i for i, _ in sorted(enumerate(base.stride()), key=lambda p: p[1], reverse=True)]
    return step == 1 and d == 0 and order == list(range(base.dim())) and (start or 0) >= 0


def pr21552_alias(base, dim, start, result_shape):
    """The PR's _SliceSpec: the base's storage at _compute_slice_byte_offset =
    start * base.stride[dim] * element_size bytes (start as written, None = 0),
    with contiguous_stride_from_shape strides for the slice's shape."""
    assert pr21552_admits(base, dim, start), "the head keeps this slice a copy"
    offset = (0 if start is None else start) * base.stride(dim) + base.storage_offset()
    if offset < 0 or offset + result_shape.numel() > base.storage().size():
        return None, "alias at element offset %d leaves the base's %d elements" % (
            offset, base.storage().size())
    return torch.as_strided(base, result_shape, contiguous_strides(list(result_shape)),
                            offset), None


def mutated_slice():
    # t = clone(x); a = slice_copy(t, 0, None, None); add_(a, 1); output t
    # (needs run_reinplace_pass with an op set that makes the add in place)
    t = fill([1])
    want = t.clone()                       # copy semantics: t is not written
    alias, _ = pr21552_alias(t, 0, None, torch.Size([1]))
    alias.add_(1)                          # writes t: the copy would not
    return want, t


def base_written_while_live():
    # t = clone(x); a = slice_copy(t, 0, 1, 3); add_(t, 10); out = clone(a)
    # (needs run_reinplace_pass with an op set that makes the add in place)
    t = fill([4])
    want = t[1:3].clone()
    alias, _ = pr21552_alias(t, 0, 1, torch.Size([2]))
    t.add_(10)                             # the alias sees the write, the copy did not
    return want, alias.clone()


def empty_alias_past_buffer():
    # b = slice_copy(x, 0, 8, None); out = clone(b), x [1] float32 (default pipeline)
    # The head places the empty alias at mem_offset 8 * 1 * 4 = 32 bytes into x,
    # where torch's view x[8:] starts at the clamped start (byte 4). A planned
    # buffer holding x is 16 bytes (exir/tensor.py ALIGNMENT = 16); ExecuTorch's
    # HierarchicalAllocator::get_offset_address refuses offset + 0 > its size, so
    # the Method does not load. Compared here: the byte offsets.
    x = fill([1])
    assert pr21552_admits(x, 0, 8)
    want = x[8:].storage_offset() * x.element_size()
    got = 8 * x.stride(0) * x.element_size()   # _compute_slice_byte_offset
    buffer = 16
    return torch.tensor([want]), (torch.tensor([got]) if got <= buffer else
                                  "mem_offset %d past the %d-byte planned buffer" % (got, buffer))


def main():
    cases = [("slice mutated in place", mutated_slice),
             ("base written while the slice is live", base_written_while_live),
             ("empty alias past the planned buffer", empty_alias_past_buffer)]
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
