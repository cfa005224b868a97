// `slicefuzz export --python`: the reproducer anyone with Debian's python3-torch
// can run. It rebuilds the case with copy semantics and prints the expected
// values; given the backend's rewrite (export.h), it replays the rewrite path with
// torch views and exits 1 while the rewrite's bug shows. A version-1 case gets
// the script it always had; a case that needs version 2 gets the per-value-layout
// form (export_python_text.h), whose ops are written here from the op table.
#include <map>

#include "harness/export/export.h"
#include "harness/export/export_python_parts.h"
#include "harness/export/export_python_text.h"
#include "oracles/values.h"
#include "vocab/case_format.h"
#include "oracles/parse_case.h"

namespace slicefuzz {

namespace {

using export_text::comment_block;
using export_text::finding_line;
namespace text = export_python_text;

// Case names are identifiers but may be Python keywords or the script's own names.
std::string py(const std::string& name) { return "v_" + name; }

std::string py_opt(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "None"; }

std::string py_list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string py_str(const std::string& s) { return "'" + s + "'"; }  // names: identifiers

std::string py_op_tuple(const Op& op) {
  switch (op.kind) {
    case OpKind::SliceCopy:
      return "('slice_copy', " + py_str(op.result) + ", " + py_str(op.src) + ", " +
             std::to_string(op.dim) + ", " + py_opt(op.start) + ", " + py_opt(op.end) + ", " +
             std::to_string(op.step) + ")";
    case OpKind::Clone: return "('clone', " + py_str(op.result) + ", " + py_str(op.src) + ")";
    case OpKind::Add: return "('add_', " + py_str(op.target) + ", " + std::to_string(op.scalar) + ")";
    case OpKind::Copy: return "('copy_', " + py_str(op.target) + ", " + py_str(op.src) + ")";
    default: break;  // version-1 scripts hold version-1 ops only (layouts_form decides)
  }
  return "()";
}

// Per-value layouts: the arguments an op's Python function takes after its
// source, in the order of its schema (vocab/op_schema.h). A dim order is not
// among them: every copy op is told its result's (py_result_order).
std::vector<std::string> py_args(const Op& op) {
  std::vector<std::string> args;
  for (const ArgSpec& a : op_kind_info(op.kind).args) {
    switch (a.kind) {
      case ArgKind::Scalar:
      case ArgKind::Int: args.push_back(std::to_string(op_int(op, a.slot))); break;
      case ArgKind::OptInt: args.push_back(py_opt(op_opt_int(op, a.slot))); break;
      case ArgKind::IntList:
      case ArgKind::DimList: args.push_back(py_list(op.ints)); break;
      case ArgKind::Tensor:  // copy_'s source: written by the caller
      case ArgKind::NamedTensor:  // index_copy's source: written by the caller
      case ArgKind::DimOrder: break;
    }
  }
  return args;
}

// The view of a view-copy op whose torch 1.13 view needs help, as a Python
// function written out in export_python_layouts_text.cpp (its quirk entry);
// nullptr: torch's own view op, which the table names.
const char* written_view(OpKind k) {
  switch (k) {
    case OpKind::SliceCopy: return "slice_view";      // huge ints through the domain adapter
    case OpKind::SqueezeCopy: return "squeeze_view";  // torch 1.13 has no squeeze.dims
    case OpKind::ViewCopy: return "reshape_view";     // reshape, where torch's view refuses
    default: return nullptr;
  }
}

// Per-value layouts: the Python of every view-copy op, from the op table
// (vocab/op_schema.h): `SCHEMA_VIEWS[kind](t, *args)` is torch's view (the op the
// table names, or the op's written view), and the op copies it into its result's
// dim order. A result past rank 16 raises (within_rank: ExecuTorch's limit, which
// the case language keeps; torch 1.13 allows 64).
std::string schema_ops_python() {
  std::string views = "# View-copy ops described by slicefuzz's op table: torch's view of each.\nSCHEMA_VIEWS = {\n";
  std::string defs;
  for (const OpKindInfo& row : kOpKinds) {
    const char* written = written_view(row.kind);
    if (!op_is_view_copy(row.kind) || (!written && !row.torch_view[0])) continue;
    const std::string view = written ? std::string(written) : "torch.ops.aten." + std::string(row.torch_view);
    views += "    '" + std::string(row.name) + "': lambda t, *args: " + view + "(t, *args),\n";
    std::string params, names;
    for (const ArgSpec& a : row.args) {
      if (a.kind == ArgKind::DimOrder || a.kind == ArgKind::Tensor || a.kind == ArgKind::NamedTensor) continue;
      params += std::string(a.name) + ", ";
      names += std::string(names.empty() ? "" : ", ") + a.name;
    }
    defs += "\n\ndef " + std::string(row.name) + "(t, " + params + "dim_order):\n    \"\"\"aten::" +
            row.name + " with copy semantics: " + view + ", copied.\"\"\"\n" +
            "    return into(within_rank('" + row.name + "', SCHEMA_VIEWS['" + row.name + "'](t, " + names +
            ")), dim_order)\n";
  }
  return views + "}\n" + defs + "\n\n";
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

// The dim order a defining op's result is laid out in: the judge's layout
// (program_info.h), or clone's dim_order as written (so that a bad one fails in
// the script too). "None" where the layout is unknown (the op must fail).
std::string py_result_order(const Op& op, const ProgramInfo* info, int k) {
  std::vector<int64_t> order;
  if (op.kind == OpKind::Clone && op.dim_order) {
    order.assign(op.dim_order->begin(), op.dim_order->end());
    return py_list(order);
  }
  if (!info || k >= static_cast<int>(info->ops.size())) return "None";
  const int r = info->ops[k].result;
  if (r < 0 || !info->values[r].known) return "None";
  order.assign(info->values[r].dim_order.begin(), info->values[r].dim_order.end());
  return py_list(order);
}

// Per-value layouts: one op as a line of the script, `v_y = view_copy(v_x, [2, 3],
// [0, 1])`. Copy ops are named as in the op table; the eager ops' functions are
// view_slice, view_select, add_out and mul_out (`slice` would shadow Python's builtin).
std::string py_layout_call(const Op& op, const ProgramInfo* info, int k) {
  std::vector<std::string> args = py_args(op);
  switch (op.kind) {
    case OpKind::Add: return "add_(" + py(op.target) + ", " + join(args, ", ") + ")";
    case OpKind::Copy: return "copy_(" + py(op.target) + ", " + py(op.src) + ")";
    case OpKind::Slice:
    case OpKind::Select:
    case OpKind::AddOut:
    case OpKind::MulOut:
    case OpKind::Relu:
    case OpKind::Sigmoid:
    case OpKind::Gelu: {
      const char* fn = op.kind == OpKind::Slice ? "view_slice"
                       : op.kind == OpKind::Select ? "view_select"
                       : op.kind == OpKind::Relu ? "torch.relu"
                       : op.kind == OpKind::Sigmoid ? "torch.sigmoid"
                       : op.kind == OpKind::Gelu ? "torch.nn.functional.gelu"
                       : op.kind == OpKind::MulOut ? "mul_out" : "add_out";
      args.insert(args.begin(), py(op.src));
      return py(op.result) + " = " + fn + "(" + join(args, ", ") + ")";
    }
    case OpKind::AddTensor:  // one dtype and one size; a case whose operands differ fails at this op
    case OpKind::MulTensor:
      return py(op.result) + " = torch." + op_kind_name(op.kind) + "(" + py(op.src) + ", " + py(op.other) + ")";
    case OpKind::IndexCopy:  // the index as the int64 tensor torch takes
      return py(op.result) + " = torch.index_copy(" + py(op.src) + ", " + args[0] + ", torch.tensor(" +
             args[1] + ", dtype=torch.int64), " + py(op.other) + ")";
    case OpKind::IndexPut:  // indices = [None] * dim + [index]
      return py(op.result) + " = index_put_at(" + py(op.src) + ", " + args[0] + ", " + args[1] + ", " +
             py(op.other) + ")";
    default: break;  // every copy op: its function by the table's name, told its dim order
  }
  args.insert(args.begin(), py(op.src));
  args.push_back(py_result_order(op, info, k));
  return py(op.result) + " = " + op_kind_name(op.kind) + "(" + join(args, ", ") + ")";
}

// Per-value layouts: the replay's op tuple (kind, defined or mutated value,
// source, arguments, result dim order).
std::string py_layout_tuple(const Op& op, const ProgramInfo& info, int k) {
  const std::vector<std::string> args = py_args(op);
  const std::string tuple_args = "(" + join(args, ", ") + (args.size() == 1 ? ",)" : ")");
  const bool defines = op_defines(op.kind);
  return "(" + py_str(op_kind_name(op.kind)) + ", " + py_str(defines ? op.result : op.target) +
         ", " + (op.kind == OpKind::Add ? "None" : py_str(op.src)) + ", " + tuple_args + ", " +
         (defines ? py_result_order(op, &info, k) : "None") + ")";
}

// Per-value layouts: every input's sizes, dim order, dtype and first fill index
// (values.h: input k's fill starts where input k-1's ends).
std::string inputs_table(const Case& c, const ProgramInfo* info) {
  const std::vector<int64_t> starts = info ? input_fill_starts(*info) : std::vector<int64_t>{};
  std::string s = "# input: (sizes, dim order, dtype, first fill index)\nINPUTS = {\n";
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    const InputDecl& in = c.inputs[k];
    std::vector<int64_t> order;
    for (int d : in.effective_dim_order()) order.push_back(d);
    s += "    " + py_str(in.name) + ": (" + py_list(in.sizes) + ", " + py_list(order) + ", torch." +
         std::string(scalar_type_name(c.input_dtype(k))) + ", " +
         std::to_string(k < starts.size() ? starts[k] : 0) + "),\n";
  }
  return s + "}\n";
}

// The alias prim op that made `value` an alias (from the op table), "alias" when
// the pass aliased an op that has none.
std::string alias_prim_of(const Case& c, const ProgramInfo& info, int value) {
  const int def = info.values[value].def_op;
  if (def < 0 || def >= static_cast<int>(c.ops.size()) || !op_is_view_copy(c.ops[def].kind))
    return "alias";
  return op_alias_prim(c.ops[def].kind);
}

// The tables the replay reads: the backend's plan, with each alias where its
// alias prim op really put it when the rewrite path could be executed.
std::string replay_tables(const Case& c, const ProgramInfo& info, const RewriteReplay& r,
                          bool layouts) {
  const RewritePlan& rw = r.plans.rewrite;
  const MemoryPlan& plan = r.plans.plan;
  // A constant's placement is in the program's own bytes (its offset is from
  // its constant root): the script lays the constants out past the arena.
  std::map<int, int64_t> constant_base;
  int64_t constant_bytes = 0;
  const int64_t arena_end = (plan.arena_bytes + 63) / 64 * 64;
  for (const TensorPlacement& t : plan.tensors)
    if (t.constant && t.value == t.root && !constant_base.count(t.root)) {
      constant_base[t.root] = arena_end + constant_bytes;
      constant_bytes += (t.nbytes + 63) / 64 * 64;
    }
  auto script_offset = [&](const TensorPlacement& t) {
    return t.constant && constant_base.count(t.root) ? constant_base[t.root] + t.offset : t.offset;
  };
  std::map<int, int64_t> offset_of;
  for (const TensorPlacement& t : plan.tensors) offset_of[t.value] = script_offset(t);
  std::string s = "\n# The rewrite the backend's pass and planner made (asked by slicefuzz export).\n";
  if (layouts) s += "# An op: (kind, value it defines or mutates, source, arguments, result dim order)\n";
  s += "OPS = [\n";
  for (size_t k = 0; k < c.ops.size(); ++k)
    s += "    " + (layouts ? py_layout_tuple(c.ops[k], info, static_cast<int>(k)) : py_op_tuple(c.ops[k])) + ",\n";
  s += "]\nOP_TEXT = ops\n";
  if (!layouts) s += "INPUT = " + py_str(c.inputs[0].name) + "\n";  // the layouts form has INPUTS
  s += "OUTPUTS = [";
  for (size_t i = 0; i < c.outputs.size(); ++i) s += (i ? ", " : "") + py_str(c.outputs[i]);
  s += "]\n# value: (root storage, arena byte offset, nbytes, first step, last step)\n";
  s += "PLACEMENT = {\n";
  std::string aliased;
  for (const TensorPlacement& t : plan.tensors) {
    if (t.value < 0 || static_cast<size_t>(t.value) >= info.values.size() ||
        t.root < 0 || static_cast<size_t>(t.root) >= info.values.size())
      continue;
    int64_t offset = script_offset(t);
    std::string note;
    if (rw.is_alias(t.value)) {
      const std::string prim = alias_prim_of(c, info, t.value);
      aliased += py_str(info.values[t.value].name) + (layouts ? ": " + py_str(prim) : "") + ", ";
      if (static_cast<size_t>(t.value) < r.executed.size() && r.executed[t.value] &&
          offset_of.count(t.root)) {
        offset = offset_of[t.root] + r.executed_delta[t.value];
        if (r.executed_delta[t.value] != rw.delta_bytes[t.value])
          note = "  # " + (layouts ? prim : std::string("et_slice")) +
                 " put it here; the pass planned +" + std::to_string(rw.delta_bytes[t.value]) +
                 " bytes";
      }
    }
    s += "    " + py_str(info.values[t.value].name) + ": (" + py_str(info.values[t.root].name) +
         ", " + std::to_string(offset) + ", " + std::to_string(t.nbytes) + ", " +
         std::to_string(t.first_step) + ", " + std::to_string(t.last_step) + ")," + note +
         (t.constant && t.value == t.root ? "  # a constant: the program's bytes, past the arena" : "") +
         "\n";
  }
  if (layouts)
    s += "}\nALIASED = {" + aliased + "}  # values the pass made aliases: their alias prim op\n";
  else
    s += "}\nALIASED = " + (aliased.empty() ? std::string("set()") : "{" + aliased + "}") +
         "  # values the pass made et_slice aliases\n";
  s += "ARENA_BYTES = " + std::to_string(plan.arena_bytes) + "\n";
  if (layouts) {
    // The bytes past ARENA_BYTES the constants take (from the arena's aligned end).
    s += "CONSTANT_BYTES = " + std::to_string(constant_bytes ? arena_end - plan.arena_bytes + constant_bytes : 0) + "\n";
    s += "CONSTANTS = [";
    for (const InputDecl& in : c.inputs)
      if (in.constant) s += py_str(in.name) + ", ";
    s += "]  # the program's constants: never planned in the arena\n";
    s += "# alias: the bytes it covered as executed (its sizes as its alias prim op set them)\n";
    s += "EXECUTED_NBYTES = {";
    for (size_t v = 0; v < r.executed_nbytes.size() && v < info.values.size(); ++v)
      if (rw.is_alias(static_cast<int>(v)) && r.executed_nbytes[v] >= 0)
        s += py_str(info.values[v].name) + ": " + std::to_string(r.executed_nbytes[v]) + ", ";
    s += "}\n";
  }
  s += "COPY_ONLY_ARENA_BYTES = " + std::to_string(r.plans.copy_plan.arena_bytes) + "\n";
  s += std::string("NEVER_GROWS_ARENA = ") + (r.never_grows_arena ? "True" : "False") + "\n";
  if (r.executed.empty())
    s += "# The rewrite path could not be executed: aliases sit at the pass's deltas.\n";
  else if (r.called_directly)
    s += "# The rewrite path died before its end: each alias sits where its alias prim op\n"
         "# put it when called directly.\n";
  return s;
}

}  // namespace

namespace export_python_parts {

std::string script_intro(const Case& c, const CaseSummary& f, const std::string& backend, bool replay,
                         const std::string& what) {
  std::string s = "#!/usr/bin/python3\n";
  // Debian's interpreter by absolute path: another python3 first on PATH has no
  // torch (DESIGN section 7).
  s += "# slicefuzz reproducer. Run with Debian's python3-torch (torch 1.13):\n";
  s += "#   /usr/bin/python3 THIS_FILE\n";
  s += what;
  if (replay)
    s += " Then it replays the rewrite the backend made with torch views\n"
         "# (as_strided over one arena storage, aliases at their root's offset + delta) and\n"
         "# exits 1 while the replay differs from copy semantics (0 once it agrees).";
  s += "\n# The system under test (backend '" + backend + "') reported:\n";
  s += comment_block(finding_line(f), "#   ");
  s += "# The case:\n" + comment_block(print_case(c), "#   ") + "\n";
  return s;
}

std::string op_functions(bool layouts) {
  std::string s = text::kHead;
  if (layouts) {
    s += text::kLayoutOps;
    s += text::kInPlaceOps;
    s += text::kCloneAndEagerOps;
    s += schema_ops_python();
  } else {
    s += text::kSliceCopyV1;
    s += text::kInPlaceOps;
    s += text::kCloneV1;
  }
  return s;
}

std::string copy_semantics(const Case& c, const ProgramInfo* info, bool layouts, const std::string& label) {
  std::string s;
  if (layouts) {
    s += inputs_table(c, info);
    for (const InputDecl& in : c.inputs) s += py(in.name) + " = make_input(*INPUTS[" + py_str(in.name) + "])\n";
  }
  s += "ops = [\n";
  for (size_t i = 0; i < c.ops.size(); ++i)
    s += "    " + std::string("'''") + print_op(c.ops[i]) + "''',\n";
  s += "]\n";
  s += "step = 0\nraised = False\ntry:\n";
  for (size_t i = 0; i < c.ops.size(); ++i) {
    const Op& op = c.ops[i];
    s += "    step = " + std::to_string(i) + "\n    ";
    if (layouts) {
      s += py_layout_call(op, info, static_cast<int>(i)) + "\n";
      continue;
    }
    switch (op.kind) {
      case OpKind::SliceCopy:
        s += py(op.result) + " = slice_copy(" + py(op.src) + ", " + std::to_string(op.dim) + ", " +
             py_opt(op.start) + ", " + py_opt(op.end) + ", " + std::to_string(op.step) + ")\n";
        break;
      case OpKind::Clone: s += py(op.result) + " = clone(" + py(op.src) + ")\n"; break;
      case OpKind::Add: s += "add_(" + py(op.target) + ", " + std::to_string(op.scalar) + ")\n"; break;
      case OpKind::Copy: s += "copy_(" + py(op.target) + ", " + py(op.src) + ")\n"; break;
      default: s += "pass  # not a version-1 op\n"; break;  // unreachable: layouts is set
    }
  }
  if (c.ops.empty()) s += "    pass\n";
  const std::string prefix = label.empty() ? "" : label + ": ";
  s += "except Exception as e:  # the op must fail in every path\n";
  s += "    print('" + prefix + "expected: op %d `%s` raises: %s' % (step, ops[step], str(e).splitlines()[0]))\n";
  s += "    raised = True\n\n";
  s += "torch.set_printoptions(precision=10, threshold=10000)\n";
  s += "if not raised:\n";
  for (const std::string& o : c.outputs)
    s += "    print('" + prefix + "expected " + o + ":', list(" + py(o) + ".shape), " + py(o) +
         ".contiguous().flatten().tolist())\n";
  if (c.outputs.empty()) s += "    pass\n";
  return s;
}

std::string replay_tables_for(const Case& c, const ProgramInfo& info, const RewriteReplay& r, bool layouts) {
  return replay_tables(c, info, r, layouts);
}

std::string replay_functions(bool layouts) {
  std::string s;
  if (layouts) {
    s += text::kCanonicalStrides;
    s += text::kFirstDifference;
    s += text::kRunCopy;
    s += text::kPoison;
    s += text::kReplay;
    s += text::kReplayStepChecks;
    s += text::kReplayOutputs;
  } else {
    s += text::kCanonicalStridesV1;
    s += text::kFirstDifference;
    s += text::kRunCopyV1;
    s += text::kPoison;
    s += text::kReplayV1;
    s += text::kReplayStepChecks;
    s += text::kReplayOutputsV1;
  }
  return s + text::kReplayArenaCheck;
}

}  // namespace export_python_parts

namespace parts = export_python_parts;

std::string export_python(const Case& c, const CaseSummary& f, const std::string& backend,
                          const RewriteReplay* replay) {
  ParseResult parsed = parse_case(print_case(c), "export");
  if (!parsed.ok) replay = nullptr;  // no value table to name the plan's tensors
  // Values in layouts of their own (or eager views): the per-value-layout form.
  const bool layouts = c.min_version() >= 2;
  // Eager programs run copy semantics nowhere in the system under test (their
  // backends are out of process or refuse them): nothing to replay.
  if (c.has_eager_ops()) replay = nullptr;
  std::string s = parts::script_intro(
      c, f, backend, replay != nullptr,
      "# It rebuilds the case in PyTorch with copy semantics and prints what every\n"
      "# output must be.");
  s += parts::op_functions(layouts);
  const ProgramInfo* info = parsed.ok ? &parsed.info : nullptr;
  if (!layouts) {  // version 1: one input in the case's dtype
    const InputDecl& x = c.inputs[0];
    s += "DTYPE = torch." + std::string(scalar_type_name(c.dtype)) + "\n";
    s += "SIZES = " + py_list(x.sizes) + "\n";
    std::vector<int64_t> order;
    for (int d : x.effective_dim_order()) order.push_back(d);
    s += "DIM_ORDER = " + py_list(order) + "\n";
    s += "FINDING = " + std::string("'''") + finding_line(f) + "'''\n\n";
    s += py(x.name) + " = empty_with_dim_order(SIZES, DIM_ORDER, DTYPE)\n";
    s += py(x.name) + ".copy_(fill(" + py(x.name) + ".numel(), DTYPE).reshape(SIZES))\n";
  } else {
    s += "FINDING = " + std::string("'''") + finding_line(f) + "'''\n";
  }
  s += parts::copy_semantics(c, info, layouts, "");
  if (!replay) {
    s += "print('slicefuzz finding:', FINDING)\n";
    return s;
  }
  s += replay_tables(c, parsed.info, *replay, layouts);
  s += parts::replay_functions(layouts);
  s += "problems = replay()\n";
  s += text::kReplayVerdict;
  return s;
}

}  // namespace slicefuzz
