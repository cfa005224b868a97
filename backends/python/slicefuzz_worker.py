"""The worker side of slicefuzz's out-of-process backend protocol, for Python.

A worker is started once and answers one request at a time (README, "Out-of-process
backends"). This module does the protocol and builds a .case program as an eager
PyTorch function; a worker supplies `transform(f, x) -> callable` (trace the
function, apply its pass, return what runs) and calls `serve(...)`. It imports
nothing of slicefuzz's C++ side: the case text is parsed here.
"""
import re
import sys
import traceback

import torch
import torch.fx

DTYPES = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
    "int32": torch.int32, "int64": torch.int64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
}
DTYPE_NAMES = {v: k for k, v in DTYPES.items()}

_INT = r"[+-]?\d+"
_OPT = r"(?:[+-]?\d+|None)"
OP_FORMS = [
    ("slice_copy", re.compile(rf"(\w+)\s*=\s*slice_copy\((\w+),\s*dim=({_INT}),\s*start=({_OPT}),\s*end=({_OPT}),\s*step=({_INT})\)$")),
    ("slice", re.compile(rf"(\w+)\s*=\s*slice\((\w+),\s*dim=({_INT}),\s*start=({_OPT}),\s*end=({_OPT}),\s*step=({_INT})\)$")),
    ("select", re.compile(rf"(\w+)\s*=\s*select\((\w+),\s*dim=({_INT}),\s*index=({_INT})\)$")),
    ("select_copy", re.compile(rf"(\w+)\s*=\s*select_copy\((\w+),\s*dim=({_INT}),\s*index=({_INT})\)$")),
    ("unsqueeze_copy", re.compile(rf"(\w+)\s*=\s*unsqueeze_copy\((\w+),\s*dim=({_INT})\)$")),
    ("view_copy", re.compile(r"(\w+)\s*=\s*view_copy\((\w+),\s*sizes=\[([^\]]*)\]\)$")),
    ("expand_copy", re.compile(r"(\w+)\s*=\s*expand_copy\((\w+),\s*sizes=\[([^\]]*)\]\)$")),
    ("narrow_copy", re.compile(rf"(\w+)\s*=\s*narrow_copy\((\w+),\s*dim=({_INT}),\s*start=({_INT}),\s*length=({_INT})\)$")),
    ("permute_copy", re.compile(r"(\w+)\s*=\s*permute_copy\((\w+),\s*dims=\[([^\]]*)\]\)$")),
    ("relu", re.compile(r"(\w+)\s*=\s*relu\((\w+)\)$")),
    ("sigmoid", re.compile(r"(\w+)\s*=\s*sigmoid\((\w+)\)$")),
    ("gelu", re.compile(r"(\w+)\s*=\s*gelu\((\w+)\)$")),
    ("index_put", re.compile(rf"(\w+)\s*=\s*index_put\((\w+),\s*dim=({_INT}),\s*index=\[([^\]]*)\],\s*values=(\w+)\)$")),
    ("index_copy", re.compile(rf"(\w+)\s*=\s*index_copy\((\w+),\s*dim=({_INT}),\s*index=\[([^\]]*)\],\s*source=(\w+)\)$")),
    ("clone", re.compile(r"(\w+)\s*=\s*clone\((\w+)\)$")),
    ("add", re.compile(rf"(\w+)\s*=\s*add\((\w+),\s*({_INT})\)$")),
    ("mul", re.compile(rf"(\w+)\s*=\s*mul\((\w+),\s*({_INT})\)$")),
    # The overloads of two tensors (add.Tensor, mul.Tensor): the third group a name.
    ("add", re.compile(r"(\w+)\s*=\s*add\((\w+),\s*other=(\w+)\)$")),
    ("mul", re.compile(r"(\w+)\s*=\s*mul\((\w+),\s*other=(\w+)\)$")),
    ("add_", re.compile(rf"add_\((\w+),\s*({_INT})\)$")),
    ("copy_", re.compile(r"copy_\((\w+),\s*(\w+)\)$")),
]


def value_dtypes(case):
    """Every value's dtype: its operand's, but sigmoid of a bool or integer tensor
    is float32 (torch's promotion); programs do not cast otherwise."""
    dtypes = {case["input"]: case["dtype"]}
    for op in case["ops"]:
        if op[0] in ("add_", "copy_"):
            continue
        src = dtypes.get(op[2], case["dtype"])
        promoted = op[0] == "sigmoid" and not src.is_floating_point
        dtypes[op[1]] = torch.float32 if promoted else src
    return dtypes


def is_int(s):
    return re.match(r"^[+-]?\d+$", s) is not None


def opt_int(s):
    return None if s == "None" else int(s)


def parse_case(text):
    """(dtype, input name, sizes, dim order, ops, outputs); ops are (kind, args...)."""
    case = {"ops": []}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("slicefuzz-case"):
            continue
        if line.startswith("dtype "):
            case["dtype"] = DTYPES[line.split()[1]]
        elif line.startswith("input "):
            m = re.match(r"input\s+(\w+)\s*\[([^\]]*)\](?:\s*dim_order=\[([^\]]*)\])?$", line)
            case["input"] = m.group(1)
            case["sizes"] = [int(v) for v in m.group(2).split(",") if v.strip()]
            order = m.group(3)
            case["dim_order"] = [int(v) for v in order.split(",")] if order else list(range(len(case["sizes"])))
        elif line.startswith("output "):
            case["outputs"] = [n.strip() for n in line[len("output "):].split(",")]
        else:
            for kind, form in OP_FORMS:
                m = form.match(line)
                if m:
                    case["ops"].append((kind,) + m.groups())
                    break
            else:
                raise ValueError("cannot parse op line: " + line)
    return case


def safe_slice_args(size, start, end, step):
    """slicefuzz's domain adapter: equivalent values libtorch 1.13 accepts."""
    if step > 0:
        bound = size + 1
        start = None if start is None else max(-bound, min(bound, start))
        end = None if end is None else max(-bound, min(bound, end))
        step = max(1, min(step, max(size, 1)))
    return start, end, step


def torch_slice(src, dim, start, end, step):
    size = src.size(dim) if src.dim() > 0 and -src.dim() <= dim < src.dim() else 0
    start, end, step = safe_slice_args(size, start, end, step)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    return torch.ops.aten.slice(src, dim, start, end, step)


def add_scalar_(t, k):
    # torch refuses bool + int; slicefuzz defines bool add as addition mod 2.
    if t.dtype == torch.bool:
        return t.logical_not_() if k & 1 else t
    return t.add_(k)


CURRENT_OP = [-1]  # the op being run, so an exception names it
# How a view-copy op is written in the eager function: "clone" (its view, then
# .clone(): what torch.fx's passes were tested on) or "aten" (the aten *_copy op
# itself, as torch.export + to_edge give it: et_pass_worker.py).
COPY_OPS = ["clone"]


def slice_copy(src, dim, start, end, step):
    if COPY_OPS[0] == "aten":
        size = src.size(dim) if src.dim() > 0 and -src.dim() <= dim < src.dim() else 0
        start, end, step = safe_slice_args(size, start, end, step)
        if step <= 0:
            raise RuntimeError("slice step must be positive")
        return torch.ops.aten.slice_copy.Tensor(src, dim, start, end, step)
    return torch_slice(src, dim, start, end, step).clone()


def select_copy(src, dim, index):
    if COPY_OPS[0] == "aten":
        return torch.ops.aten.select_copy.int(src, dim, index)
    return torch.ops.aten.select(src, dim, index).clone()


def int_list(text):
    return [int(v) for v in text.split(",") if v.strip()]


# The other view-copy ops: as the aten *_copy op (what to_edge hands the passes),
# or, for the torch.fx workers, the view cloned (view_copy copies even where torch
# cannot view the source, as reshape does). A result past rank 16 is refused, as
# the case language refuses it (ExecuTorch's kTensorDimensionLimit; torch 1.13
# allows 64), before torch runs.
MAX_RANK = 16


def check_rank(name, rank):
    if rank > MAX_RANK:
        raise RuntimeError("%s: the result's rank %d exceeds %d" % (name, rank, MAX_RANK))


def unsqueeze_copy(src, dim):
    check_rank("unsqueeze_copy", src.dim() + 1)
    if COPY_OPS[0] == "aten":
        return torch.ops.aten.unsqueeze_copy.default(src, dim)
    return torch.unsqueeze(src, dim).clone()


def view_copy(src, sizes):
    check_rank("view_copy", len(sizes))
    # torch 1.13 multiplies the sizes in int64 and wraps: the case language
    # refuses a product past int64 (with no size 0) before torch runs.
    if 0 not in sizes:
        product = 1
        for s in sizes:
            product *= s if s != -1 else 1
        if product > 2**63 - 1:
            raise RuntimeError("view_copy: the sizes' product passes int64")
    if COPY_OPS[0] == "aten":
        return torch.ops.aten.view_copy.default(src, sizes)
    return torch.reshape(src, sizes).clone()


def expand_copy(src, sizes):
    check_rank("expand_copy", len(sizes))
    if COPY_OPS[0] == "aten":
        return torch.ops.aten.expand_copy.default(src, sizes)
    return src.expand(sizes).clone()


def narrow_copy(src, dim, start, length):
    if COPY_OPS[0] == "aten":
        return torch.ops.aten.narrow_copy.default(src, dim, start, length)
    return torch.narrow(src, dim, start, length).clone()


def permute_copy(src, dims):
    if COPY_OPS[0] == "aten":
        return torch.ops.aten.permute_copy.default(src, dims)
    return torch.permute(src, dims).clone()


def eager_function(case):
    """The case as an eager PyTorch function of its input; returns the outputs
    that are not the input, cloned at the end (their final values: functionalize
    in torch 1.13 returns a base mutated through a view of it stale when it is
    returned as is, in the control too). The input's final value is read from the
    input itself after the call."""
    # mul's k as torch casts an int64 to the dtype of mul's operand, computed here,
    # outside any trace of f.
    dtypes = value_dtypes(case)
    mul_k = {op[1]: torch.tensor(int(op[3]), dtype=torch.int64).to(dtypes[op[2]]).item()
             for op in case["ops"] if op[0] == "mul" and is_int(op[3])}

    def f(x):
        env = {case["input"]: x}
        for k, op in enumerate(case["ops"]):
            CURRENT_OP[0] = k
            kind, a = op[0], op[1:]
            if kind == "slice_copy":
                env[a[0]] = slice_copy(env[a[1]], int(a[2]), opt_int(a[3]), opt_int(a[4]), int(a[5]))
            elif kind == "slice":
                env[a[0]] = torch_slice(env[a[1]], int(a[2]), opt_int(a[3]), opt_int(a[4]), int(a[5]))
            elif kind == "select":
                env[a[0]] = torch.ops.aten.select(env[a[1]], int(a[2]), int(a[3]))
            elif kind == "select_copy":
                env[a[0]] = select_copy(env[a[1]], int(a[2]), int(a[3]))
            elif kind == "unsqueeze_copy":
                env[a[0]] = unsqueeze_copy(env[a[1]], int(a[2]))
            elif kind == "view_copy":
                env[a[0]] = view_copy(env[a[1]], int_list(a[2]))
            elif kind == "expand_copy":
                env[a[0]] = expand_copy(env[a[1]], int_list(a[2]))
            elif kind == "narrow_copy":
                env[a[0]] = narrow_copy(env[a[1]], int(a[2]), int(a[3]), int(a[4]))
            elif kind == "permute_copy":
                env[a[0]] = permute_copy(env[a[1]], int_list(a[2]))
            elif kind == "relu":
                env[a[0]] = torch.relu(env[a[1]])
            elif kind == "sigmoid":  # an integer tensor's is float32
                env[a[0]] = torch.sigmoid(env[a[1]])
            elif kind == "gelu":  # approximate="none"
                env[a[0]] = torch.nn.functional.gelu(env[a[1]])
            elif kind == "index_put":  # indices = [None] * dim + [index]
                self_ = env[a[1]]
                index = torch.tensor(int_list(a[3]), dtype=torch.int64)
                d, r = int(a[2]), self_.dim()
                if r > 0 and not -r <= d < r:
                    raise IndexError("index_put: dim %d is out of range" % d)
                nones = [None] * (d % r if r > 0 else 0)
                env[a[0]] = torch.ops.aten.index_put(self_, nones + [index], env[a[4]])
            elif kind == "index_copy":  # the index: an int64 tensor of the entries
                index = torch.tensor(int_list(a[3]), dtype=torch.int64)
                env[a[0]] = torch.index_copy(env[a[1]], int(a[2]), index, env[a[4]])
            elif kind == "clone":
                env[a[0]] = env[a[1]].clone()
            elif kind in ("add", "mul") and not is_int(a[2]):  # two tensors: one dtype, one size
                t, u = env[a[1]], env[a[2]]
                if t.dtype != u.dtype:
                    raise RuntimeError("%s: dtypes differ (slicefuzz programs do not cast)" % kind)
                if t.shape != u.shape:
                    raise RuntimeError("%s: sizes differ (slicefuzz programs do not broadcast)" % kind)
                env[a[0]] = torch.add(t, u) if kind == "add" else torch.mul(t, u)
            elif kind == "add":
                src, k_ = env[a[1]], int(a[2])
                env[a[0]] = (torch.logical_not(src) if k_ & 1 else src.clone()) if src.dtype == torch.bool else torch.add(src, k_)
            elif kind == "mul":  # the product in the dtype (bool: and)
                env[a[0]] = torch.mul(env[a[1]], mul_k[a[0]])
            elif kind == "add_":
                add_scalar_(env[a[0]], int(a[1]))
            elif kind == "copy_":
                dst, src = env[a[0]], env[a[1]]
                if dst.shape != src.shape:
                    raise RuntimeError("copy_: sizes differ (slicefuzz does not broadcast)")
                if dst.dtype != src.dtype:  # sigmoid made an integer program's value float32
                    raise RuntimeError("copy_: dtypes differ (slicefuzz programs do not cast)")
                dst.copy_(src)  # as written: torch refuses a partial overlap itself
        CURRENT_OP[0] = -1
        return tuple(env[n].clone() for n in case["outputs"] if n != case["input"])
    return f


def fx_nodes_in(args):
    """The torch.fx nodes in an fx node's args or kwargs, nested lists, tuples and
    dicts included (index_put's indices): what the workers' diagnoses read."""
    found = []
    for a in (args.values() if isinstance(args, dict) else args):
        if isinstance(a, torch.fx.Node):
            found.append(a)
        elif isinstance(a, (list, tuple, dict)):
            found += fx_nodes_in(a)
    return found


def make_input(case, data_hex):
    """The input, laid out with the case's dim order, holding the harness's values."""
    sizes, order, dtype = case["sizes"], case["dim_order"], case["dtype"]
    raw = bytes.fromhex(data_hex)
    flat = torch.frombuffer(bytearray(raw), dtype=torch.uint8) if raw else torch.empty(0, dtype=torch.uint8)
    value = flat.view(dtype).reshape(sizes) if raw else torch.empty(sizes, dtype=dtype)
    inverse = [order.index(i) for i in range(len(order))]
    x = torch.empty([sizes[d] for d in order], dtype=dtype).permute(inverse)
    x.copy_(value)
    return x


def tensor_hex(t):
    t = t.detach().contiguous()
    if t.dtype in (torch.float16, torch.bfloat16):
        t = t.view(torch.int16)
    elif t.dtype == torch.bool:
        t = t.to(torch.uint8)
    return t.numpy().tobytes().hex()


def copy_like(x):
    """A fresh tensor with x's sizes, strides and values."""
    y = torch.empty_strided(x.size(), x.stride(), dtype=x.dtype)
    y.copy_(x)
    return y


def answer_run(case, x, transform, out):
    CURRENT_OP[0] = -1
    f = eager_function(case)
    try:
        # The program as PyTorch runs it first: an op eager PyTorch refuses (a
        # copy_ between partly overlapping views) is refused here too, although
        # a functionalized trace of it would run (functionalize replaces the
        # copy_ and its overlap check with a functional copy).
        f(copy_like(x))
        CURRENT_OP[0] = -1
        run = transform(f, copy_like(x))
        xi = copy_like(x)
        CURRENT_OP[0] = -1
        results = list(run(xi))
    except Exception as e:  # an op raised (while tracing), or the pass did
        msg = " ".join(("%s: %s" % (type(e).__name__, e)).split())
        out.write("error %d %s\nend\n" % (CURRENT_OP[0], msg[:2000]))
        return
    out.write("ok\n")
    for name in case["outputs"]:
        t = xi if name == case["input"] else results.pop(0)
        sizes = ", ".join(str(s) for s in t.shape)
        out.write("output %s %s [%s] hex %s\n" % (name, DTYPE_NAMES[t.dtype], sizes, tensor_hex(t)))
    out.write("end\n")


def answer_diagnose(case, x, diagnose, out):
    """`diagnose`: the worker's own account of a wrong result, asked by the harness
    only for a case whose `run` answer it judged wrong. `text` lines say what the
    pass changed; one `cause WORD` line names the change to blame, or `cause none`."""
    try:
        cause, lines = diagnose(eager_function(case), copy_like(x)) if diagnose else (None, ["this worker has no diagnosis"])
    except Exception as e:
        cause, lines = None, ["error: %s" % traceback.format_exception_only(type(e), e)[-1].strip()]
    for line in lines:
        out.write("text %s\n" % " ".join(line.split()))
    out.write("cause %s\nend\n" % (cause or "none"))


def serve(transform, describe=None, name="python-worker", diagnose=None):
    """The protocol loop: `run N` / `graph N` / `diagnose N`, N bytes of case text,
    one `input` line. `diagnose(f, x) -> (cause word or None, text lines)`."""
    inp, out = sys.stdin.buffer, sys.stdout
    out.write("slicefuzz-worker 1 %s torch %s\n" % (name, torch.__version__))
    out.flush()
    while True:
        header = inp.readline()
        if not header:
            return
        verb, n = header.decode().split()
        text = inp.read(int(n)).decode()
        data = inp.readline().decode().split()  # input NAME-less: input DTYPE [S..] hex HEX
        case = parse_case(text)
        x = make_input(case, data[-1] if data[-2] == "hex" else "")
        if verb == "run":
            answer_run(case, x, transform, out)
        elif verb == "graph":
            try:
                lines = describe(eager_function(case), copy_like(x)) if describe else ["(no graph)"]
            except Exception as e:
                lines = ["error: %s" % traceback.format_exception_only(type(e), e)[-1].strip()]
            for line in lines:
                out.write("text %s\n" % line)
            out.write("end\n")
        elif verb == "diagnose":
            answer_diagnose(case, x, diagnose, out)
        else:
            out.write("error -1 unknown verb %s\nend\n" % verb)
        out.flush()
