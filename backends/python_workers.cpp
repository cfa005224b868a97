// Out-of-process backends (backend.h `worker_command`): the Python workers in
// backends/python/, run with Debian's interpreter (the one with torch 1.13), and
// any worker a user names in $SLICEFUZZ_WORKERS without rebuilding:
//   SLICEFUZZ_WORKERS='my-pass=/usr/bin/python3 /path/my_worker.py;other=...'
#include <cstdlib>
#include <sstream>

#include "backends/backend.h"
#include "backends/worker_protocol.h"

namespace slicefuzz {

namespace {
std::string python() {
  const char* p = std::getenv("SLICEFUZZ_PYTHON");
  return p && *p ? p : "/usr/bin/python3";
}

// The worker protocol's ops (backends/worker_protocol.h): a case with another
// op is UNSUPPORTED, never a worker crash.
std::string outside_worker_protocol(const Case& c, const ProgramInfo&) { return outside_worker_protocol_ops(c); }

Backend worker_backend(std::string name, std::string description,
                       std::vector<std::string> command) {
  Backend b{std::move(name), std::move(description), {}};
  b.worker_command = std::move(command);
  b.eager_ops = true;
  b.outside_limits = &outside_worker_protocol;
  return b;
}
}  // namespace

void add_python_backends(std::vector<Backend>& out) {
  const std::string script = std::string(SLICEFUZZ_SOURCE_DIR) + "/backends/python/torch_fx_worker.py";
  const char* na = " (out of process; the whole program is compared with the judge, "
                   "pass/planner/rewrite checks do not apply)";
  out.push_back(worker_backend(
      "torch-fx-functionalize",
      std::string("the case as eager PyTorch, traced with make_fx(functionalize(f)), no pass: "
                  "the control") + na,
      {python(), script, "--pass", "none"}));
  out.push_back(worker_backend(
      "torch-fx-reinplace",
      std::string("make_fx(functionalize(f)) after torch.fx.passes.reinplace") + na,
      {python(), script, "--pass", "reinplace"}));
  // User workers: NAME=COMMAND (split on spaces), separated by ';'.
  if (const char* env = std::getenv("SLICEFUZZ_WORKERS")) {
    std::istringstream all(env);
    for (std::string entry; std::getline(all, entry, ';');) {
      const size_t eq = entry.find('=');
      if (eq == std::string::npos || eq == 0) continue;
      std::istringstream words(entry.substr(eq + 1));
      std::vector<std::string> argv;
      for (std::string w; words >> w;) argv.push_back(w);
      if (!argv.empty())
        out.push_back(worker_backend(entry.substr(0, eq),
                                     "user worker from $SLICEFUZZ_WORKERS: " + entry.substr(eq + 1) + na,
                                     argv));
    }
  }
}

}  // namespace slicefuzz
