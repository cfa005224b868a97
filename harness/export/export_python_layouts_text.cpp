// The Python text of the per-value-layout form of `slicefuzz export --python`
// scripts (see export_python_text.h): every copy op is told its result's dim
// order, and the replay places every alias prim op's alias (et_slice, et_select,
// et_view) with torch.as_strided.
#include "harness/export/export_python_text.h"

namespace slicefuzz::export_python_text {

// per-value layouts: make_input, into, the written views of the view-copy ops
// whose torch 1.13 view needs help (export_python.cpp written_view)
extern const char* const kLayoutOps = R"py(def make_input(sizes, dim_order, dtype, first):
    """An input laid out in dim_order, holding slicefuzz's fill from fill index
    `first` on: input k's fill starts where input k-1's ends (the element count of
    the inputs before it), so different inputs hold different values."""
    t = empty_with_dim_order(sizes, dim_order, dtype)
    t.copy_(fill(first + t.numel(), dtype)[first:].reshape(sizes))
    return t


def into(values, dim_order):
    """A fresh tensor holding `values`, laid out in dim_order (outermost first):
    what every copy op writes. dim_order None: the layout is unknown because the
    op must fail; row-major then."""
    if dim_order is None:
        dim_order = list(range(values.dim()))
    out = empty_with_dim_order(list(values.shape), dim_order, values.dtype)
    out.copy_(values)
    return out


def squeeze_view(t, dims):
    """aten::squeeze_copy.dims as a view. torch 1.13 has no squeeze.dims: one dim at
    a time, highest first, so the dims still to squeeze keep their numbers. A listed
    dim of size > 1 stays (as aten); a repeated dim raises (ExecuTorch's .dims); a
    0-dim tensor takes dim 0 or -1 and stays 0-dim."""
    span = max(t.dim(), 1)
    listed = []
    for d in dims:
        if not -span <= d < span:
            raise IndexError('squeeze_copy: dim %d is outside [%d, %d]' % (d, -span, span - 1))
        d = d + span if d < 0 else d
        if d in listed:
            raise RuntimeError('squeeze_copy: dim %d appears more than once' % d)
        listed.append(d)
    if t.dim() > 0:
        for d in sorted(listed, reverse=True):
            t = t.squeeze(d)
    return t


def within_rank(name, view):
    """A view-copy op's result past rank 16 raises (ExecuTorch's limit, which the
    case language keeps; torch 1.13 would allow 64)."""
    if view.dim() > 16:
        raise RuntimeError("%s: the result's rank %d exceeds 16" % (name, view.dim()))
    return view


def view_sizes(numel, sizes):
    """view_copy's sizes with the -1 inferred. Raises where ExecuTorch's view_copy
    refuses: more than 16 sizes, two -1, a size below -1, a -1 beside a 0 (the
    inferred size would be ambiguous), a different element count. Python integers:
    no product overflows."""
    if len(sizes) > 16:
        raise RuntimeError('view_copy: more than 16 sizes')
    if sizes.count(-1) > 1:
        raise RuntimeError('view_copy: only one size may be -1')
    if any(s < -1 for s in sizes):
        raise RuntimeError('view_copy: a size is negative: %s' % sizes)
    known = 1
    for s in sizes:
        known *= s if s != -1 else 1
    if -1 in sizes:
        if 0 in sizes:
            raise RuntimeError('view_copy: -1 cannot be inferred next to a size of 0')
        if known == 0 or numel % known:
            raise RuntimeError('view_copy: %d elements cannot be viewed as %s' % (numel, sizes))
        return [numel // known if s == -1 else s for s in sizes]
    if known != numel:
        raise RuntimeError('view_copy: the sizes %s hold %d elements, the input %d' % (sizes, known, numel))
    return sizes


def reshape_view(t, sizes):
    """aten::view_copy's view: t's elements in row-major order with new sizes
    (reshape: torch's view refuses sizes a non-viewable t cannot take, view_copy
    copies them)."""
    return t.reshape(view_sizes(t.numel(), sizes))


)py";

// per-value layouts: copy_ between dtypes, clone(t, dim_order), the eager ops
extern const char* const kCloneAndEagerOps = R"py(def copy_(dst, src, copy_sizes_=copy_):
    """slicefuzz's copy_ never casts (aten's and ExecuTorch's do): dtypes must agree."""
    if dst.dtype != src.dtype:
        raise RuntimeError('copy_: dtypes differ (%s into %s; slicefuzz programs do not cast)'
                           % (src.dtype, dst.dtype))
    copy_sizes_(dst, src)


def clone(t, dim_order):
    """clone(t) keeps t's dim order (the exporter passes it); clone(t,
    dim_order=P) lays t out in P, which must be a permutation of t's dims
    (ExecuTorch's _clone_dim_order)."""
    if dim_order is not None and sorted(dim_order) != list(range(t.dim())):
        raise RuntimeError('clone: dim_order %s is not a permutation of 0..%d' % (dim_order, t.dim() - 1))
    return into(t, dim_order)


def view_slice(t, dim, start, end, step):
    """The eager op slice: a view sharing t's storage."""
    return slice_view(t, dim, start, end, step)


def view_select(t, dim, index):
    """The eager op select: a view sharing t's storage."""
    return torch.select(t, dim, index)


def add_out(t, k):
    """The eager op add (out of place); bool adds modulo 2, as add_."""
    out = t.clone()
    add_(out, k)
    return out


def mul_out(t, k):
    """The eager op mul by an integer: k cast to t's dtype as torch casts it, then
    torch's product in that dtype (bool: and)."""
    return torch.mul(t, torch.tensor(k, dtype=torch.int64).to(t.dtype))


def index_put_at(t, dim, index, values):
    """The eager op index_put with one index tensor at dim: indices = [None] * dim
    + [index], as torch.export writes `t[:, index] = values`."""
    r = t.dim()
    if r > 0 and not -r <= dim < r:
        raise IndexError('index_put: dim %d is out of range' % dim)
    nones = [None] * (dim % r if r > 0 else 0)
    return torch.ops.aten.index_put(t, nones + [torch.tensor(index, dtype=torch.int64)], values)

)py";

// replay, per-value layouts: canonical strides in a given dim order
extern const char* const kCanonicalStrides = R"py(

def canonical_strides(sizes, dim_order):
    """The strides of a fresh tensor of `sizes` in dim_order (a size-0 dim counts as
    1, as ExecuTorch's dim_order_to_stride does): what an alias prim op gives its
    alias. dim_order None: row-major."""
    if dim_order is None:
        dim_order = list(range(len(sizes)))
    strides, s = [0] * len(sizes), 1
    for d in reversed(dim_order):
        strides[d] = s
        s *= max(sizes[d], 1)
    return strides


)py";

// replay, per-value layouts: COPY_OPS, run_copy, reads
extern const char* const kRunCopy = R"py(COPY_OPS = {'slice_copy': slice_copy, 'squeeze_copy': squeeze_copy, 'view_copy': view_copy,
            'clone': clone}
COPY_OPS.update({kind: globals()[kind] for kind in SCHEMA_VIEWS})


def run_copy(op, cv):
    """One op with copy semantics on the dict of values cv. An op is (kind, the
    value it defines or mutates, its source, its arguments, the result's dim order)."""
    kind, name, src, args, dim_order = op
    if kind in COPY_OPS:
        cv[name] = COPY_OPS[kind](cv[src], *args, dim_order)
    elif kind == 'add_':
        add_(cv[name], *args)
    else:
        copy_(cv[name], cv[src])


def reads(kind, t, args):
    """The elements a view-copy op reads from t, as a torch view, in the order the
    result holds them: slice and the table's ops are views; squeeze and view keep
    t's elements in row-major order, only the sizes change."""
    if kind == 'slice_copy':
        return slice_view(t, *args)
    if kind in SCHEMA_VIEWS:
        return SCHEMA_VIEWS[kind](t, *args)
    return t


)py";

// replay, per-value layouts: the lockstep loop (every alias prim op)
extern const char* const kReplay = R"py(def replay():
    """Runs the program both ways in lockstep: copy semantics, and the rewrite as
    the arena holds it (one storage; each tensor at its planned offset, each alias
    at its root's offset plus its delta). Returns the problems found."""
    # The arena's bytes, seen as each dtype its values have (values of several
    # dtypes share it; every offset is a multiple of its value's element size).
    # Constants (version 4) are the program's bytes, not the arena's: they sit
    # past its end (CONSTANT_BYTES), where no planned tensor reaches.
    arena = torch.zeros(8 * max(1, -(-(ARENA_BYTES + CONSTANT_BYTES) // 8)), dtype=torch.uint8)
    typed, index = {}, {}
    problems, reported = [], set()

    def as_dtype(dtype):
        if dtype not in typed:
            typed[dtype] = arena.view(dtype)
            index[dtype] = torch.arange(typed[dtype].numel(), dtype=torch.int64)
        return typed[dtype]

    def at(sizes, offset_bytes, dim_order, dtype):
        es = torch.empty(0, dtype=dtype).element_size()
        return torch.as_strided(as_dtype(dtype), sizes, canonical_strides(sizes, dim_order), offset_bytes // es)

    def elements(t, root):
        """The arena elements t covers, counted from its root's first element."""
        as_dtype(t.dtype)
        e = torch.as_strided(index[t.dtype], t.shape, t.stride(), t.storage_offset()).flatten()
        return (e - PLACEMENT[root][1] // t.element_size()).tolist()

    def brief(xs):
        return str(xs[:8])[:-1] + (', ...]' if len(xs) > 8 else ']')

    cv, rv = {}, {}
    for name, (sizes, dim_order, dtype, first) in INPUTS.items():
        cv[name] = make_input(sizes, dim_order, dtype, first)
        rv[name] = at(sizes, PLACEMENT[name][1], dim_order, dtype)
        rv[name].copy_(cv[name])
    completed = True
    for k, op in enumerate(OPS):
        where = 'op %d `%s`' % (k, OP_TEXT[k])
        try:
            run_copy(op, cv)
        except Exception as e:
            print('%s raises with copy semantics (%s): compared up to it' % (where, str(e).splitlines()[0]))
            completed = False
            break
        kind, name, src, args, dim_order = op
        if kind in COPY_OPS:
            sizes = list(cv[name].shape)
            if name in ALIASED:
                prim = ALIASED[name]
                root, offset, nbytes = PLACEMENT[name][:3]
                delta, root_nbytes = offset - PLACEMENT[root][1], PLACEMENT[root][2]
                if delta < 0 or delta + nbytes > root_nbytes:
                    problems.append('%s: the %s alias %r covers bytes [%d, %d) of its root %r, '
                                    'which has %d bytes: it leaves its root'
                                    % (where, prim, name, delta, delta + nbytes, root, root_nbytes))
                    if offset < 0 or offset + nbytes > arena.numel():
                        completed = False
                        break
                alias = at(sizes, offset, dim_order, cv[name].dtype)
                es = alias.element_size()
                if name in EXECUTED_NBYTES and EXECUTED_NBYTES[name] != alias.numel() * es:
                    problems.append('%s: %s made the alias %r %d bytes long, but the view it stands '
                                    'for is %d bytes (sizes %s)' % (where, prim, name, EXECUTED_NBYTES[name],
                                                                   alias.numel() * es, sizes))
                view = reads(kind, rv[src], args)
                if alias.numel() > 0 and elements(alias, root) != elements(view, root):
                    problems.append('%s: the %s alias %r = as_strided(%r, %s, %s, +%d) covers '
                                    'elements %s of its root %r, but %s reads elements %s'
                                    % (where, prim, name, root, sizes, list(alias.stride()), delta // es,
                                       brief(elements(alias, root)), root, kind,
                                       brief(elements(view, root))))
                rv[name] = alias
            else:
                rv[name] = at(sizes, PLACEMENT[name][1], dim_order, cv[name].dtype)
                rv[name].copy_(COPY_OPS[kind](rv[src], *args, dim_order))
        elif kind == 'add_':
            add_(rv[name], *args)
        else:
            copy_(rv[name], rv[src])
)py";

// replay, per-value layouts: the outputs (every alias prim op named)
extern const char* const kReplayOutputs = R"py(    for name in CONSTANTS:
        if name in PLACEMENT and PLACEMENT[name][1] < ARENA_BYTES:
            problems.append('constant %r is planned in the arena at byte %d: a constant\'s bytes are '
                            'the program\'s, never the arena\'s (what the program loads is not '
                            'there, and an alias of it planned there reads arena memory)'
                            % (name, PLACEMENT[name][1]))
    for name in OUTPUTS:
        if completed:
            d = first_difference(rv[name], cv[name])
            if d is not None and name not in reported:
                problems.append('output %r holds %r at %s in the rewrite, copy semantics gives %r'
                                % (name, d[1], d[0], d[2]))
        if name in ALIASED:
            problems.append('output %r is an %s alias of %r: program outputs must stay '
                            'copies (the runtime may repoint output buffers, and a caller '
                            'writing its output would write %r)' % (name, ALIASED[name],
                                                                  PLACEMENT[name][0],
                                                                  PLACEMENT[name][0]))
)py";

}  // namespace slicefuzz::export_python_text
