#!/usr/bin/python3
"""The et-* backends' loader and worker (backends/python/et_*.py), without the
harness:
- every upstream file a pipeline executes comes from the trees it was given, and
  the bytes executed are the tree's (SHA-256 of the file on disk), never a copy in
  this repository;
- the shims answer only imports the trees and torch 1.13 lack (each shimmed
  module is marked, and none of them is an upstream pass file);
- OpOverload.is_view, as upstream torch derives it, is True for slice/select and
  False for their _copy forms and for relu_;
- the native delegate's pipeline rewrites issue 36's probe into relu_ plus an
  aliasing slice, and the diagnosis names both passes.
Usage: et_passes_test.py REPO EXECUTORCH_SRC OVERLAY
"""
import hashlib
import os
import subprocess
import sys

REPO, SRC, OVERLAY = (os.path.abspath(a) for a in sys.argv[1:4])
sys.path.insert(0, os.path.join(REPO, "backends", "python"))
failures = []
checked = [0]


def check(cond, what):
    checked[0] += 1
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def worker_lines(pipeline, case_text):
    """The worker's `graph` answer for a case (its text lines)."""
    cmd = ["/usr/bin/python3", os.path.join(REPO, "backends/python/et_pass_worker.py"), "--pipeline", pipeline,
           "--executorch-src", SRC, "--overlay", OVERLAY]
    data = case_text.encode()
    req = b"graph %d\n" % len(data) + data + b"input float32 [4, 3] hex " + (b"00" * 48) + b"\n"
    p = subprocess.run(cmd, input=req, capture_output=True, timeout=300)
    return p.returncode, p.stdout.decode().splitlines(), p.stderr.decode()


PROBE = """slicefuzz-case 2
dtype float32
input x [4, 3]
t = add(x, -7)
s = slice_copy(t, dim=0, start=0, end=2, step=1)
r = relu(t)
c = add(s, 1)
output c, r
"""

rc, lines, err = worker_lines("native-delegate", PROBE)
check(rc == 0 and lines and lines[0].startswith("slicefuzz-worker 1 et-native-delegate"), "native-delegate worker starts")
after = lines[lines.index("text # after native-delegate"):] if "text # after native-delegate" in lines else []
check(any("relu_" in l for l in after) and any("aten.slice.Tensor" in l for l in after),
      "the probe becomes relu_ plus an aliasing aten.slice")
loaded = [l.split()[2:] for l in lines if l.startswith("text #   /")]
paths = {p: h for p, h in loaded}
expected = {
    os.path.join(OVERLAY, "backends/native/passes/__init__.py"),
    os.path.join(OVERLAY, "backends/native/passes/reinplace.py"),
    os.path.join(OVERLAY, "backends/native/passes/replace_copy_with_alias.py"),
    os.path.join(SRC, "exir/passes/reinplace.py"),
    os.path.join(SRC, "exir/passes/cse_pass.py"),
    os.path.join(SRC, "exir/operator/convert.py"),
}
check(expected <= set(paths), "every upstream file of the pipeline was executed from the trees given")
for p, h in paths.items():
    check(p.startswith(SRC + os.sep) or p.startswith(OVERLAY + os.sep), "%s lies in a tree given" % p)
    check(not p.startswith(REPO + os.sep), "%s is not a file of this repository" % p)
    with open(p, "rb") as f:
        check(hashlib.sha256(f.read()).hexdigest().startswith(h), "%s: the bytes executed are the tree's" % p)

rc, lines, err = worker_lines("aoti-view", PROBE)
check(any("replace_view_copy_with_view.py" in l and SRC in l for l in lines), "aoti-view executes the tree's pass")

rc, lines, err = worker_lines("view-copy-to-view", PROBE)
check(rc == 3 and "cannot load its upstream passes" in err and "torch.utils._sympy" in err,
      "view-copy-to-view fails at start naming the import that stops it")

import et_torch113_shims as shims  # noqa: E402
import torch  # noqa: E402
check(shims.op_overload_is_view(torch.ops.aten.slice.Tensor) and shims.op_overload_is_view(torch.ops.aten.select.int),
      "is_view: slice and select are views")
check(not shims.op_overload_is_view(torch.ops.aten.slice_copy.Tensor) and not shims.op_overload_is_view(torch.ops.aten.relu_.default),
      "is_view: slice_copy and relu_ are not")
for name, mod in shims.shim_modules().items():
    check(getattr(mod, "__slicefuzz_shim__", False) and not name.endswith(("reinplace", "replace_copy_with_alias",
                                                                            "replace_view_copy_with_view")),
          "shim %s is marked and stands for no pass file" % name)
t = torch.empty(4, 6)[:, 1:3]
try:
    shims.graph_serialize_dim_order(t)
    check(False, "_dim_order refuses a gapped last-dim slice")
except ValueError:
    check(True, "_dim_order refuses a gapped last-dim slice")
check(shims.graph_serialize_dim_order(torch.empty(2, 3, 4).permute(0, 2, 1)) == [0, 2, 1], "_dim_order of a permuted tensor")

print("%d passed, %d failed" % (checked[0] - len(failures), len(failures)))
sys.exit(1 if failures else 0)
