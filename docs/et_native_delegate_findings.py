#!/usr/bin/python3
"""Eight wrong programs from ExecuTorch's shipped passes, standalone: torch 1.13
and the upstream files only (no slicefuzz code). Found by slicefuzz's
et-native-delegate and et-exir-reinplace backends (docs/executorch.md,
"ExecuTorch's Python passes"). Programs 1-5 run the native delegate's passes,
programs 6 to 8 exir's reinplace_pass alone with its default op set. Exit 0 when
all eight reproduce, 1 otherwise.

1. slice_after_relu: ReplaceCopyWithAliasPass aliases a slice whose base a later
   in-place relu (made by NativeReinplacePass) overwrites; the slice then reads
   relu's values.
2. relu_of_an_output: exir's reinplace_pass (run by NativeReinplacePass) makes
   relu(f) into relu_(f) although f is returned: its liveness walk never counts
   the output node as a use (reinplace.py at cff6f4dd, reinplace_pass: only
   call_function nodes add their inputs to seen_nodes), so output 1 becomes
   relu(f).
3. relu_into_a_mutated_input: reinplace_pass makes relu(x) into relu_(x) on a
   program input the program writes (a mutable user input may be reinplaced);
   relu_'s result is then x's storage, and the write-back of x's new value at
   the end changes the returned relu value. (The output index printed last is
   the input's final value.)
4. relu_of_a_slice: NativeReinplacePass makes relu(c) into relu_(c) (c is read by
   nothing after it), and ReplaceCopyWithAliasPass then makes c = slice_copy(t)
   an alias of t (c's only user is relu_, no graph output): relu_ now writes
   through the alias into t, which the graph returns. The alias pass never asks
   whether the alias itself is written in place.
5. slice_after_index_copy: program 1's root cause with the KV cache's update in
   place of relu: NativeReinplacePass makes index_copy(cache, 0, pos, k) into
   index_copy_ (nothing after it reads cache), ReplaceCopyWithAliasPass makes the
   slice of cache taken before it an alias; the slice then reads the new row.
6. index_put_of_an_output: program 2's root cause reached through exir's
   reinplace_pass with its default op set ({index_put}, what
   to_executorch(ExecutorchBackendConfig(run_reinplace_pass=True)) runs):
   `t = x - 7; c = t.index_put([None, pos], k); return c, t` gets
   index_put_(t), so output t holds the written column.
7. index_put_of_itself: reinplace_pass makes index_put(t, [idx], t) into
   index_put_(t, [idx], t): `_is_safe_to_reinplace` asks whether a later node
   reads t, never whether the op itself reads t through another argument. The
   in-place op then reads the rows it overwrites; PyTorch refuses it ("some
   elements of the input tensor and the written-to tensor refer to a single
   memory location"), where the functional program ran.
8. index_put_into_a_mutated_input: program 3's root cause reached through exir's
   reinplace_pass with its default op set: `c = x.index_put([idx], x[:2]);
   x.copy_(c - 100); return c` gets index_put_(x) (x is a mutable user input and
   nothing after the op reads it), so c is x's storage and the write-back of x's
   new value at the end makes the returned c equal c - 100.

  /usr/bin/python3 docs/et_native_delegate_findings.py EXECUTORCH_SRC NATIVE_DELEGATE_TREE
  (here: ../shared/executorch ../shared/native-delegate)

Program 1's eager code, which torch.export + to_edge turn into the graph printed:
    t = a + b            (here: x - 7, one input)
    s = t[:2]            -> slice_copy(t, 0, 0, 2)
    r = torch.relu(t)    -> relu(t)
    return s * 2, r      (here: s + 1)
Upstream's order (../shared/native-delegate/README.md): get_default_passes()
[CollapseViewCopyPass, CSEPass, NativeReinplacePass] on the edge program, then
ReplaceCopyWithAliasPass in NativeBackend.preprocess. NativeReinplacePass
(reinplace.py at b41c6108) calls exir's reinplace_pass, which makes relu(t) into
relu_(t): no node after relu reads t (the slice read it before). Then
ReplaceCopyWithAliasPass (replace_copy_with_alias.py at 1cba8dbf) makes the slice
an alias of t: it checks only that the slice is not a graph output and that its
layout is dim-order expressible, never whether its base is written in place
before the alias's last read. Output 0 becomes relu(t)[:2] + 1.

torch 1.13 lacks a few things these files import; the stand-ins below are
minimal and each names the upstream symbol it replaces.
"""
import importlib
import sys
import types
import warnings

warnings.filterwarnings("ignore")
import torch  # noqa: E402
from functorch import functionalize, make_fx  # noqa: E402
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode  # noqa: E402
from torch.fx.passes.fake_tensor_prop import FakeTensorProp  # noqa: E402
from torch.fx.passes.infra.pass_base import PassBase, PassResult  # noqa: E402


def stand_ins():
    def module(name, **attrs):
        m = types.ModuleType(name)
        m.__dict__.update(attrs)
        sys.modules[name] = m
        return m

    # torch._guards.detect_fake_mode (torch 2.x)
    module("torch._guards", detect_fake_mode=lambda inputs: next(
        (v.fake_mode for v in torch.utils._pytree.tree_flatten(inputs)[0] if isinstance(v, FakeTensor)), None))
    # torch.export.ExportedProgram (torch 2.x): graph_module, graph, graph_signature
    class ExportedProgram:
        def __init__(self, gm, sig):
            self.graph_module, self.graph_signature = gm, sig

        graph = property(lambda self: self.graph_module.graph)
    module("torch.export", ExportedProgram=ExportedProgram)
    import torch.fx.experimental.symbolic_shapes as ss
    ss.statically_known_true = lambda x: x if isinstance(x, bool) else False

    # executorch.exir.dialects: edge ops wrap aten ops as `_op` (EdgeOpOverload)
    class EdgeOpOverload:
        def __init__(self, op):
            self._op, self._schema, self.__name__ = op, op._schema, "edge_" + op.__name__.replace(".", "_")

        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            return getattr(self._op, name)

        def __call__(self, *a, **k):
            return self._op(*a, **k)

    cache = {}

    class Packet:
        def __init__(self, name):
            self.name = name

        def __getattr__(self, overload):
            if overload.startswith("__"):
                raise AttributeError(overload)
            key = (self.name, overload)
            if key not in cache:
                cache[key] = EdgeOpOverload(getattr(getattr(torch.ops.aten, self.name), overload))
            return cache[key]

    class Aten:
        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            try:
                getattr(torch.ops.aten, name)
            except (AttributeError, RuntimeError):
                raise AttributeError(name) from None
            return Packet(name)

    ops = types.SimpleNamespace(edge=types.SimpleNamespace(aten=Aten()))
    for pkg in ("executorch.exir.dialects", "executorch.exir.dialects.edge", "executorch.backends.transforms",
                "executorch.backends.native.serialization"):
        module(pkg).__path__ = []
    module("executorch.exir.dialects._ops", ops=ops)
    module("executorch.exir.dialects.edge._ops", EdgeOpOverload=EdgeOpOverload)

    # executorch.exir.pass_base
    class ExportPass(PassBase):
        pass

    class ExportedProgramPassBase:
        def __call__(self, ep):
            return self.call(ep)
    module("executorch.exir.pass_base", ExportPass=ExportPass, PassResult=PassResult,
           ExportedProgramPassBase=ExportedProgramPassBase,
           ExportedProgramPassResult=lambda ep, modified: types.SimpleNamespace(exported_program=ep))

    # CollapseViewCopyPass (not in the snapshot): nothing to collapse here
    class CollapseViewCopyPass(ExportPass):
        def call(self, gm):
            return PassResult(gm, False)
    module("executorch.backends.transforms.collapse_view_copy", CollapseViewCopyPass=CollapseViewCopyPass)

    # graph_serialize._dim_order (09387db1), by its docstring
    def _dim_order(t):
        order = sorted(range(t.dim()), key=lambda d: -t.stride()[d])
        run = 1
        for d in reversed(order):
            if t.shape[d] != 1 and t.stride()[d] != run:
                raise ValueError("not dim-order expressible")
            run *= max(t.shape[d], 1)
        return order
    module("executorch.backends.native.serialization.graph_serialize", _dim_order=_dim_order)
    return ops, ExportedProgram


def main(src, overlay):
    ops, ExportedProgram = stand_ins()
    root = types.ModuleType("executorch")
    root.__path__ = [overlay, src]  # the overlay's newer files first, as a user's tree would hold them
    sys.modules["executorch"] = root
    passes = importlib.import_module("executorch.backends.native.passes")

    def slice_after_relu(x):  # issue 36's probe
        t = x - 7
        s = t[:2]
        r = torch.relu(t)
        return s + 1, r

    def relu_of_an_output(x):  # a returned value, then relu of it
        f = x - 7
        g = torch.relu(f)
        return g, f

    def relu_into_a_mutated_input(x):  # x is a program input the program writes
        a = torch.relu(x)
        x.copy_(a)
        x.add_(1)
        return (a,)

    def relu_of_a_slice(x):  # relu of a slice; the sliced value is returned
        t = x - 7
        c = t[1:]
        d = torch.relu(c)
        return t, d

    def slice_after_index_copy(x):  # a KV cache's update; a slice of the cache read after it
        cache = x - 7
        s = cache[:2]
        k = x[3:4] + 100
        cache2 = torch.index_copy(cache, 0, torch.tensor([0]), k)
        return s + 1, cache2

    def index_put_of_an_output(x):  # exir's default set: t written in place, then returned
        t = x - 7
        c = torch.ops.aten.index_put(t, [None, torch.tensor([0])], x[:, 2:3])
        return c, t

    def index_put_of_itself(x):  # exir's default set: the values are the tensor written
        t = x - 7
        c = torch.ops.aten.index_put(t, [torch.tensor([1, 0, 3, 2])], t)
        return (c,)

    def index_put_into_a_mutated_input(x):  # exir's default set: x written in place, then written back
        c = torch.ops.aten.index_put(x, [torch.tensor([2, 0])], x[:2])
        x.copy_(c - 100)
        return (c,)

    x = torch.arange(12, dtype=torch.float32).reshape(4, 3) - 5
    differ = 0
    for f in (slice_after_relu, relu_of_an_output, relu_into_a_mutated_input, relu_of_a_slice,
              slice_after_index_copy):
        differ += run_program(f, x, passes, ops, ExportedProgram)
    reinplace = importlib.import_module("executorch.exir.passes.reinplace")
    for f in (index_put_of_an_output, index_put_of_itself, index_put_into_a_mutated_input):
        differ += run_program(f, x, passes, ops, ExportedProgram,
                              pipeline=lambda ep: reinplace.reinplace_pass(ep))  # its DEFAULT_INPLACEABLE_OPS
    for m in ("backends.native.passes.reinplace", "backends.native.passes.replace_copy_with_alias",
              "exir.passes.reinplace"):
        print("ran", sys.modules["executorch." + m].__file__)
    return 0 if differ == 8 else 1


def run_program(f, x, passes, ops, ExportedProgram, pipeline=None):
    """1 when the passes' result differs from eager PyTorch's: the native
    delegate's (upstream's order), or `pipeline(ep)` when given."""
    gm = make_fx(functionalize(f, remove="mutations_and_views"))(x.clone())
    # As torch.export does: a write to the input is an output (first) that the
    # signature names a user-input mutation; the runtime writes it back at the end.
    placeholder = next(n for n in gm.graph.nodes if n.op == "placeholder")
    out = list(gm.graph.nodes)[-1]
    mutated = {}
    for n in [n for n in gm.graph.nodes if n.target == torch.ops.aten.copy_.default and n.args[0] is placeholder]:
        value = n.args[1]
        n.replace_all_uses_with(value)
        gm.graph.erase_node(n)
        out.args = ((value,) + tuple(out.args[0]),)
        mutated[value.name] = placeholder.target
    for n in gm.graph.nodes:
        if n.op == "call_function":
            n.target = getattr(getattr(ops.edge.aten, n.target._schema.name.split("::")[1]), n.target._overloadname)
    gm.recompile()
    mode = FakeTensorMode()
    FakeTensorProp(gm, mode).propagate(mode.from_tensor(x))
    sig = types.SimpleNamespace(user_inputs_to_mutate=mutated, inputs_to_buffers={}, buffers_to_mutate={},
                                output_specs=[types.SimpleNamespace(arg=types.SimpleNamespace(name=a.name))
                                              for a in list(gm.graph.nodes)[-1].args[0]])
    x_eager = x.clone()
    expected = tuple(f(x_eager)) + (x_eager,)
    print("== %s\nedge graph:\n%s" % (f.__name__, gm.code.strip()))
    ep = ExportedProgram(gm, sig)
    base = sys.modules["executorch.exir.pass_base"].ExportedProgramPassBase
    if pipeline is not None:
        ep = pipeline(ep)
    else:
        for p in passes.get_default_passes():
            ep = p(ep).exported_program if isinstance(p, base) else ExportedProgram(p(ep.graph_module).graph_module, sig)
        passes.ReplaceCopyWithAliasPass()(ep.graph_module)
    ep.graph_module.recompile()
    print("after the passes:\n" + ep.graph_module.code.strip())
    x_native = x.clone()
    try:
        got = list(ep.graph_module(x_native))
    except RuntimeError as e:  # eager PyTorch ran the functional program; the rewritten one raises
        print("RAISES after the passes (eager ran): %s" % str(e).splitlines()[0])
        return 1
    if mutated:
        x_native.copy_(got.pop(0))  # the write-back of the input's new value, at the end
    got.append(x_native)
    for i, (e, g) in enumerate(zip(expected, got)):
        if not torch.equal(e, g):
            print("MISMATCH in output %d:\n  eager  %s\n  passes %s" % (i, e.tolist(), g.tolist()))
            return 1
    print("outputs agree: not reproduced")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
