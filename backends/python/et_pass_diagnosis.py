"""Which change of an et-* pipeline is to blame for a wrong result (the worker
protocol's `diagnose` verb). The system under test's side: it compares the
rewritten graph with the edge graph the passes started from, never with the
judge. A pipeline changes nodes two ways:
  in-place  a functional op made its in-place overload (relu -> relu_): reinplace
  alias     a `*_copy` view op made its aliasing view (slice_copy -> slice)
The diagnosis reverts one changed node at a time on a fresh run of the pipeline
and reruns the graph; a change whose reverting alone makes the first wrong result
(outputs in order, then the input's final value) the edge graph's is to blame: a
program with two root causes gets the one behind its first wrong result. When no
single revert fixes it (two instances of one cause that compound: each alone
already makes that result wrong), the other way round: the smallest set of
changes (one, then two) that alone, with every other change reverted, makes the
result wrong is to blame. The cause word names the passes, not where the value shows:
  alias-read-after-inplace-write:<alias pass>:<reinplace pass>
      reverting an alias fixes it and so does reverting an in-place write (the
      alias reads its base after the write: the probe of issue 36)
  inplace-write-through-alias:<alias pass>:<reinplace pass>
      the same two reverts fix it, and the write is into the alias itself (or an
      alias of it): the base changes under whoever reads it later
  <alias pass>:alias            only an alias is to blame
  <reinplace pass>:inplace-write-to-graph-output
      only an in-place write is, and it writes a value the graph returns
  <reinplace pass>:inplace-result-in-input-overwritten-by-write-back
      only an in-place write is, into a mutable program input: its result
      aliases the input, whose write-back of another value then changes it
  <reinplace pass>:inplace-write-read-later   the same, the value read later
  <reinplace pass>:inplace-write-of-its-own-operand
      only an in-place write is, and the op also reads the value it overwrites
      (index_put_(t, idx, t)): eager PyTorch refuses the overlap, a kernel
      without the check reads values it has already written
A rewritten graph that raises (where the edge graph runs) counts as every
result wrong.
"""
import torch

from slicefuzz_worker import fx_nodes_in


def _aten(target):
    """The aten OpOverload behind a node target (an edge op wraps it as `_op`; an
    OpOverload's own `_op` is its C++ builtin)."""
    return target if isinstance(target, torch._ops.OpOverload) else getattr(target, "_op", target)


def is_inplace(target):
    op = _aten(target)
    if not isinstance(op, torch._ops.OpOverload) or not op._schema.arguments:
        return False
    a = op._schema.arguments[0].alias_info
    return a is not None and a.is_write


def is_alias(target):
    op = _aten(target)
    return isinstance(op, torch._ops.OpOverload) and any(
        a.alias_info is not None and not a.alias_info.is_write for a in op._schema.arguments[:1])


def functional_of(target):
    """relu_ -> the edge relu of the same overload; slice -> aten slice_copy."""
    import et_torch113_shims as shims
    op = _aten(target)
    name = op._schema.name.split("::", 1)[1]
    base = name[:-1] if name.endswith("_") else name + "_copy"
    return getattr(getattr(shims.ops.edge.aten, base), op._overloadname)


def changed_nodes(ep):
    return [n.name for n in ep.graph.nodes if n.op == "call_function"
            and (is_inplace(n.target) or is_alias(n.target))]


def _alias_chain(node):
    """The node's name and those of the aliases it is a view of, up to its root."""
    names = []
    while isinstance(node, torch.fx.Node):
        names.append(node.name)
        if not (node.op == "call_function" and is_alias(node.target)):
            break
        node = node.args[0]
    return names


class Raised:
    """A result in place of a graph's outputs: running the graph raised."""
    def __init__(self, e):
        self.message = "%s: %s" % (type(e).__name__, e)


def equal(x, y):
    if isinstance(x, Raised) or isinstance(y, Raised):
        return False
    return x.shape == y.shape and x.dtype == y.dtype and torch.equal(x, y)


def first_wrong(got, expected):
    """The index of the first result (outputs, then the input's final value) that
    differs from the edge graph's, or None."""
    for i, (x, y) in enumerate(zip(got, expected)):
        if not equal(x, y):
            return i
    return None if len(got) == len(expected) else min(len(got), len(expected))


def diagnose(build, prefixes, run, x_like, alias_pass, reinplace_pass):
    """build() -> (ep, n_mutations); prefixes: the pipeline's prefixes in order,
    each ep -> ep, the last the whole pipeline; run(ep, n, x) -> outputs.
    The first prefix that makes a result wrong is diagnosed: a later pass is not
    to blame for a program an earlier one already broke. Returns (cause or None,
    text lines)."""
    def result(ep, n):
        xi = x_like()
        try:
            outs = run(ep, n, xi)
        except RuntimeError as e:  # the rewritten graph raised: every result is wrong
            return [Raised(e)] * (len(expected) if expected else 1)
        return list(outs) + [xi]

    expected = None

    ep0, n = build()
    expected = result(ep0, n)
    for k, passes in enumerate(prefixes):
        ep, n = build()
        ep = passes(ep)
        wrong = first_wrong(result(ep, n), expected)
        if wrong is not None:
            break
    if wrong is None:
        return None, ["the rewritten graph gives the edge graph's result here"]
    # One root cause per diagnosis: the one behind the first wrong result (a
    # program can hold two, each fixed only by reverting its own change).
    names = changed_nodes(ep)
    lines = ["first wrong after stage %d of %d" % (k + 1, len(prefixes)),
             "first wrong result: %d (outputs in order, then the input)" % wrong,
             "changed nodes: " + (", ".join(names) or "none")]
    fixes = {"alias": [], "inplace": []}

    def kind_of(node):
        return "inplace" if is_inplace(node.target) else "alias"
    for name in names:
        ep1, n1 = build()
        ep1 = passes(ep1)
        node = next(m for m in ep1.graph.nodes if m.name == name)
        kind = kind_of(node)
        node.target = functional_of(node.target)
        got = result(ep1, n1)
        ok = wrong < len(got) and equal(got[wrong], expected[wrong])
        lines.append("reverting %s (%s) %s" % (name, kind, "gives the edge graph's result" if ok else "does not fix it"))
        if ok:
            fixes[kind].append(node)
    if not fixes["alias"] and not fixes["inplace"]:
        culprits = _smallest_breaking_set(build, passes, result, names, wrong, expected, lines)
        for node in culprits:
            fixes[kind_of(node)].append(node)
    return _cause(fixes, alias_pass, reinplace_pass, lines)


def _smallest_breaking_set(build, passes, result, names, wrong, expected, lines):
    """The nodes of the first set of changes (singletons, then pairs, in graph
    order) that alone make result `wrong` differ, every other change reverted;
    [] when none does."""
    import itertools
    for size in (1, 2):
        for keep in itertools.combinations(names, size):
            ep1, n1 = build()
            ep1 = passes(ep1)
            kept = []
            for node in ep1.graph.nodes:
                if node.name in names and node.name not in keep:
                    node.target = functional_of(node.target)
                elif node.name in keep:
                    kept.append(node)
            got = result(ep1, n1)
            if wrong >= len(got) or not equal(got[wrong], expected[wrong]):
                lines.append("keeping only %s (every other change reverted) makes it wrong" % ", ".join(keep))
                return kept
    return []


def _cause(fixes, alias_pass, reinplace_pass, lines):
    if fixes["alias"] and fixes["inplace"]:
        # Which way the write goes: into the alias (or an alias of it), so its base
        # changes (rule 3 of the design: an alias is never written), or into the
        # base while the alias is still to be read (rule 4).
        aliases = {n.name for n in fixes["alias"]}
        through = any(name in aliases for w in fixes["inplace"] for name in _alias_chain(w.args[0]))
        word = "inplace-write-through-alias" if through else "alias-read-after-inplace-write"
        return "%s:%s:%s" % (word, alias_pass, reinplace_pass), lines
    if fixes["alias"]:
        return "%s:alias" % alias_pass, lines
    if fixes["inplace"]:
        node = fixes["inplace"][0]
        out = next(m for m in node.graph.nodes if m.op == "output")
        written = node.args[0]
        if written in fx_nodes_in(node.args[1:]):
            why = "inplace-write-of-its-own-operand"  # the op reads what it overwrites
        elif written in out.all_input_nodes:
            why = "inplace-write-to-graph-output"
        elif written.op == "placeholder":  # its result aliases the input; the write-back then changes it
            why = "inplace-result-in-input-overwritten-by-write-back"
        else:
            why = "inplace-write-read-later"
        return "%s:%s" % (reinplace_pass, why), lines
    return None, lines + ["no single change explains it"]
