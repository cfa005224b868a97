"""The graph that `to_edge` would hand ExecuTorch's passes, built on torch 1.13
from a .case program: make_fx(functionalize(f, remove="mutations_and_views"))
gives the functional aten graph (views become their `*_copy` ops, in-place ops
their functional forms); then, as torch.export and to_edge do,
- a write to the program input becomes an extra output, first, recorded in the
  graph signature's user_inputs_to_mutate (functionalize's trailing copy_ into the
  placeholder is removed; the runner writes the value back, as ExecuTorch does);
- the clones eager_function adds to its outputs are dropped (export adds none),
  except where a clone is what keeps two outputs or an output and the input apart;
- dead nodes are removed, every aten target becomes its edge op, and every node
  gets node.meta["val"] from FakeTensor propagation.
"""
import operator

import torch
from functorch import functionalize, make_fx
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.passes.fake_tensor_prop import FakeTensorProp

import et_torch113_shims as shims

USER_OUTPUT = "USER_OUTPUT"
USER_INPUT_MUTATION = "USER_INPUT_MUTATION"


def _output_node(graph):
    return next(n for n in graph.nodes if n.op == "output")


def _strip_output_clones(graph, placeholder):
    out = _output_node(graph)
    args = list(out.args[0])
    for i, a in enumerate(args):
        if not (isinstance(a, torch.fx.Node) and a.op == "call_function"
                and a.target == torch.ops.aten.clone.default and len(a.users) == 1 and not a.kwargs):
            continue
        src = a.args[0]
        others = [b for j, b in enumerate(args) if j != i]
        if src is placeholder or src in others:
            continue
        args[i] = src
    out.args = (tuple(args),)


def build(f, x):
    """(ExportedProgram, number of input-mutation outputs) for eager function f at input x."""
    gm = make_fx(functionalize(f, remove="mutations_and_views"))(shims_copy(x))
    graph = gm.graph
    placeholder = next(n for n in graph.nodes if n.op == "placeholder")
    # functionalize writes a mutated input back with copy_(input, new value).
    mutations = [n for n in graph.nodes if n.op == "call_function" and n.target == torch.ops.aten.copy_.default
                 and n.args[0] is placeholder]
    new_values = []
    for n in mutations:
        new_values.append(n.args[1])
        n.replace_all_uses_with(n.args[1])
        graph.erase_node(n)
    _strip_output_clones(graph, placeholder)
    out = _output_node(graph)
    user_outputs = list(out.args[0])
    out.args = (tuple(new_values[-1:] + user_outputs),)  # the last write is the input's final value
    graph.eliminate_dead_code()
    for n in graph.nodes:
        if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload):
            n.target = shims.edge_op(n.target)
    gm.recompile()
    mode = FakeTensorMode()
    FakeTensorProp(gm, mode).propagate(mode.from_tensor(shims_copy(x)))
    outs = list(out.args[0])
    specs, mutate = [], {}
    for i, a in enumerate(outs):
        name = a.name if isinstance(a, torch.fx.Node) else None
        if i < len(new_values[-1:]):
            specs.append(shims.OutputSpec(USER_INPUT_MUTATION, name, placeholder.target))
            mutate[name] = placeholder.target
        else:
            specs.append(shims.OutputSpec(USER_OUTPUT, name))
    sig = shims.ExportGraphSignature(user_inputs_to_mutate=mutate, output_specs=specs)
    return shims.ExportedProgram(gm, sig), len(new_values[-1:])


def shims_copy(x):
    y = torch.empty_strided(x.size(), x.stride(), dtype=x.dtype)
    y.copy_(x)
    return y


def run(ep, n_mutations, x):
    """Runs the (rewritten) graph eagerly, as the native runtime does: aliasing ops
    are true views. Writes each input mutation back into x; returns the user outputs."""
    ep.graph_module.recompile()
    outs = list(ep.graph_module(x))
    for v in outs[:n_mutations]:
        if v is not x:
            x.copy_(v)
    return outs[n_mutations:]


def code(ep):
    ep.graph_module.recompile()
    return [line for line in ep.graph_module.code.strip("\n").splitlines() if line.strip()]


__all__ = ["build", "run", "code", "operator"]
