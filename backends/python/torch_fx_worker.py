#!/usr/bin/python3
"""torch-fx-functionalize / torch-fx-reinplace: the case as an eager function,
traced with make_fx(functionalize(f)); `--pass none` runs that graph (the control,
which must agree with eager), `--pass reinplace` runs it after
torch.fx.passes.reinplace. Speaks slicefuzz's worker protocol (slicefuzz_worker.py)."""
import copy
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
warnings.filterwarnings("ignore")
import torch  # noqa: E402
from functorch import functionalize, make_fx  # noqa: E402
from torch.fx.passes.reinplace import reinplace  # noqa: E402

import reinplace_diagnosis  # noqa: E402
import slicefuzz_worker  # noqa: E402

torch.set_num_threads(1)
PASS = sys.argv[sys.argv.index("--pass") + 1] if "--pass" in sys.argv else "none"


def traced(f, x):
    return make_fx(functionalize(f))(x)


def transform(f, x):
    gm = traced(f, x)
    if PASS == "reinplace":
        gm = reinplace(gm, copy_like(x))
    return gm


def copy_like(x):
    return slicefuzz_worker.copy_like(x)


def describe(f, x):
    gm = traced(f, copy_like(x))
    lines = ["# traced: make_fx(functionalize(f))"] + gm.code.strip("\n").splitlines()
    if PASS == "reinplace":
        gm1 = reinplace(copy.deepcopy(gm), copy_like(x))
        lines += ["# after torch.fx.passes.reinplace"] + gm1.code.strip("\n").splitlines()
        lines += ["# what the pass changed"] + ["#   %s %s" % (c[0], c[3]) for c in
                                                 reinplace_diagnosis.graph_changes(gm, gm1)]
    return lines


def diagnose(f, x):
    """Which change of the pass makes the result differ from the functional graph's
    (reinplace_diagnosis.py); the control has no pass and so nothing to blame."""
    if PASS != "reinplace":
        return None, ["no pass: nothing to diagnose"]
    gm = traced(f, copy_like(x))
    gm1 = reinplace(copy.deepcopy(gm), copy_like(x))
    return reinplace_diagnosis.diagnose(gm, gm1, x, copy_like)


if __name__ == "__main__":
    slicefuzz_worker.serve(transform, describe, name="torch-fx-" + ("reinplace" if PASS == "reinplace" else "functionalize"),
                          diagnose=diagnose)
