"""What torch.fx.passes.reinplace changed in a graph, and which change is to blame
for a wrong result (the worker protocol's `diagnose` verb, README "Out-of-process
backends"). This is the system under test's side: it knows the pass, not the
judge. Nothing here decides whether a result is right; it compares the
reinplaced graph with the functional graph the pass started from.

A change is one of (graph order, named by the functional graph's node):
  inplace          a functional node the pass turned into its in-place overload
                   (`aten.add.Tensor -> aten.add_.Tensor`); its later users read
                   its self argument instead
  deleted-scatter  a view-inverse scatter (slice_scatter, select_scatter, ...) the
                   pass deleted as the inverse of an in-place op; its users read
                   the scatter's base instead
  scatter-to-copy  a scatter the pass rewrote as `view(base).copy_(src)`
The diagnosis undoes one change at a time on the reinplaced graph and reruns it:
the change whose undoing alone makes the result equal to the functional graph's
is to blame (a scatter change over an in-place one when both do: see diagnose). Its cause word is `reinplace-<change>:<functional op>`, e.g.
`reinplace-inplace:add`, `reinplace-deleted-scatter:slice_scatter`.

Before undoing changes, the diagnosis asks which check the pass is missing: it
reruns torch.fx.passes.reinplace with one candidate check added to
`_get_view_inverse_node_usages` (the function that decides which later scatter is
the "view inverse" of an in-place op and may be deleted), and a check whose
addition alone gives the functional graph's result names the root cause, as one
word per missing check, whatever op the wrong value surfaces at:
  reinplace-inverse-scatter:other-value  the scatter writes back a value other
      than the node being reinplaced (torch 1.13 matches the scatter by view
      metadata only and never looks at its source, `n.args[1]`)
  reinplace-inverse-scatter:other-view   the scatter writes back the reinplaced
      node, but into another view of the same storage: the metadata is matched
      against any alias of the self argument's storage, not against the self
      argument's own view
  reinplace-self-overlap:aliased-operand  an op is reinplaced although another
      of its arguments is a view of its self argument (index_put(t, idx,
      select(t))): Step 1c of reinplace refuses only the self argument passed
      twice (`x is self_arg`), not an alias of it; eager PyTorch refuses the
      in-place op's overlap, so the reinplaced graph raises
  reinplace-alias-sets:copied-not-merged  a reinplace decision misses a reader
      of its self argument's storage: `storage_to_nodes` joins the alias sets of
      two storages by copying each into the other once (`.update`), so an alias
      added to one set later (the users of a deleted view-inverse scatter,
      rewired to its base) never reaches the other
Only where no candidate check explains the result does the change-undoing
diagnosis below give the word. A reinplaced graph that raises (where the
functional graph runs) differs in every result.
"""
import sys
import copy

import torch
import torch.fx.passes.reinplace as reinplace_module
from torch.fx import Node
from torch.fx.passes.reinplace import _VIEW_INVERSE_MAP

from slicefuzz_worker import fx_nodes_in


def op_name(target):
    """`aten.slice_scatter.default` -> slice_scatter (the op, without overload)."""
    return getattr(target, "__name__", str(target)).split(".")[0]


def target_text(target):
    return str(target).replace("torch.ops.", "").replace("<OpOverload(op='", "").split("'")[0]


def graph_changes(gm0, gm1):
    """[(kind, node name, op, words)] in gm0's node order: what turned gm0 into gm1."""
    nodes1 = {n.name: n for n in gm1.graph.nodes}
    old = {n.name for n in gm0.graph.nodes}
    new_copies = [n for n in gm1.graph.nodes if n.name not in old and n.op == "call_function"
                  and n.target == torch.ops.aten.copy_.default]
    changes = []
    for n in gm0.graph.nodes:
        if n.op != "call_function":
            continue
        m = nodes1.get(n.name)
        if m is not None and m.target != n.target:
            changes.append(("inplace", n.name, op_name(n.target), "%s: %s -> %s" % (
                n.name, target_text(n.target), target_text(m.target))))
        elif m is None and n.target in _VIEW_INVERSE_MAP:
            src = n.args[1].name if isinstance(n.args[1], Node) else None
            into = [c for c in new_copies if isinstance(c.args[1], Node) and c.args[1].name == src]
            kind = "scatter-to-copy" if into else "deleted-scatter"
            changes.append((kind, n.name, op_name(n.target), "%s: %s%s" % (
                n.name, target_text(n.target), " -> view + copy_" if into else " deleted")))
        elif m is None:
            changes.append(("deleted", n.name, op_name(n.target), "%s: %s deleted" % (n.name, target_text(n.target))))
    return changes


def _restore_args(args1, args0, nodes):
    """args1 with every argument gm0 gave as a node that gm also has pointing at it
    again (the pass rewired the users of a reinplaced node to its self argument,
    which is the very tensor the in-place op returns: the same value)."""
    if isinstance(args0, Node):
        return nodes.get(args0.name, args1)
    if isinstance(args0, (list, tuple)) and isinstance(args1, (list, tuple)) and len(args0) == len(args1):
        return type(args1)(_restore_args(a1, a0, nodes) for a1, a0 in zip(args1, args0))
    if isinstance(args0, dict) and isinstance(args1, dict):
        return {k: _restore_args(args1[k], args0.get(k), nodes) for k in args1}
    return args1


def _unrewire(gm0, gm, nodes):
    """Every node of gm reads its arguments as gm0 did, where `nodes` (name -> node
    of gm) has them; deleted nodes stay replaced by what the pass chose."""
    nodes0 = {n.name: n for n in gm0.graph.nodes}
    renamed = {id(n) for k, n in nodes.items() if n.name != k}  # a restored scatter
    for u in gm.graph.nodes:
        u0 = nodes0.get(u.name)
        if u0 is None or u.op == "placeholder" or id(u) in renamed:
            continue
        u.args = _restore_args(u.args, u0.args, nodes)
        u.kwargs = _restore_args(u.kwargs, u0.kwargs, nodes)


def undo(gm0, gm1, change, more=()):
    """A copy of gm1 with that change (and the scatter changes in `more`) undone;
    None when it cannot be."""
    gm = copy.deepcopy(gm1)
    nodes0 = {n.name: n for n in gm0.graph.nodes}
    nodes = {n.name: n for n in gm.graph.nodes}
    for kind, name, _, _ in [change] + list(more):
        if not _undo_one(gm0, gm, nodes0, nodes, kind, name):
            return None
    # The users the pass rewired to a self argument read the in-place node again
    # (the same tensor), so that undoing a scatter reaches the in-place ops after it.
    _unrewire(gm0, gm, nodes)
    gm.recompile()
    return gm


def _undo_one(gm0, gm, nodes0, nodes, kind, name):
    n0 = nodes0.get(name)
    if kind == "inplace":
        nodes[name].target = n0.target
    elif kind in ("deleted-scatter", "scatter-to-copy"):
        def resolve(a):  # a gm0 argument, as gm1 reads it: a deleted node reads its base
            if not isinstance(a, Node):
                return a
            if a.name in nodes:
                return nodes[a.name]
            return resolve(a.args[0]) if a.op == "call_function" and a.args else None
        args = tuple(resolve(a) for a in n0.args)
        if any(isinstance(b, Node) and a is None for a, b in zip(args, n0.args)):
            return False
        if kind == "scatter-to-copy":  # drop the pass's view + copy_ of this scatter
            for c in [c for c in gm.graph.nodes if c.name not in nodes0 and c.op == "call_function"
                      and c.target == torch.ops.aten.copy_.default and isinstance(c.args[1], Node)
                      and c.args[1].name == n0.args[1].name]:
                view = c.args[0]
                gm.graph.erase_node(c)
                if isinstance(view, Node) and view.name not in nodes0 and not view.users:
                    gm.graph.erase_node(view)
        later = [n for n in list(gm0.graph.nodes)[list(gm0.graph.nodes).index(n0) + 1:] if n.name in nodes]
        if not later:
            return False
        with gm.graph.inserting_before(nodes[later[0].name]):
            restored = gm.graph.create_node("call_function", n0.target, args, dict(n0.kwargs))
        nodes[name] = restored
    elif kind != "none":
        return False
    return True


def run_bytes(gm, x, copy_like):
    """Everything the graph produces (its results and the input's final value), as bytes."""
    xi = copy_like(x)
    results = gm(xi)
    flat = list(results) if isinstance(results, (list, tuple)) else [results]
    out = []
    for t in flat + [xi]:
        # A fresh 1-d tensor: contiguous() keeps odd strides of size-1 dims, which
        # view(uint8) refuses for 2-byte dtypes.
        flat1 = torch.empty(t.numel(), dtype=t.dtype).copy_(t.detach().reshape(-1))
        out.append((t.dtype, tuple(t.shape), flat1.view(torch.uint8).numpy().tobytes() if t.numel() else b""))
    return out


def _same_metadata(a, b):
    return a.size() == b.size() and a.stride() == b.stride() and a.storage_offset() == b.storage_offset()


def _inverts_self_chain(scatter, self_arg):
    """Whether `scatter` is the inverse of the view self_arg is, or of a view that
    self_arg is taken from (an outer scatter of a chain), by the pass's own test
    (replay the view on the alias's base, compare metadata) applied to those
    aliases only."""
    original_view = _VIEW_INVERSE_MAP[scatter.target]
    alias, seen = self_arg, set()
    while isinstance(alias, Node) and "view_of" in alias.meta and id(alias) not in seen:
        seen.add(id(alias))
        base = alias.meta["view_of"]
        try:
            replay = original_view(base.meta["fake_result"], *scatter.args[2:], **scatter.kwargs)
            if _same_metadata(base.meta["fake_result"], scatter.args[0].meta["fake_result"]) and \
                    _same_metadata(replay, alias.meta["fake_result"]):
                return True
        except Exception:
            pass
        alias = base
    return False


def _with_check(which):
    """`_get_view_inverse_node_usages` with scatter check `which` (0: the source,
    1: the view) added: the pass's own answer, minus the scatters the check
    refuses. The node being reinplaced is the caller's local `node` (reinplace's
    loop variable; torch 1.13, torch/fx/passes/reinplace.py)."""
    original = reinplace_module._get_view_inverse_node_usages

    def checked(later_node_usages, self_aliases):
        found = original(later_node_usages, self_aliases)
        node = sys._getframe(1).f_locals.get("node")
        if not isinstance(node, Node):
            return found
        kept = set()
        for n in sorted(found, key=lambda m: m.meta["node_idx"]):
            if which == 0 and not (n.args[1] is node or n.args[1] in kept):
                continue
            if which == 1 and not _inverts_self_chain(n, node.args[0]):
                continue
            kept.add(n)
        return kept
    return original, checked


class _Refused:
    """A later use no scatter inverts: it makes reinplace's Step 2 refuse the node."""
    target = None
    meta = {"node_idx": -1}


def _refusing_aliased_operands():
    """`_get_all_later_node_usages` that also reports a use when another argument of
    the node being reinplaced (reinplace's local `node`) aliases its self argument,
    the overlap Step 1c misses."""
    original = reinplace_module._get_all_later_node_usages

    def checked(tensor_aliases, op_index):
        found = original(tensor_aliases, op_index)
        node = sys._getframe(1).f_locals.get("node")
        if isinstance(node, Node) and node.args and any(
                a in tensor_aliases for a in fx_nodes_in(node.args[1:]) + fx_nodes_in(node.kwargs)):
            found = set(found) | {_Refused()}
        return found
    return "_get_all_later_node_usages", original, checked


class _AliasGroup(set):
    """One alias set shared by every storage joined to it: `update` with another
    group merges the two and repoints that group's storages here."""
    def __init__(self, owner, key):
        super().__init__()
        self.owner, self.keys = owner, {key}

    def update(self, other):
        set.update(self, other)
        if isinstance(other, _AliasGroup) and other is not self:
            for k in other.keys:
                dict.__setitem__(self.owner, k, self)
            self.keys |= other.keys


class _SharedAliasSets(dict):
    """`defaultdict(set)` as reinplace builds `storage_to_nodes` (the module's only
    defaultdict), its sets shared once joined."""
    def __init__(self, _factory):
        super().__init__()

    def __missing__(self, key):
        group = _AliasGroup(self, key)
        dict.__setitem__(self, key, group)
        return group


def _scatter_check(which):
    """The patch for candidate check `which` of _with_check (0: the scatter's
    source, 1: the scatter's view)."""
    def patch():
        original, checked = _with_check(which)
        return "_get_view_inverse_node_usages", original, checked
    return patch


def _shared_alias_sets():
    return "defaultdict", reinplace_module.defaultdict, _SharedAliasSets


# The candidate checks, in the order the diagnosis tries them: (cause word, what
# the check requires, the patch of torch.fx.passes.reinplace that adds it: a
# function giving (module attribute, original, replacement)).
MISSING_CHECKS = (
    ("reinplace-inverse-scatter:other-value",
     "a deleted scatter writes back the reinplaced node (or a scatter of it already accepted: a view chain)",
     _scatter_check(0)),
    ("reinplace-inverse-scatter:other-view",
     "a deleted scatter inverts the reinplaced node's own self argument (or a view that self argument is taken from)",
     _scatter_check(1)),
    ("reinplace-self-overlap:aliased-operand",
     "no argument of a reinplaced node but its self argument is an alias of the self argument's storage",
     _refusing_aliased_operands),
    ("reinplace-alias-sets:copied-not-merged",
     "the alias sets of two storages a reinplacement joins stay one set",
     _shared_alias_sets),
)


def rerun_with_check(gm0, x, copy_like, which):
    """The reinplaced graph torch.fx.passes.reinplace makes of gm0 with candidate
    check `which` added."""
    name, original, replacement = MISSING_CHECKS[which][2]()
    setattr(reinplace_module, name, replacement)
    try:
        return reinplace_module.reinplace(copy.deepcopy(gm0), copy_like(x))
    finally:
        setattr(reinplace_module, name, original)


def missing_check(gm0, x, copy_like, want):
    """(cause word or None, text lines): the first candidate check whose addition
    alone gives the functional graph's result."""
    lines = []
    for i, (word, requirement, _) in enumerate(MISSING_CHECKS):
        try:
            fixed = run_bytes(rerun_with_check(gm0, x, copy_like, i), x, copy_like) == want
        except Exception as e:  # the pass or the graph cannot take it: no verdict on it
            lines.append("with the check '%s': failed (%s)" % (requirement, type(e).__name__))
            continue
        lines.append("with the check '%s': %s" % (
            requirement, "the result agrees with the functional graph" if fixed else "still differs"))
        if fixed:
            return word, lines
    return None, lines


def diagnose(gm0, gm1, x, copy_like):
    """(cause word or None, text lines): the changes and which one is to blame."""
    changes = graph_changes(gm0, gm1)
    lines = ["change %s %s" % (c[0], c[3]) for c in changes] or ["the pass changed nothing"]
    want = run_bytes(gm0, x, copy_like)
    try:
        got = run_bytes(gm1, x, copy_like)
    except RuntimeError as e:  # the reinplaced graph raised: every result differs
        got = "raised"
        lines.append("the reinplaced graph raises: %s" % " ".join(str(e).split())[:300])
    if got == want:
        return None, lines + ["the reinplaced graph agrees with the functional graph: no change of the pass to blame"]
    cause, check_lines = missing_check(gm0, x, copy_like, want)
    lines += check_lines
    if cause:
        return cause, lines
    def outcome(gm):  # what run_bytes gives, or "raised"
        try:
            return run_bytes(gm, x, copy_like)
        except RuntimeError:
            return "raised"
    if outcome(undo(gm0, gm1, ("none", None, None, None))) != got:
        return None, lines + ["reading the in-place nodes instead of their self arguments changes the result: "
                              "no undo is faithful"]
    blamed = []
    for c in changes:
        try:
            gm = undo(gm0, gm1, c)
            fixed = gm is not None and outcome(gm) == want
        except Exception as e:  # an undo the graph cannot take: no verdict on it
            lines.append("undo %s %s: failed (%s)" % (c[0], c[1], type(e).__name__))
            continue
        lines.append("undo %s %s: %s" % (c[0], c[1], "the result agrees with the functional graph"
                                         if fixed else "still differs"))
        if fixed:
            blamed.append(c)
    # A scatter is only deleted as part of an in-place change: when undoing the
    # deletion alone fixes the result, the in-place op was right given the
    # scatter, and undoing that op "fixes" it only because nothing then needs the
    # scatter. So a scatter change that fixes it is the more specific culprit.
    scatters = [c for c in blamed if c[0] != "inplace"]
    if len(scatters) == 1 or (not scatters and len(blamed) == 1):
        culprit = scatters[0] if scatters else blamed[0]
        return "reinplace-%s:%s" % (culprit[0], culprit[2]), lines
    if not blamed:
        # A write through a chain of views comes back through a chain of scatters
        # (select_scatter inside slice_scatter): undo a deleted scatter with the
        # deleted scatter that carries it to the base, and name the inner one (the
        # scatter of the written value; the outer one only carries it).
        deleted = {c[1]: c for c in changes if c[0] == "deleted-scatter"}
        nodes0 = {n.name: n for n in gm0.graph.nodes}
        for outer in deleted.values():
            inner = nodes0[outer[1]].args[1]
            if not isinstance(inner, Node) or inner.name not in deleted:
                continue
            try:
                gm = undo(gm0, gm1, deleted[inner.name], [outer])
                fixed = gm is not None and outcome(gm) == want
            except Exception:
                fixed = False
            lines.append("undo deleted-scatter %s with %s: %s" % (inner.name, outer[1], "the result agrees with "
                         "the functional graph" if fixed else "still differs"))
            if fixed:
                blamed.append(deleted[inner.name])
        if len(blamed) == 1:
            return "reinplace-%s:%s" % (blamed[0][0], blamed[0][2]), lines
    lines.append("%d changes alone fix the result: no single change to blame" % len(blamed))
    return None, lines
