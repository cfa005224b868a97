// `export --python` for the torch.fx workers: a script with no slicefuzz code that
// builds the case as an eager PyTorch function, runs it eagerly, traces it with
// make_fx(functionalize(f)), applies the backend's pass (none, or
// torch.fx.passes.reinplace), runs the graph, and prints both side by side.
// Exit 1 while they differ (the finding reproduces), 0 when they agree.
#include "harness/export/export_worker.h"

#include <cstring>

#include "harness/run/worker_client.h"
#include "oracles/domain_adapter.h"
#include "oracles/values.h"
#include "vocab/case_format.h"

namespace slicefuzz {

namespace {
std::string py_opt(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "None"; }

const char* torch_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "torch.bool";
    case ScalarType::Byte: return "torch.uint8";
    case ScalarType::Char: return "torch.int8";
    case ScalarType::Short: return "torch.int16";
    case ScalarType::Int: return "torch.int32";
    case ScalarType::Long: return "torch.int64";
    case ScalarType::Half: return "torch.float16";
    case ScalarType::BFloat16: return "torch.bfloat16";
    case ScalarType::Float: return "torch.float32";
    case ScalarType::Double: return "torch.float64";
  }
  return "torch.float32";
}

std::string list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// One op as eager PyTorch (slice args through the domain adapter, so the script
// runs on libtorch 1.13 with values equivalent to the case's). Copy ops are their
// view followed by .clone(); torch 1.13 has no squeeze.dims (squeeze_dims, one dim
// at a time) and clone(dim_order=) is empty + permute + copy_ (clone_dim_order).
// With `aten_copies` (the et-* backends), the view-copy ops are the aten *_copy
// ops themselves, as torch.export + to_edge give them (a view then .clone()
// is another graph: the clone reads the view before any later write).
// The op's arguments after its operand, in schema order, as Python literals.
std::string python_args(const Op& op) {
  std::string args;
  for (const ArgSpec& a : op_kind_info(op.kind).args) {
    if (a.kind == ArgKind::Int || a.kind == ArgKind::Scalar) args += ", " + std::to_string(op_int(op, a.slot));
    if (a.kind == ArgKind::OptInt) args += ", " + py_opt(op_opt_int(op, a.slot));
    if (a.kind == ArgKind::IntList || a.kind == ArgKind::DimList) args += ", " + list(op.ints);
  }
  return args;
}

// What slicefuzz_worker.py refuses before torch runs an aten *_copy op, the script
// refuses too, as the case language does: a result past rank 16 (torch 1.13 allows
// 64) and view_copy sizes whose product passes int64 (torch 1.13 wraps). Without
// this the script would let torch run where the worker stops. "" = no refusal.
std::string worker_refusal(const Op& op, const ProgramInfo& info, int src) {
  const std::string name = op_kind_name(op.kind);
  const size_t rank = op.kind == OpKind::UnsqueezeCopy
                          ? (src >= 0 ? info.values[src].sizes.size() + 1 : 0)
                          : op.ints.size();
  if (rank > static_cast<size_t>(kMaxCaseRank))
    return "raise RuntimeError(\"" + name + ": the result's rank " + std::to_string(rank) + " exceeds " +
           std::to_string(kMaxCaseRank) + "\")";
  if (op.kind == OpKind::ViewCopy) {
    try {
      check_view_sizes_for_torch(op.ints);
    } catch (const TorchDomainError&) {
      return "raise RuntimeError(\"view_copy: the sizes' product passes int64\")";
    }
  }
  return "";
}

// aten's functional overload of a view-copy op, from the table's ExecuTorch
// operator (vocab/op_schema.h et_op): "aten::NAME.int_out" gives "NAME.int",
// "aten::unsqueeze_copy.out" gives "unsqueeze_copy.default".
std::string aten_functional_op(OpKind kind) {
  const std::string et_op = op_kind_info(kind).et_op;
  const size_t dot = et_op.rfind('.');
  std::string overload = dot == std::string::npos ? "" : et_op.substr(dot + 1);
  for (const char* suffix : {"_out", "out"})
    if (overload.size() >= std::strlen(suffix) &&
        overload.compare(overload.size() - std::strlen(suffix), std::string::npos, suffix) == 0) {
      overload.resize(overload.size() - std::strlen(suffix));
      break;
    }
  return std::string(op_kind_name(kind)) + "." + (overload.empty() ? "default" : overload);
}

std::string op_line(const Op& op, const ProgramInfo& info, int k, bool aten_copies = false) {
  const int src = info.ops[k].src;
  // The other view-copy ops, for the et-* backends: the aten *_copy op itself with
  // the schema's arguments, as slicefuzz_worker.py runs it (squeeze_copy is not in
  // their protocol: torch 1.13 has no squeeze_copy.dims).
  if (aten_copies && op_is_view_copy(op.kind) && op.kind != OpKind::SliceCopy && op.kind != OpKind::SqueezeCopy) {
    const std::string refusal = worker_refusal(op, info, src);
    if (!refusal.empty()) return refusal;
    return op.result + " = torch.ops.aten." + aten_functional_op(op.kind) + "(" + op.src + python_args(op) + ")";
  }
  switch (op.kind) {
    case OpKind::SliceCopy:
    case OpKind::Slice: {
      const auto& sizes = info.values[src].sizes;
      const int r = static_cast<int>(sizes.size());
      const int64_t d = op.dim < 0 ? op.dim + r : op.dim;
      const int64_t size = r > 0 && d >= 0 && d < r ? sizes[d] : 0;
      TorchSliceArgs a = adapt_slice_args_for_torch(size, op.start, op.end, op.step);
      if (aten_copies && op.kind == OpKind::SliceCopy)
        return op.result + " = torch.ops.aten.slice_copy.Tensor(" + op.src + ", " + std::to_string(op.dim) +
               ", " + py_opt(a.start) + ", " + py_opt(a.end) + ", " + std::to_string(a.step) + ")";
      return op.result + " = torch.ops.aten.slice(" + op.src + ", " + std::to_string(op.dim) +
             ", " + py_opt(a.start) + ", " + py_opt(a.end) + ", " + std::to_string(a.step) + ")" +
             (op.kind == OpKind::SliceCopy ? ".clone()" : "");
    }
    case OpKind::Select:
      return op.result + " = torch.ops.aten.select(" + op.src + ", " + std::to_string(op.dim) + ", " +
             std::to_string(op.index) + ")";
    case OpKind::SqueezeCopy:
      return op.result + " = squeeze_dims(" + op.src + ", " + list(op.ints) + ").clone()";
    case OpKind::ViewCopy:
      return op.result + " = torch.reshape(" + op.src + ", " + list(op.ints) + ").clone()";
    case OpKind::Clone:
      if (op.dim_order)
        return op.result + " = clone_dim_order(" + op.src + ", " +
               list(std::vector<int64_t>(op.dim_order->begin(), op.dim_order->end())) + ")";
      return op.result + " = " + op.src + ".clone()";
    case OpKind::AddOut:
      return op.result + " = add(" + op.src + ", " + std::to_string(op.scalar) + ")";
    case OpKind::MulOut:  // k cast to the dtype before f (mul_k_NAME below)
      return op.result + " = torch.mul(" + op.src + ", mul_k_" + op.result + ")";
    case OpKind::Relu: return op.result + " = torch.relu(" + op.src + ")";
    case OpKind::Sigmoid: return op.result + " = torch.sigmoid(" + op.src + ")";
    case OpKind::AddTensor:
    case OpKind::MulTensor: {  // one dtype, one size, as the worker checks (programs neither cast nor broadcast)
      const int other = info.ops[k].other;
      if (info.values[other].dtype != info.values[src].dtype || info.values[other].sizes != info.values[src].sizes)
        return std::string("raise RuntimeError('") + op_kind_name(op.kind) +
               ": dtypes or sizes differ (slicefuzz programs neither cast nor broadcast)')";
      return op.result + " = torch." + op_kind_name(op.kind) + "(" + op.src + ", " + op.other + ")";
    }
    case OpKind::Gelu: return op.result + " = torch.nn.functional.gelu(" + op.src + ")";
    case OpKind::IndexPut: {  // indices = [None] * dim + [index]
      const int64_t r = static_cast<int64_t>(info.values[src].sizes.size());
      const int64_t d = op.dim < 0 ? op.dim + r : op.dim;
      if (r > 0 && (d < 0 || d >= r))
        return "raise IndexError('index_put: dim " + std::to_string(op.dim) + " is out of range')";
      return op.result + " = torch.ops.aten.index_put(" + op.src + ", [None] * " + std::to_string(r > 0 ? d : 0) +
             " + [torch.tensor(" + list(op.ints) + ", dtype=torch.int64)], " + op.other + ")";
    }
    case OpKind::IndexCopy:
      return op.result + " = torch.index_copy(" + op.src + ", " + std::to_string(op.dim) + ", torch.tensor(" +
             list(op.ints) + ", dtype=torch.int64), " + op.other + ")";
    case OpKind::Add: return "add_(" + op.target + ", " + std::to_string(op.scalar) + ")";
    // As written (the worker runs the same line): torch is the judge of overlap.
    case OpKind::Copy:
      if (info.values[info.ops[k].target].dtype != info.values[src].dtype)  // after sigmoid promoted one
        return "raise RuntimeError('copy_: dtypes differ (slicefuzz programs do not cast)')";
      return op.target + ".copy_(" + op.src + ")";
    default: break;  // the rest: from the op table
  }
  // A view-copy op the table describes by its torch view: that view, cloned.
  const OpKindInfo& row = op_kind_info(op.kind);
  const std::string args = python_args(op);
  if (!op_is_view_copy(op.kind) || !row.torch_view[0])
    return "raise RuntimeError('slicefuzz: no torch line for " + std::string(row.name) + "')";
  return op.result + " = torch.ops.aten." + row.torch_view + "(" + op.src + args + ").clone()";
}

// Helpers only the ops that use them bring (a script without them is unchanged).
std::string helpers_for(const Case& c) {
  bool squeeze = false, clone_order = false;
  for (const Op& op : c.ops) {
    squeeze = squeeze || op.kind == OpKind::SqueezeCopy;
    clone_order = clone_order || (op.kind == OpKind::Clone && op.dim_order);
  }
  std::string s;
  if (squeeze)
    s += "def squeeze_dims(t, dims):  # torch 1.13 has no squeeze.dims: one dim at a time, highest first\n"
         "    span = max(t.dim(), 1)\n"
         "    listed = [d + span if d < 0 else d for d in dims]\n"
         "    if len(set(listed)) != len(listed):\n"
         "        raise RuntimeError('squeeze_copy: a dim appears more than once')\n"
         "    for d in sorted(listed, reverse=True):\n"
         "        t = t.squeeze(d)\n"
         "    return t\n\n\n";
  if (clone_order)
    s += "def clone_dim_order(t, dim_order):  # _clone_dim_order: a copy laid out in dim_order\n"
         "    inverse = [dim_order.index(d) for d in range(t.dim())]\n"
         "    out = torch.empty([t.shape[d] for d in dim_order], dtype=t.dtype).permute(inverse)\n"
         "    out.copy_(t)\n"
         "    return out\n\n\n";
  return s;
}
}  // namespace

bool exportable_worker(const Backend& b) {
  return b.name == "torch-fx-functionalize" || b.name == "torch-fx-reinplace" || et_pass_backend(b);
}

std::string export_python_worker(const Case& c, const ProgramInfo& info, const CaseSummary& finding,
                                 const Backend& backend) {
  const bool reinplace = backend.name == "torch-fx-reinplace";
  const bool et = et_pass_backend(backend);
  // Workers run cases of one input (runner.cpp: several are UNSUPPORTED there).
  const InputDecl& x = c.inputs[0];
  const TensorValue input = make_input_values(info)[0];
  const std::vector<int> order = x.effective_dim_order();
  std::vector<int64_t> permuted, inverse(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    permuted.push_back(x.sizes[order[i]]);
    inverse[order[i]] = static_cast<int64_t>(i);
  }
  std::string s = "#!/usr/bin/python3\n";
  s += "# Standalone reproducer (no slicefuzz code), backend " + backend.name + ".\n";
  if (et)
    s += "# Eager PyTorch vs ExecuTorch's own passes (" + et_pass_pipeline(backend) + "), loaded unmodified from an\n"
         "# ExecuTorch tree, on the edge graph of f. Usage: /usr/bin/python3 THIS [EXECUTORCH_SRC [OVERLAY]].\n";
  else
    s += "# Eager PyTorch vs make_fx(functionalize(f))" +
         std::string(reinplace ? " after torch.fx.passes.reinplace" : " (no pass)") + ".\n";
  if (finding.failed)
    s += "# slicefuzz: " + std::string(finding_kind_name(finding.kind)) + ": " + finding.message + "\n";
  s += "# The case:\n";
  std::string text = print_case(c);
  for (size_t p = 0, nl; p < text.size(); p = nl + 1) {
    nl = text.find('\n', p);
    s += "#   " + text.substr(p, nl - p) + "\n";
  }
  s += "import sys\nimport warnings\nwarnings.filterwarnings('ignore')\nimport torch\n"
       "from functorch import functionalize, make_fx\n";
  if (reinplace) s += "from torch.fx.passes.reinplace import reinplace\n";
  s += "\n\ndef make_input():\n";
  s += "    # " + x.name + ": the harness's input values, laid out with dim order " + list(std::vector<int64_t>(order.begin(), order.end())) + "\n";
  s += "    raw = bytearray.fromhex('" + to_hex(input.bytes) + "')\n";
  const char* dt = torch_dtype(input.dtype);
  if (input.bytes.empty())
    s += "    values = torch.empty(" + list(x.sizes) + ", dtype=" + dt + ")\n";
  else
    s += "    values = torch.frombuffer(raw, dtype=torch.uint8).view(" + std::string(dt) + ").reshape(" + list(x.sizes) + ")\n";
  s += "    x = torch.empty(" + list(permuted) + ", dtype=" + dt + ").permute(" + list(inverse) + ")\n";
  s += "    x.copy_(values)\n    return x\n\n\n";
  s += "def same_values(e, t):\n";
  if (c.has_inexact_ops())
    s += "    # sigmoid and gelu round differently on a strided operand (torch's scalar loop)\n"
         "    # than on a contiguous one (its vectorised kernel): values within a few ulps\n"
         "    # are the same value; slicefuzz's judge bounds each element exactly.\n"
         "    if e.is_floating_point() and e.dtype == t.dtype:\n"
         "        r = 3e-2 if e.dtype == torch.bfloat16 else 1e-5 if e.dtype == torch.float32 else 1e-12\n"
         "        return torch.allclose(e.double(), t.double(), rtol=r, atol=r, equal_nan=True)\n";
  s += "    return torch.equal(e, t)\n\n\n";
  s += "def add_(t, k):  # bool: addition mod 2 (torch refuses bool + int)\n"
       "    return (t.logical_not_() if k & 1 else t) if t.dtype == torch.bool else t.add_(k)\n\n\n"
       "def add(t, k):\n"
       "    return (torch.logical_not(t) if k & 1 else t.clone()) if t.dtype == torch.bool else torch.add(t, k)\n\n\n";
  s += helpers_for(c);
  std::string mul_ks;
  for (size_t k = 0; k < c.ops.size(); ++k) {  // k cast to the dtype of mul's operand
    const Op& op = c.ops[k];
    if (op.kind == OpKind::MulOut)
      mul_ks += "mul_k_" + op.result + " = torch.tensor(" + std::to_string(op.scalar) + ", dtype=torch.int64).to(" +
                torch_dtype(info.values[info.ops[k].src].dtype) +
                ").item()  # mul's k as torch casts it, outside the trace\n";
  }
  if (!mul_ks.empty()) s += mul_ks + "\n\n";
  s += "def f(" + x.name + "):\n";
  for (size_t k = 0; k < c.ops.size(); ++k) s += "    " + op_line(c.ops[k], info, static_cast<int>(k), et) + "\n";
  std::vector<std::string> others;
  for (const std::string& o : c.outputs)
    if (o != x.name) others.push_back(o);
  s += "    return (";
  for (const std::string& o : others) s += o + ".clone(), ";
  s += ")\n\n\n";
  s += "def outputs(x, results):  # the case's outputs; the input's is its final value\n"
       "    results = list(results)\n    return {\n";
  for (const std::string& o : c.outputs)
    s += "        '" + o + "': " + (o == x.name ? "x" : "results.pop(0)") + ",\n";
  s += "    }\n\n\n";
  // The program as PyTorch runs it first (the worker does the same): where eager
  // PyTorch refuses it (a copy_ between partly overlapping views), the graph of
  // it means nothing, and the judge expects that very error.
  s += "x = make_input()\ntry:\n    eager = outputs(x, f(x))\n"
       "except RuntimeError as e:\n"
       "    print('not reproduced: eager PyTorch refuses the program (%s)' % ' '.join(str(e).split())[:300])\n"
       "    sys.exit(0)\n";
  if (et) return s + et_pass_script_tail(backend);
  s += "gm = make_fx(functionalize(f))(make_input())\n"
       "print('---- traced: make_fx(functionalize(f))')\nprint(gm.code.strip())\n";
  if (reinplace)
    s += "gm = reinplace(gm, make_input())\n"
         "print('---- after torch.fx.passes.reinplace')\nprint(gm.code.strip())\n";
  // A graph that raises where eager PyTorch ran the program reproduces too: the
  // pass made an op eager PyTorch refuses (an in-place write overlapping its operand).
  s += "x = make_input()\ntry:\n    transformed = outputs(x, gm(x))\n"
       "except RuntimeError as e:\n"
       "    print('reproduced: the graph raises where eager PyTorch runs the program (%s)' % "
       "' '.join(str(e).split())[:300])\n"
       "    sys.exit(1)\n"
       "bad = 0\nfor name in eager:\n"
       "    e, t = eager[name], transformed[name]\n"
       "    same = e.shape == t.shape and same_values(e, t)\n"
       "    print('%s %s\\n  eager:       %s\\n  " + std::string(reinplace ? "reinplaced: " : "functional: ") +
       " %s' % ('ok  ' if same else 'DIFF', name, e.tolist(), t.tolist()))\n"
       "    bad += not same\n"
       "print('reproduced: %d output(s) differ' % bad if bad else 'not reproduced: eager and the graph agree')\n"
       "sys.exit(1 if bad else 0)\n";
  return s;
}

}  // namespace slicefuzz
