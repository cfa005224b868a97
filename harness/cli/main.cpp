// slicefuzz: differential testing of slice_copy -> et_slice against libtorch.
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

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

// Whether the command line holds --no-isolate, read from /proc/self/cmdline: ASan
// asks for its options while it starts, before main has argv, its shadow memory
// or its interceptors, so nothing here may be instrumented or call libc's string
// functions (raw system calls and plain loops only).
__attribute__((no_sanitize("address", "undefined"))) bool started_with_no_isolate() {
  static char cmdline[1 << 16];
  const long fd = syscall(SYS_openat, AT_FDCWD, "/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  long n = 0;
  for (long got = 1; got > 0 && n < static_cast<long>(sizeof cmdline) - 1; n += got > 0 ? got : 0)
    got = syscall(SYS_read, fd, cmdline + n, sizeof cmdline - 1 - static_cast<size_t>(n));
  syscall(SYS_close, fd);
  static const char kFlag[] = "--no-isolate";
  for (long i = 0; i < n;) {
    long j = 0;
    while (kFlag[j] && i + j < n && cmdline[i + j] == kFlag[j]) ++j;
    if (!kFlag[j] && (i + j == n || cmdline[i + j] == '\0')) return true;  // the whole argument
    while (i < n && cmdline[i] != '\0') ++i;
    ++i;
  }
  return false;
}

}  // namespace

// UBSan reports carry a stack, so its findings get a root-cause frame like
// ASan's (harness/triage/signature.h). Still overridable with UBSAN_OPTIONS.
// halt_on_error: code built with recoverable checks (ExecuTorch, see
// backends/executorch/CMakeLists.txt) must still end the worker at its first report.
// handle_abort: a system under test that aborts (ExecuTorch's ET_CHECK) leaves a
// stack in the worker's log, so its signature names the frame, not "no-sut-frame".
// symbolize=0: a job worker's report is symbolized by the harness, with one
// llvm-symbolizer kept alive (harness/run/report_symbolizer.h), not by a fresh one
// in every dying worker. With --no-isolate no harness outlives the report, so
// ASan symbolizes its own. ASAN_OPTIONS still overrides either.
extern "C" __attribute__((no_sanitize("address", "undefined"))) const char* __asan_default_options() {
  return started_with_no_isolate() ? "handle_abort=1" : "handle_abort=1:symbolize=0";
}
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
