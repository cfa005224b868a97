"""Stand-ins for what ExecuTorch's Python passes import and Debian's torch 1.13 (or
the partial ExecuTorch tree) lacks. The upstream pass files themselves are never
copied or edited: et_upstream_loader.py loads them from the ExecuTorch tree it is
given, and these modules answer their imports. Each shim names the upstream
symbol it stands for and keeps to that symbol's documented behaviour; nothing
here decides whether a rewrite is safe.

Read against pytorch/executorch cff6f4dd32 (the snapshot) and the native
delegate's commits in ../shared/native-delegate/README.md; torch's own symbols
against torch/_ops.py and torch/_guards.py of torch 2.x (upstream's torch).
"""
import collections
import types

import torch
from torch.fx.passes.infra.pass_base import PassBase, PassResult as _FxPassResult

# ---------------------------------------------------------------------------
# torch symbols torch 1.13 does not have.
# ---------------------------------------------------------------------------


def op_overload_is_view(op):
    """torch._ops.OpOverload.is_view (torch 2.x, OpOverload.__init__, "logic
    replicated from aten/src/ATen/native/MathBitsFallback.h"): an op is a view when
    some argument has alias info and none of them writes. torch 1.13's OpOverload
    has no is_view, so AOTI's `getattr(target, "is_view", False)` would always read
    False and its view-user check would never fire."""
    is_write = None
    for a in op._schema.arguments:
        if a.alias_info is None:
            continue
        is_write = a.alias_info.is_write if is_write is None else (a.alias_info.is_write or is_write)
    return is_write is not None and not is_write


def detect_fake_mode(inputs=None):
    """torch._guards.detect_fake_mode (torch 2.x): the FakeTensorMode of the fake
    tensors among `inputs` (flattened), or None when there are none."""
    from torch._subclasses.fake_tensor import FakeTensor
    from torch.utils._pytree import tree_flatten

    flat, _ = tree_flatten(inputs if inputs is not None else [])
    for v in flat:
        if isinstance(v, FakeTensor):
            return v.fake_mode
    return None


def statically_known_true(x):
    """torch.fx.experimental.symbolic_shapes.statically_known_true (torch 2.x):
    True only when x is provably true without adding a guard. The graphs here have
    static shapes, so a plain bool is the whole answer; anything symbolic is not
    known."""
    return x if isinstance(x, bool) else False


class ExportedProgram:
    """torch.export.ExportedProgram (torch 2.x), the parts the passes read: the
    graph module, its graph and the graph signature."""

    def __init__(self, graph_module, graph_signature):
        self.graph_module = graph_module
        self.graph_signature = graph_signature

    @property
    def graph(self):
        return self.graph_module.graph


class ArgumentSpec:
    """torch.export.graph_signature's TensorArgument: a node's name."""

    def __init__(self, name):
        self.name = name


class OutputSpec:
    """torch.export.graph_signature.OutputSpec: kind and the argument it names."""

    def __init__(self, kind, name, target=None):
        self.kind = kind
        self.arg = ArgumentSpec(name)
        self.target = target


class ExportGraphSignature:
    """torch.export.ExportGraphSignature (torch 2.x), the fields reinplace_pass
    reads: user_inputs_to_mutate (output name -> input name), inputs_to_buffers
    (placeholder -> buffer FQN), buffers_to_mutate (output name -> buffer FQN),
    output_specs."""

    def __init__(self, user_inputs_to_mutate=None, inputs_to_buffers=None, buffers_to_mutate=None,
                 output_specs=None):
        self.user_inputs_to_mutate = dict(user_inputs_to_mutate or {})
        self.inputs_to_buffers = dict(inputs_to_buffers or {})
        self.buffers_to_mutate = dict(buffers_to_mutate or {})
        self.output_specs = list(output_specs or [])


# ---------------------------------------------------------------------------
# executorch modules the snapshot does not hold (or that need torch 2.x).
# ---------------------------------------------------------------------------


class EdgeOpOverload:
    """executorch.exir.dialects.edge._ops.EdgeOpOverload: an edge-dialect op that
    wraps an aten OpOverload as `_op`, is called as it, and answers every other
    attribute from it (upstream's __getattr__ does the same: `is_view`, `_schema`,
    `overloads`). Upstream's `_schema` is an EdgeDialectFunctionSchema whose
    name, arguments and returns are the aten schema's; here it is that schema."""

    def __init__(self, op):
        self._op = op
        self._schema = op._schema
        self.__name__ = "edge." + op.__name__

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name == "is_view":
            return op_overload_is_view(self._op)
        return getattr(self._op, name)

    def __call__(self, *args, **kwargs):
        return self._op(*args, **kwargs)

    def __repr__(self):
        return "<EdgeOpOverload: %s>" % self.__name__

    __str__ = __repr__


class _EdgePacket:
    """executorch.exir.dialects.edge._ops.EdgeOpOverloadPacket: `.overload` gives
    the one cached EdgeOpOverload of that aten overload (node targets and
    reinplace's op set compare by identity); an unknown overload is an
    AttributeError, as upstream."""

    def __init__(self, aten_packet):
        self._packet = aten_packet
        self._cache = {}

    def __getattr__(self, key):
        if key.startswith("__"):
            raise AttributeError(key)
        if key not in self._cache:
            try:
                self._cache[key] = EdgeOpOverload(getattr(self._packet, key))
            except (AttributeError, RuntimeError):
                raise AttributeError("The underlying op of '%s' has no overload name '%s'" % (self._packet, key)) from None
        return self._cache[key]


class _EdgeNamespace:
    def __init__(self):
        self._packets = {}

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name not in self._packets:
            try:
                packet = getattr(torch.ops.aten, name)
            except (AttributeError, RuntimeError):  # torch 1.13 raises RuntimeError
                raise AttributeError("edge.aten has no op %s" % name) from None
            self._packets[name] = _EdgePacket(packet)
        return self._packets[name]


# executorch.exir.dialects._ops.ops: `ops.edge.aten.<op>.<overload>`.
ops = types.SimpleNamespace(edge=types.SimpleNamespace(aten=_EdgeNamespace()))


def edge_op(aten_overload):
    """The edge op of an aten OpOverload (what to_edge puts in node targets)."""
    packet = getattr(ops.edge.aten, aten_overload._schema.name.split("::", 1)[1])
    return getattr(packet, aten_overload._overloadname)


class ExportPass(PassBase):
    """executorch.exir.pass_base.ExportPass. Upstream's default `call` retraces
    the graph through an interpreter; every pass loaded here overrides `call`, so
    only PassBase's __call__ (requires, call, ensures) is used."""

    def call(self, graph_module):
        return PassResult(graph_module, False)


PassResult = _FxPassResult  # executorch.exir.pass_base.PassResult is torch.fx's

ExportedProgramPassResult = collections.namedtuple("ExportedProgramPassResult",
                                                   ["exported_program", "modified"])


class ExportedProgramPassBase:
    """executorch.exir.pass_base.ExportedProgramPassBase: a pass over a whole
    ExportedProgram; __call__ runs `call(ep)`."""

    def __call__(self, exported_program):
        return self.call(exported_program)


class CollapseViewCopyPass(ExportPass):
    """executorch.backends.transforms.collapse_view_copy.CollapseViewCopyPass is
    not in the snapshot. Upstream it collapses a chain of view_copy ops into one
    view_copy; here it is the identity, so such a chain stays a chain (each link
    still a view_copy that the alias pass may turn into a view). README,
    "ExecuTorch's Python passes", lists it as a fidelity gap."""


def graph_serialize_dim_order(t):
    """executorch.backends.native.serialization.graph_serialize._dim_order (commit
    09387db102, by its docstring, ../shared/native-delegate/README.md): the axes
    sorted outer-to-inner by stride; ValueError when the strides are not the ones
    that the sizes and that dim order reconstruct (size-1 dims ignored):
    sliced/as_strided, broadcast or overlapping layouts."""
    sizes, strides = list(t.shape), list(t.stride())
    order = sorted(range(len(sizes)), key=lambda d: -strides[d])
    expected, running = [0] * len(sizes), 1
    for d in reversed(order):
        expected[d] = running
        running *= max(sizes[d], 1)
    for d in range(len(sizes)):
        if sizes[d] != 1 and strides[d] != expected[d]:
            raise ValueError("sliced/as_strided, broadcast or overlapping layout: sizes %s strides %s"
                             % (sizes, strides))
    return order


def internal_module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    m.__slicefuzz_shim__ = True
    return m


def shim_modules():
    """Module name -> module object for every shimmed import (the loader puts
    these in sys.modules before any upstream file runs)."""
    import torch.fx.experimental.symbolic_shapes as symbolic_shapes

    if not hasattr(symbolic_shapes, "statically_known_true"):
        symbolic_shapes.statically_known_true = statically_known_true
    mods = {}
    if not _has_module("torch._guards"):
        mods["torch._guards"] = internal_module("torch._guards", detect_fake_mode=detect_fake_mode)
    if not _has_module("torch.export"):
        mods["torch.export"] = internal_module("torch.export", ExportedProgram=ExportedProgram)
    mods["executorch.exir.dialects._ops"] = internal_module("executorch.exir.dialects._ops", ops=ops)
    mods["executorch.exir.dialects.edge._ops"] = internal_module("executorch.exir.dialects.edge._ops",
                                                                 EdgeOpOverload=EdgeOpOverload)
    mods["executorch.exir.pass_base"] = internal_module(
        "executorch.exir.pass_base", ExportPass=ExportPass, PassResult=PassResult,
        ExportedProgramPassBase=ExportedProgramPassBase,
        ExportedProgramPassResult=ExportedProgramPassResult)
    mods["executorch.backends.transforms.collapse_view_copy"] = internal_module(
        "executorch.backends.transforms.collapse_view_copy", CollapseViewCopyPass=CollapseViewCopyPass)
    mods["executorch.backends.native.serialization.graph_serialize"] = internal_module(
        "executorch.backends.native.serialization.graph_serialize", _dim_order=graph_serialize_dim_order)
    return mods


def _has_module(name):
    import importlib.util
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def install_op_overload_is_view():
    """OpOverload.is_view for plain aten targets (the AOTI pass sees aten ops once
    a pass before it has rewritten a target)."""
    if not hasattr(torch._ops.OpOverload, "is_view"):
        torch._ops.OpOverload.is_view = property(op_overload_is_view)
