#include "harness/export.h"

#include <cctype>

#include "program/case_format.h"

namespace slicefuzz {

namespace {

// Case names are identifiers but may be Python keywords or the script's own names.
std::string py(const std::string& name) { return "v_" + name; }

std::string py_opt(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "None"; }

std::string py_list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string finding_line(const CaseSummary& f) {
  if (!f.failed) return "no finding (the case passed when exported)";
  std::string s = std::string(finding_kind_name(f.kind)) + ": " + f.message;
  for (char& ch : s)
    if (ch == '\n') ch = ' ';
  return s;
}

std::string comment_block(const std::string& text, const char* prefix) {
  std::string out;
  size_t b = 0;
  while (b <= text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    if (e > b) out += prefix + text.substr(b, e - b) + "\n";
    b = e + 1;
  }
  return out;
}

constexpr const char* kPythonPrelude = R"py(import sys
import torch

torch.set_num_threads(1)


def fill(n, dtype):
    """slicefuzz's documented input fill, by row-major element index i."""
    i = torch.arange(n, dtype=torch.int64)
    if dtype == torch.bool:
        return i % 3 == 1
    if dtype == torch.uint8:
        return (i % 251).to(dtype)
    if dtype in (torch.int8, torch.bfloat16):
        return (i % 251 - 125).to(torch.float32 if dtype == torch.bfloat16 else torch.int64).to(dtype)
    if dtype == torch.int16:
        return (i % 32749 - 16374).to(dtype)
    if dtype in (torch.int32, torch.int64):
        return i.to(dtype)
    if dtype == torch.float16:
        return ((i % 2039 - 1019).to(torch.float32) / 2).to(dtype)
    if dtype == torch.float32:
        return (i % (1 << 22)).to(torch.float32) + 0.5
    return i.to(torch.float64) + 0.25


def empty_with_dim_order(sizes, dim_order, dtype):
    """A fresh tensor whose memory order is dim_order (outermost first)."""
    permuted = [sizes[d] for d in dim_order]
    inverse = [0] * len(dim_order)
    for i, d in enumerate(dim_order):
        inverse[d] = i
    return torch.empty(permuted, dtype=dtype).permute(inverse)


def slice_copy(t, dim, start, end, step):
    """aten::slice_copy with copy semantics. libtorch 1.13 cannot take every int64,
    so start/end are clamped into [-(size+1), size+1] and step into [1, max(size, 1)]
    first: equivalent values (slicefuzz's oracle-domain adapter)."""
    size = t.size(dim) if t.dim() > 0 and -t.dim() <= dim < t.dim() else 0
    clamp = lambda v: None if v is None else max(-(size + 1), min(size + 1, v))
    if step > 0:
        step = min(step, max(size, 1))
    view = torch.ops.aten.slice(t, dim, clamp(start), clamp(end), step)
    out = empty_with_dim_order(list(view.shape), DIM_ORDER, t.dtype)
    out.copy_(view)
    return out


def add_(t, k):
    if t.dtype == torch.bool:  # slicefuzz defines bool add_ as addition mod 2
        if k & 1:
            t.logical_not_()
    else:
        t.add_(k)


def copy_(dst, src):
    if list(dst.shape) != list(src.shape):
        raise RuntimeError("copy_: sizes differ (slicefuzz programs do not broadcast)")
    dst.copy_(src.clone())


def clone(t):
    out = empty_with_dim_order(list(t.shape), DIM_ORDER, t.dtype)
    out.copy_(t)
    return out

)py";

}  // namespace

std::string export_python(const Case& c, const CaseSummary& f, const std::string& backend) {
  std::string s = "#!/usr/bin/python3\n";
  // Debian's interpreter by absolute path: another python3 first on PATH has no
  // torch (DESIGN section 7).
  s += "# slicefuzz reproducer. Run with Debian's python3-torch (torch 1.13):\n";
  s += "#   /usr/bin/python3 THIS_FILE\n";
  s += "# It rebuilds the case in PyTorch with copy semantics and prints what every\n";
  s += "# output must be. The system under test (backend '" + backend + "') got instead:\n";
  s += comment_block(finding_line(f), "#   ");
  s += "# The case:\n" + comment_block(print_case(c), "#   ") + "\n";
  s += kPythonPrelude;
  s += "DTYPE = torch." + std::string(scalar_type_name(c.dtype)) + "\n";
  s += "SIZES = " + py_list(c.sizes) + "\n";
  std::vector<int64_t> order;
  for (int d : c.effective_dim_order()) order.push_back(d);
  s += "DIM_ORDER = " + py_list(order) + "\n";
  s += "FINDING = " + std::string("'''") + finding_line(f) + "'''\n\n";
  s += py(c.input) + " = empty_with_dim_order(SIZES, DIM_ORDER, DTYPE)\n";
  s += py(c.input) + ".copy_(fill(" + py(c.input) + ".numel(), DTYPE).reshape(SIZES))\n";
  s += "ops = [\n";
  for (size_t i = 0; i < c.ops.size(); ++i)
    s += "    " + std::string("'''") + print_op(c.ops[i]) + "''',\n";
  s += "]\n";
  s += "step = 0\ntry:\n";
  for (size_t i = 0; i < c.ops.size(); ++i) {
    const Op& op = c.ops[i];
    s += "    step = " + std::to_string(i) + "\n    ";
    switch (op.kind) {
      case OpKind::SliceCopy:
        s += py(op.result) + " = slice_copy(" + py(op.src) + ", " + std::to_string(op.dim) + ", " +
             py_opt(op.start) + ", " + py_opt(op.end) + ", " + std::to_string(op.step) + ")\n";
        break;
      case OpKind::Clone: s += py(op.result) + " = clone(" + py(op.src) + ")\n"; break;
      case OpKind::Add: s += "add_(" + py(op.target) + ", " + std::to_string(op.scalar) + ")\n"; break;
      case OpKind::Copy: s += "copy_(" + py(op.target) + ", " + py(op.src) + ")\n"; break;
    }
  }
  if (c.ops.empty()) s += "    pass\n";
  s += "except Exception as e:  # the op must fail in every path\n";
  s += "    print('expected: op %d `%s` raises: %s' % (step, ops[step], str(e).splitlines()[0]))\n";
  s += "    print('slicefuzz finding:', FINDING)\n    sys.exit(0)\n\n";
  s += "torch.set_printoptions(precision=10, threshold=10000)\n";
  for (const std::string& o : c.outputs)
    s += "print('expected " + o + ":', list(" + py(o) + ".shape), " + py(o) +
         ".contiguous().flatten().tolist())\n";
  s += "print('slicefuzz finding:', FINDING)\n";
  return s;
}

std::string export_gtest(const Case& c, const CaseSummary& f, const std::string& backend,
                         const std::string& test_name) {
  std::string name;
  for (char ch : test_name) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) name = "Case_" + name;
  std::string s;
  s += "// slicefuzz reproducer (gtest). Finding on backend '" + backend + "':\n";
  s += comment_block(finding_line(f), "//   ");
  s += "// To build and run it, copy this file into tests/ of a slicefuzz checkout as\n";
  s += "// " + name + "_test.cpp; ci/test.sh builds every tests/*_test.cpp and runs it.\n";
  s += "// The test fails while the finding reproduces.\n";
  s += "#include <gtest/gtest.h>\n\n#include <string>\n\n";
  s += "#include \"backends/backend.h\"\n#include \"harness/runner.h\"\n";
  s += "#include \"program/case_format.h\"\n\n";
  s += "TEST(SlicefuzzReproducer, " + name + ") {\n";
  s += "  const char* kCase = R\"slicefuzz(" + print_case(c) + ")slicefuzz\";\n";
  s += "  slicefuzz::ParseResult p = slicefuzz::parse_case(kCase, \"" + name + ".case\");\n";
  s += "  ASSERT_TRUE(p.ok) << p.error;\n";
  s += "  const slicefuzz::Backend* backend = slicefuzz::find_backend(\"" + backend + "\");\n";
  s += "  ASSERT_NE(backend, nullptr) << \"backend '" + backend + "' is not registered\";\n";
  s += "  slicefuzz::CaseReport report = slicefuzz::run_case(p.c, p.info, *backend, {});\n";
  s += "  const slicefuzz::Finding* f = report.first_failure();\n";
  s += "  EXPECT_EQ(f, nullptr) << (f ? std::string(slicefuzz::finding_kind_name(f->kind)) + \" (\" +\n";
  s += "                                    f->path + \" path): \" + f->message\n";
  s += "                              : std::string());\n";
  s += "}\n";
  return s;
}

}  // namespace slicefuzz
