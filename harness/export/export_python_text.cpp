// The Python text of `slicefuzz export --python` scripts, in pieces that
// export_python.cpp puts together: the pieces both forms share and the
// version-1 form (see export_python_text.h).
#include "harness/export/export_python_text.h"

namespace slicefuzz::export_python_text {

// imports, the input fill, empty_with_dim_order, slice_view (both forms)
extern const char* const kHead = R"py(import sys
import torch

torch.set_num_threads(1)


def fill(n, dtype):
    """slicefuzz's documented input fill, by row-major element index i."""
    i = torch.arange(n, dtype=torch.int64)
    if dtype == torch.bool:
        return i % 3 == 1
    if dtype == torch.uint8:
        return (i % 251).to(dtype)
    if dtype in (torch.int8, torch.bfloat16):
        return (i % 251 - 125).to(torch.float32 if dtype == torch.bfloat16 else torch.int64).to(dtype)
    if dtype == torch.int16:
        return (i % 32749 - 16374).to(dtype)
    if dtype in (torch.int32, torch.int64):
        return i.to(dtype)
    if dtype == torch.float16:
        return ((i % 2039 - 1019).to(torch.float32) / 2).to(dtype)
    if dtype == torch.float32:
        return (i % (1 << 22)).to(torch.float32) + 0.5
    return i.to(torch.float64) + 0.25


def empty_with_dim_order(sizes, dim_order, dtype):
    """A fresh tensor whose memory order is dim_order (outermost first)."""
    permuted = [sizes[d] for d in dim_order]
    inverse = [0] * len(dim_order)
    for i, d in enumerate(dim_order):
        inverse[d] = i
    return torch.empty(permuted, dtype=dtype).permute(inverse)


def slice_view(t, dim, start, end, step):
    """torch's view of aten::slice. libtorch 1.13 cannot take every int64, so
    start/end are clamped into [-(size+1), size+1] and step into [1, max(size, 1)]
    first: equivalent values (slicefuzz's oracle-domain adapter)."""
    size = t.size(dim) if t.dim() > 0 and -t.dim() <= dim < t.dim() else 0
    clamp = lambda v: None if v is None else max(-(size + 1), min(size + 1, v))
    if step > 0:
        step = min(step, max(size, 1))
    return torch.ops.aten.slice(t, dim, clamp(start), clamp(end), step)


)py";

// version 1: slice_copy in the case's one dim order
extern const char* const kSliceCopyV1 = R"py(def slice_copy(t, dim, start, end, step):
    """aten::slice_copy with copy semantics."""
    view = slice_view(t, dim, start, end, step)
    out = empty_with_dim_order(list(view.shape), DIM_ORDER, t.dtype)
    out.copy_(view)
    return out


)py";

// add_ and copy_ (both forms)
extern const char* const kInPlaceOps = R"py(def add_(t, k):
    if t.dtype == torch.bool:  # slicefuzz defines bool add_ as addition mod 2
        if k & 1:
            t.logical_not_()
    else:
        t.add_(k)


def copy_(dst, src):
    if list(dst.shape) != list(src.shape):
        raise RuntimeError("copy_: sizes differ (slicefuzz programs do not broadcast)")
    # Copy semantics (version 1): every value has its own storage, so the clone
    # changes nothing there; in the replay of a rewrite, where values share the
    # arena, it keeps the case language's rule that the source is read whole.
    dst.copy_(src.clone())


)py";

// version 1: clone in the case's one dim order
extern const char* const kCloneV1 = R"py(def clone(t):
    out = empty_with_dim_order(list(t.shape), DIM_ORDER, t.dtype)
    out.copy_(t)
    return out

)py";

// replay, version 1: canonical strides in DIM_ORDER
extern const char* const kCanonicalStridesV1 = R"py(

def canonical_strides(sizes):
    """The strides of a fresh tensor of `sizes` in DIM_ORDER (a size-0 dim counts
    as 1, as ExecuTorch's dim_order_to_stride does): what et_slice gives its alias."""
    strides, s = [0] * len(sizes), 1
    for d in reversed(DIM_ORDER):
        strides[d] = s
        s *= max(sizes[d], 1)
    return strides


)py";

// replay: first_difference (both forms)
extern const char* const kFirstDifference = R"py(def first_difference(a, b):
    """None when equal, else (index, a's element, b's element)."""
    if list(a.shape) != list(b.shape):
        return ('sizes', list(a.shape), list(b.shape))
    ne = a != b
    if not bool(ne.any()):
        return None
    idx = ne.nonzero()[0].tolist()
    return (idx, a[tuple(idx)].item(), b[tuple(idx)].item())


)py";

// replay, version 1: run_copy
extern const char* const kRunCopyV1 = R"py(def run_copy(op, cv):
    """One op with copy semantics on the dict of values cv."""
    kind = op[0]
    if kind == 'slice_copy':
        cv[op[1]] = slice_copy(cv[op[2]], *op[3:])
    elif kind == 'clone':
        cv[op[1]] = clone(cv[op[2]])
    elif kind == 'add_':
        add_(cv[op[1]], op[2])
    else:
        copy_(cv[op[1]], cv[op[2]])


)py";

// replay: poison (both forms)
extern const char* const kPoison = R"py(def poison(t):
    """Changes every element of t (NaN for floats, bits flipped otherwise)."""
    if t.is_floating_point():
        t.fill_(float('nan'))
    elif t.dtype == torch.bool:
        t.logical_not_()
    else:
        t.bitwise_not_()


)py";

// replay, version 1: the lockstep loop (et_slice aliases only)
extern const char* const kReplayV1 = R"py(def replay():
    """Runs the program both ways in lockstep: copy semantics, and the rewrite as
    the arena holds it (one storage; each tensor at its planned offset, each alias
    at its root's offset plus its delta). Returns the problems found."""
    es = torch.empty(0, dtype=DTYPE).element_size()
    arena = torch.zeros(max(1, -(-ARENA_BYTES // es)), dtype=DTYPE)
    index = torch.arange(arena.numel(), dtype=torch.int64)
    problems, reported = [], set()

    def at(sizes, offset_bytes):
        return torch.as_strided(arena, sizes, canonical_strides(sizes), offset_bytes // es)

    def elements(t, root):
        """The arena elements t covers, counted from its root's first element."""
        e = torch.as_strided(index, t.shape, t.stride(), t.storage_offset()).flatten()
        return (e - PLACEMENT[root][1] // es).tolist()

    def brief(xs):
        return str(xs[:8])[:-1] + (', ...]' if len(xs) > 8 else ']')

    cv = {INPUT: empty_with_dim_order(SIZES, DIM_ORDER, DTYPE)}
    cv[INPUT].copy_(fill(cv[INPUT].numel(), DTYPE).reshape(SIZES))
    rv = {INPUT: at(SIZES, PLACEMENT[INPUT][1])}
    rv[INPUT].copy_(cv[INPUT])
    completed = True
    for k, op in enumerate(OPS):
        where = 'op %d `%s`' % (k, OP_TEXT[k])
        try:
            run_copy(op, cv)
        except Exception as e:
            print('%s raises with copy semantics (%s): compared up to it' % (where, str(e).splitlines()[0]))
            completed = False
            break
        kind = op[0]
        if kind == 'slice_copy':
            view = slice_view(rv[op[2]], *op[3:])
            sizes = list(view.shape)
            if op[1] in ALIASED:
                root, offset, nbytes = PLACEMENT[op[1]][:3]
                delta, root_nbytes = offset - PLACEMENT[root][1], PLACEMENT[root][2]
                if delta < 0 or delta + nbytes > root_nbytes:
                    problems.append('%s: the et_slice alias %r covers bytes [%d, %d) of its root %r, '
                                    'which has %d bytes: it leaves its root'
                                    % (where, op[1], delta, delta + nbytes, root, root_nbytes))
                    if offset < 0 or offset + nbytes > arena.numel() * es:
                        completed = False
                        break
                alias = at(sizes, offset)
                if view.numel() > 0 and elements(alias, root) != elements(view, root):
                    problems.append('%s: the et_slice alias %r = as_strided(%r, %s, %s, +%d) covers '
                                    'elements %s of its root %r, but the slice reads elements %s'
                                    % (where, op[1], root, sizes, list(alias.stride()), delta // es,
                                       brief(elements(alias, root)), root, brief(elements(view, root))))
                rv[op[1]] = alias
            else:
                rv[op[1]] = at(sizes, PLACEMENT[op[1]][1])
                rv[op[1]].copy_(view)
        elif kind == 'clone':
            rv[op[1]] = at(list(rv[op[2]].shape), PLACEMENT[op[1]][1])
            rv[op[1]].copy_(rv[op[2]])
        elif kind == 'add_':
            add_(rv[op[1]], op[2])
        else:
            copy_(rv[op[1]], rv[op[2]])
)py";

// replay: after each op, poison what the plan frees and check what it keeps (both forms)
extern const char* const kReplayStepChecks = R"py(        step = k + 1
        # Bytes whose planned lifetime ends here are the arena's again: mark them
        # (every element changes), as the arena's ASan poisoning does, so an alias
        # that still reads them shows it.
        for name, (root, offset, nbytes, first, last) in PLACEMENT.items():
            if root == name and last == step and name in rv and name not in OUTPUTS:
                poison(rv[name])
        # Every value the plan keeps for a later read must still hold what copy
        # semantics says: a write through an alias, or bytes reused too early, shows here.
        for name, (root, offset, nbytes, first, last) in PLACEMENT.items():
            if first <= step < last and name in rv and name not in reported:
                d = first_difference(rv[name], cv[name])
                if d is not None:
                    reported.add(name)
                    how = (' (an alias of %r)' % root) if root != name else ''
                    if root != name and PLACEMENT[root][4] <= step:
                        how += (", whose planned lifetime ended at step %d: the arena gave its "
                                "bytes away" % PLACEMENT[root][4])
                    problems.append('after %s: %r%s holds %r at %s in the rewrite, copy semantics '
                                    'gives %r' % (where, name, how, d[1], d[0], d[2]))
)py";

// replay, version 1: the outputs (et_slice aliases only)
extern const char* const kReplayOutputsV1 = R"py(    for name in OUTPUTS:
        if completed:
            d = first_difference(rv[name], cv[name])
            if d is not None and name not in reported:
                problems.append('output %r holds %r at %s in the rewrite, copy semantics gives %r'
                                % (name, d[1], d[0], d[2]))
        if name in ALIASED:
            problems.append('output %r is an et_slice alias of %r: program outputs must stay '
                            'copies (the runtime may repoint output buffers, and a caller '
                            'writing its output would write %r)' % (name, PLACEMENT[name][0],
                                                                  PLACEMENT[name][0]))
)py";

// replay: the arena-growth promise and the result (both forms)
extern const char* const kReplayArenaCheck = R"py(    print('arena: %d bytes with the rewrite, %d bytes copy-only' % (ARENA_BYTES, COPY_ONLY_ARENA_BYTES))
    if NEVER_GROWS_ARENA and ARENA_BYTES > COPY_ONLY_ARENA_BYTES:
        problems.append('the rewrite grew the arena from %d to %d bytes, and the backend promises '
                        'it never does' % (COPY_ONLY_ARENA_BYTES, ARENA_BYTES))
    return problems


)py";

// replay: the verdict over `problems` (both forms; a case with symbols: every execution's)
extern const char* const kReplayVerdict = R"py(print('slicefuzz finding:', FINDING)
if problems:
    print('REPRODUCED: the rewrite replayed with torch views differs from copy semantics:')
    for p in problems:
        print('  ' + p)
    sys.exit(1)
print('not reproduced: the rewrite replayed with torch views agrees with copy semantics')
if FINDING.startswith('UNSOUND_REWRITE'):
    print('(the rule the finding names is broken, but in this program no wrong value results)')
)py";

}  // namespace slicefuzz::export_python_text
