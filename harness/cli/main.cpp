// slicefuzz: differential testing of slice_copy -> et_slice against libtorch.
#include <cstdio>
#include <cstring>
#include <string>

#include "harness/cli/cli.h"

namespace {

constexpr const char* kUsage =
    "usage: slicefuzz VERB [options]\n"
    "  check FILE|DIR...              run cases; PASS/FAIL per case, then 'N passed, N failed'\n"
    "  gen --count N --seed S --out DIR   write generated cases\n"
    "  run --time S | --count N [--seed S] [--out DIR]   a generator-driven campaign\n"
    "  minimize FILE -o OUT [--time S]    shrink a failing case, keeping its finding\n"
    "  export --python|--gtest FILE [-o OUT]   a standalone reproducer\n"
    "  export --pte FILE -o DIR [--mode planned|runtime-op]   the program as an ExecuTorch .pte\n"
    "  triage FILE...                 signature, kind, file, message per failing file\n"
    "  explain FILE [--json] [--svg OUT]  decisions, memory plan and per-path comparison\n"
    "  backends                       list the systems under test\n"
    "options for every verb: --backend NAME (default reference, or $SLICEFUZZ_BACKEND),\n"
    "  --max-bytes N (per-case tensor budget, default 67108864), --jobs N (worker\n"
    "  processes), --timeout S (per case, default 30), --no-isolate (run in-process)\n";

struct Verb {
  const char* name;
  int (*fn)(int, char**);
};
constexpr Verb kVerbs[] = {
    {"check", slicefuzz::cli_check},
    {"gen", slicefuzz::cli_gen},
    {"backends", slicefuzz::cli_backends},
    {"explain", slicefuzz::cli_explain},
    {"minimize", slicefuzz::cli_minimize},
    {"export", slicefuzz::cli_export},
    {"run", slicefuzz::cli_run},
    {"triage", slicefuzz::cli_triage},
};

}  // namespace

// UBSan reports carry a stack, so its findings get a root-cause frame like
// ASan's (harness/triage/signature.h). Still overridable with UBSAN_OPTIONS.
// halt_on_error: code built with recoverable checks (ExecuTorch, see
// backends/executorch/CMakeLists.txt) must still end the worker at its first report.
// handle_abort: a system under test that aborts (ExecuTorch's ET_CHECK) leaves a
// stack in the worker's log, so its signature names the frame, not "no-sut-frame".
extern "C" const char* __asan_default_options() { return "handle_abort=1"; }
extern "C" const char* __ubsan_default_options() { return "print_stacktrace=1:halt_on_error=1"; }

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  for (const Verb& v : kVerbs)
    if (!std::strcmp(argv[1], v.name)) return v.fn(argc - 2, argv + 2);
  std::fprintf(stderr, "slicefuzz: unknown verb '%s'\n%s", argv[1], kUsage);
  return 2;
}
