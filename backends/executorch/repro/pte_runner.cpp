// A standalone runner for a program exported by `slicefuzz export --pte`:
// ExecuTorch's API only, no slicefuzz code. It loads DIR/program.pte with
// Program::load (full verification), loads method "forward" over planned buffers
// of the sizes the program asks for, and runs the executions DIR/expected.txt
// lists, in order, on that one method: each sets every input with set_input from
// its file (the bytes in the input's own dim order) at the execution's sizes,
// executes the method, and compares every output with PyTorch's (row-major), or
// expects the error, or the refusal of an input past its bound, that
// expected.txt names. Prints each output beside the expected values; exits 1
// while the bug reproduces (a difference, an unexpected error, refusal or
// success), 0 when the program behaves as PyTorch does, 2 when the directory is
// unusable.
//
// The operators must be registered: inside an ExecuTorch checkout, link the
// portable kernels' generated registration (portable_ops_lib) and the prim ops
// (executorch/kernels/prim_ops); README "Reproducing a finding with a .pte".
#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/runtime.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace rt = executorch::runtime;
using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;

bool read_file(const std::string& path, std::vector<uint8_t>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// expected.txt (harness/cli/cli_export_pte.cpp): "executions N", then per
// execution "execution E", its inputs ("input K FILE SIZE..."), and what PyTorch
// says: "refused" (set_input must refuse an input past its bound), "error OP"
// (op OP fails) or "output K FILE" per output. A directory written before
// executions had blocks ("executions N", "error OP" or "output K", input_K.bin
// and expected_K.bin at the program's sizes) reads as N such executions.
struct InputFile {
  std::string file;
  std::vector<int32_t> sizes;  // empty: the program's own
  bool program_sizes = false;
};
struct Execution {
  std::vector<InputFile> inputs;
  bool refused = false;
  int error_op = -1;
  std::vector<std::string> outputs;
};

bool read_expected(const std::string& dir, size_t num_inputs, std::vector<Execution>& runs) {
  std::ifstream in(dir + "/expected.txt");
  if (!in) return false;
  int executions = 0;
  Execution legacy;  // the old format's one description of every execution
  bool blocks = false;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    Execution& e = blocks ? runs.back() : legacy;
    if (key == "executions") {
      words >> executions;
    } else if (key == "execution") {
      blocks = true;
      runs.emplace_back();
    } else if (key == "input" && blocks) {
      size_t k = 0;
      InputFile f;
      words >> k >> f.file;
      for (int32_t size; words >> size;) f.sizes.push_back(size);
      if (k != e.inputs.size() || f.file.empty()) return false;
      e.inputs.push_back(f);
    } else if (key == "refused") {
      e.refused = true;
    } else if (key == "error") {
      words >> e.error_op;
    } else if (key == "output") {
      size_t k = 0;
      std::string file;
      words >> k >> file;
      if (k != e.outputs.size()) return false;
      e.outputs.push_back(file.empty() ? "expected_" + std::to_string(k) + ".bin" : file);
    } else if (!key.empty()) {
      return false;
    }
  }
  if (!blocks) {
    for (size_t k = 0; k < num_inputs; ++k)
      legacy.inputs.push_back({"input_" + std::to_string(k) + ".bin", {}, true});
    runs.assign(executions > 0 ? executions : 0, legacy);
  }
  return executions > 0 && static_cast<size_t>(executions) == runs.size();
}

// A tensor's elements in row-major order of its sizes, whatever its dim order.
std::vector<uint8_t> row_major_bytes(const Tensor& t) {
  const size_t element = rt::elementSize(t.scalar_type());
  std::vector<uint8_t> out(static_cast<size_t>(t.numel()) * element);
  std::vector<int64_t> index(t.dim(), 0);
  const uint8_t* data = static_cast<const uint8_t*>(t.const_data_ptr());
  for (size_t n = 0; n < static_cast<size_t>(t.numel()); ++n) {
    int64_t offset = 0;
    for (int d = 0; d < t.dim(); ++d) offset += index[d] * t.strides()[d];
    std::memcpy(out.data() + n * element, data + offset * element, element);
    for (int d = t.dim() - 1; d >= 0; --d) {
      if (++index[d] < t.size(d)) break;
      index[d] = 0;
    }
  }
  return out;
}

void print_values(const char* label, const std::vector<uint8_t>& bytes, ScalarType type) {
  const size_t element = rt::elementSize(type);
  std::printf("  %-9s", label);
  for (size_t i = 0; i * element < bytes.size() && i < 16; ++i) {
    const uint8_t* p = bytes.data() + i * element;
    switch (type) {
      case ScalarType::Float: { float v; std::memcpy(&v, p, 4); std::printf(" %g", v); break; }
      case ScalarType::Double: { double v; std::memcpy(&v, p, 8); std::printf(" %g", v); break; }
      case ScalarType::Long: { int64_t v; std::memcpy(&v, p, 8); std::printf(" %" PRId64, v); break; }
      case ScalarType::Int: { int32_t v; std::memcpy(&v, p, 4); std::printf(" %d", v); break; }
      case ScalarType::Short: { int16_t v; std::memcpy(&v, p, 2); std::printf(" %d", v); break; }
      case ScalarType::Char: std::printf(" %d", static_cast<int8_t>(*p)); break;
      default: {
        std::printf(" 0x");
        for (size_t b = element; b-- > 0;) std::printf("%02x", p[b]);
      }
    }
  }
  std::printf("%s\n", bytes.size() > 16 * element ? " ..." : "");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR (written by slicefuzz export --pte)\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  rt::runtime_init();
  std::vector<uint8_t> pte;
  std::vector<Execution> runs;
  if (!read_file(dir + "/program.pte", pte) || !read_expected(dir, 0, runs)) {
    std::fprintf(stderr, "%s: no program.pte or a malformed expected.txt\n", dir.c_str());
    return 2;
  }
  executorch::extension::BufferDataLoader loader(pte.data(), pte.size());
  rt::Result<rt::Program> program = rt::Program::load(&loader, rt::Program::Verification::InternalConsistency);
  if (!program.ok()) {
    std::printf("REPRODUCES: Program::load refused the program (error 0x%x)\n",
                static_cast<unsigned>(program.error()));
    return 1;
  }
  rt::Result<rt::MethodMeta> meta = program->method_meta("forward");
  if (!meta.ok()) return std::printf("REPRODUCES: no method 'forward'\n"), 1;
  runs.clear();
  if (!read_expected(dir, meta->num_inputs(), runs)) {
    std::fprintf(stderr, "%s: a malformed expected.txt\n", dir.c_str());
    return 2;
  }
  // Planned buffers as the program asks for them.
  std::vector<std::unique_ptr<uint8_t[]>> storage;
  std::vector<rt::Span<uint8_t>> buffers;
  for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
    const size_t n = static_cast<size_t>(meta->memory_planned_buffer_size(i).get());
    storage.emplace_back(new uint8_t[n ? n : 1]());
    buffers.emplace_back(storage.back().get(), n);
  }
  rt::HierarchicalAllocator planned({buffers.data(), buffers.size()});
  std::vector<uint8_t> pool(size_t{4} << 20);
  rt::MemoryAllocator method_allocator(static_cast<uint32_t>(pool.size()), pool.data());
  rt::MemoryManager memory(&method_allocator, &planned);
  rt::Result<rt::Method> method = program->load_method("forward", &memory);
  if (!method.ok()) {
    std::printf("REPRODUCES: load_method refused the program (error 0x%x)\n", static_cast<unsigned>(method.error()));
    return 1;
  }
  bool reproduces = false;
  for (size_t run = 0; run < runs.size(); ++run) {
    const Execution& expected = runs[run];
    const int number = static_cast<int>(run) + 1;
    if (expected.inputs.size() != method->inputs_size()) {
      std::fprintf(stderr, "execution %d: %zu inputs in expected.txt, the program has %zu\n", number,
                   expected.inputs.size(), method->inputs_size());
      return 2;
    }
    // Fresh input memory at every execution (a shared, unplanned input then
    // lives elsewhere each time, as a deployed method's caller's buffers may),
    // at the execution's sizes in the input's own dim order.
    const size_t n = method->inputs_size();
    std::vector<std::vector<uint8_t>> input_bytes(n);
    std::vector<std::vector<int32_t>> sizes(n);
    std::vector<std::vector<uint8_t>> orders(n);
    std::vector<std::vector<int32_t>> strides(n);
    std::vector<std::unique_ptr<TensorImpl>> impls;
    std::string refused;
    for (size_t k = 0; k < n && refused.empty(); ++k) {
      rt::Result<rt::TensorInfo> info = meta->input_tensor_meta(k);
      if (!info.ok() || !read_file(dir + "/" + expected.inputs[k].file, input_bytes[k])) {
        std::fprintf(stderr, "input %zu: no tensor or no %s\n", k, expected.inputs[k].file.c_str());
        return 2;
      }
      if (expected.inputs[k].program_sizes)
        sizes[k].assign(info->sizes().begin(), info->sizes().end());
      else
        sizes[k] = expected.inputs[k].sizes;
      orders[k].assign(info->dim_order().begin(), info->dim_order().end());
      size_t numel = 1;
      for (int32_t s : sizes[k]) numel *= static_cast<size_t>(s < 0 ? 0 : s);
      if (sizes[k].size() != orders[k].size() || numel * rt::elementSize(info->scalar_type()) != input_bytes[k].size())
        return std::fprintf(stderr, "input %zu: %s does not hold its sizes\n", k, expected.inputs[k].file.c_str()), 2;
      strides[k].resize(sizes[k].size());
      if (!sizes[k].empty() &&
          rt::dim_order_to_stride(sizes[k].data(), orders[k].data(), sizes[k].size(), strides[k].data()) !=
              rt::Error::Ok)
        return std::fprintf(stderr, "input %zu: bad dim order\n", k), 2;
      input_bytes[k].resize(std::max<size_t>(input_bytes[k].size(), 1));
      impls.push_back(std::make_unique<TensorImpl>(info->scalar_type(), static_cast<ssize_t>(sizes[k].size()),
                                                   sizes[k].data(), input_bytes[k].data(), orders[k].data(),
                                                   strides[k].data()));
      const rt::Error e = method->set_input(rt::EValue(Tensor(impls.back().get())), k);
      if (e != rt::Error::Ok) {
        char why[96];
        std::snprintf(why, sizeof why, "set_input(%zu) refused it (error 0x%x)", k, static_cast<unsigned>(e));
        refused = why;
      }
    }
    if (expected.refused) {
      // An input past its bound (program.fbs: each dim at runtime at most its
      // bound's) must be refused where the inputs are set; nothing runs.
      if (refused.empty()) {
        std::printf("REPRODUCES: execution %d: set_input accepted every input, but one lies past its bound:",
                    number);
        for (size_t k = 0; k < n; ++k) {
          rt::Result<rt::TensorInfo> info = meta->input_tensor_meta(k);
          std::printf(" input %zu [", k);
          for (size_t d = 0; d < sizes[k].size(); ++d) std::printf("%s%d", d ? ", " : "", sizes[k][d]);
          std::printf("] (bound [");
          for (size_t d = 0; info.ok() && d < info->sizes().size(); ++d)
            std::printf("%s%d", d ? ", " : "", info->sizes()[d]);
          std::printf("])");
        }
        std::printf("\n");
        reproduces = true;
      } else {
        std::printf("execution %d: %s, as an input past its bound must be\n", number, refused.c_str());
      }
      continue;
    }
    if (!refused.empty()) {
      std::printf("REPRODUCES: execution %d: %s; PyTorch runs it\n", number, refused.c_str());
      reproduces = true;
      break;
    }
    const rt::Error e = method->execute();
    if (expected.error_op >= 0) {
      if (e == rt::Error::Ok) {
        std::printf("REPRODUCES: execution %d ran, but PyTorch refuses op %d\n", number, expected.error_op);
        reproduces = true;
      } else {
        std::printf("execution %d: refused (error 0x%x), as PyTorch refuses op %d\n", number,
                    static_cast<unsigned>(e), expected.error_op);
      }
      continue;
    }
    if (e != rt::Error::Ok) {
      std::printf("REPRODUCES: execution %d failed (error 0x%x); PyTorch runs it\n", number, static_cast<unsigned>(e));
      reproduces = true;
      continue;
    }
    for (size_t i = 0; i < method->outputs_size() && i < expected.outputs.size(); ++i) {
      std::vector<uint8_t> want;
      if (!read_file(dir + "/" + expected.outputs[i], want))
        return std::fprintf(stderr, "output %zu: no %s\n", i, expected.outputs[i].c_str()), 2;
      const Tensor out = method->get_output(i).toTensor();
      const std::vector<uint8_t> got = row_major_bytes(out);
      const bool same = got == want;
      std::printf("execution %d, output %zu: %s\n", number, i, same ? "as PyTorch" : "DIFFERS from PyTorch");
      print_values("got", got, out.scalar_type());
      print_values("expected", want, out.scalar_type());
      reproduces |= !same;
    }
  }
  std::printf(reproduces ? "REPRODUCES\n" : "as PyTorch: does not reproduce\n");
  return reproduces ? 1 : 0;
}
