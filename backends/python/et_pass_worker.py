#!/usr/bin/python3
"""et-* backends: ExecuTorch's own Python alias passes, loaded unmodified from an
ExecuTorch tree (and an overlay of newer files), composed in upstream's order on
the edge graph of a .case program (et_edge_program.py), the result run with true
torch views. Speaks slicefuzz's worker protocol (slicefuzz_worker.py).

  et_pass_worker.py --pipeline NAME --executorch-src DIR [--overlay DIR]

The pipelines and their upstream order: et_pipelines.py (README, "ExecuTorch's
Python passes").
A pipeline whose upstream files do not import fails at start with the import
that stopped it (stderr, exit 3): the harness reports the worker's failure, never
a pass that did nothing.
"""
import os
import sys
import traceback
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
warnings.filterwarnings("ignore")
import torch  # noqa: E402

import et_pipelines  # noqa: E402
import et_upstream_loader  # noqa: E402
import slicefuzz_worker  # noqa: E402

torch.set_num_threads(1)


def arg(flag, default=None):
    return sys.argv[sys.argv.index(flag) + 1] if flag in sys.argv else default


PIPELINE = arg("--pipeline", "edge-control")
SRC, OVERLAY = arg("--executorch-src"), arg("--overlay")
# A deliberately faulty variant for the self-test (--fault NAME), README "Self-test".
FAULT = arg("--fault")


def fault(ep):
    """The self-test's faulty variants (README "The self-test"), planted after the
    upstream passes ran, each a bug class an alias or reinplace pass can have:
      alias-offset    every slice alias the pass made starts one element late
      relu-inplace    every relu of an intermediate made relu_, read later or not
    """
    if FAULT == "alias-offset":
        for n in ep.graph.nodes:
            aten = n.target if isinstance(n.target, torch._ops.OpOverload) else getattr(n.target, "_op", None)
            if n.op == "call_function" and aten is torch.ops.aten.slice.Tensor and len(n.args) >= 3:
                start = n.args[2]
                n.args = n.args[:2] + ((1 if start is None else start + 1),) + n.args[3:]
    elif FAULT == "relu-inplace":
        import et_torch113_shims as shims
        for n in ep.graph.nodes:
            if (n.op == "call_function" and getattr(n.target, "_op", None) is torch.ops.aten.relu.default
                    and n.args[0].op != "placeholder"):
                n.target = shims.edge_op(torch.ops.aten.relu_.default)
    elif FAULT:
        raise SystemExit("et_pass_worker: unknown fault %s" % FAULT)
    return ep


def start():
    if not SRC:
        raise SystemExit("et_pass_worker: --executorch-src DIR is required")
    et_upstream_loader.install(SRC, OVERLAY)
    try:
        return et_pipelines.load_pipeline(PIPELINE)
    except Exception as e:  # the upstream files do not import here: say which import, exit 3
        tb = traceback.extract_tb(e.__traceback__)
        where = next((f for f in reversed(tb) if SRC in f.filename or (OVERLAY and OVERLAY in f.filename)), tb[-1])
        sys.stderr.write("et_pass_worker: pipeline %s cannot load its upstream passes: %s: %s (at %s:%d: %s)\n"
                         % (PIPELINE, type(e).__name__, e, where.filename, where.lineno, where.line))
        sys.exit(3)


STAGES = start()


def PASSES(ep, stages=None):
    return et_pipelines.run_stages(ep, STAGES if stages is None else stages)


def program(f, x):
    import et_edge_program
    return et_edge_program.build(f, x)


def transform(f, x):
    import et_edge_program
    ep, n_mut = program(f, x)
    ep = fault(PASSES(ep))
    return lambda xi: et_edge_program.run(ep, n_mut, xi)


# The passes a diagnosis names (et_pass_diagnosis.py): (alias pass, reinplace pass).
BLAME_NAMES = {
    "native-delegate": ("ReplaceCopyWithAliasPass", "NativeReinplacePass"),
    "aoti-view": ("aoti.ReplaceViewCopyWithViewPass", "none"),
    "exir-reinplace": ("none", "exir.reinplace_pass"),
    "exir-reinplace-index-copy": ("none", "exir.reinplace_pass"),
    "to-executorch": ("exir.ReplaceViewCopyWithViewPass", "exir.reinplace_pass"),
}


def diagnose(f, x):
    import et_edge_program
    import et_pass_diagnosis
    if PIPELINE == "edge-control":
        return None, ["no pass: nothing to diagnose"]
    alias_pass, reinplace_pass = BLAME_NAMES[PIPELINE]
    # Each prefix of the pipeline, the planted fault after the whole of it.
    prefixes = [lambda ep, k=k: PASSES(ep, STAGES[:k]) for k in range(1, len(STAGES))]
    prefixes.append(lambda ep: fault(PASSES(ep)))
    return et_pass_diagnosis.diagnose(lambda: program(f, x), prefixes, et_edge_program.run,
                                      lambda: slicefuzz_worker.copy_like(x), alias_pass, reinplace_pass)


def describe(f, x):
    import et_edge_program
    ep, _ = program(f, x)
    lines = ["# edge graph (make_fx(functionalize(f, remove='mutations_and_views')), edge ops)"]
    lines += et_edge_program.code(ep)
    after = fault(PASSES(program(f, x)[0]))
    lines += ["# after %s" % PIPELINE] + et_edge_program.code(after)
    lines += ["# upstream files executed"] + ["#   %s %s" % (p, h[:16]) for _, p, h in et_upstream_loader.LOADED]
    return lines


if __name__ == "__main__":
    slicefuzz_worker.COPY_OPS[0] = "aten"
    slicefuzz_worker.serve(transform, describe, name="et-" + PIPELINE, diagnose=diagnose)
