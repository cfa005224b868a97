// `export --python` for the et-* backends (backends/python_et_passes.cpp): the
// script's tail after the eager function. It embeds the torch 1.13 stand-ins,
// the loader, the edge-graph builder and the pipelines (backends/python/et_*.py,
// read from beside the backend's worker script, so the script needs no slicefuzz
// checkout), loads ExecuTorch's pass files unmodified from the trees given on its
// command line (default: the ones the export was made with), runs them in
// upstream's order and compares every output with eager PyTorch's.
#include <fstream>
#include <sstream>

#include "harness/export/export_worker.h"

namespace slicefuzz {

namespace {

// The value after `flag` in the backend's worker command, or "".
std::string worker_arg(const Backend& b, const char* flag) {
  for (size_t i = 0; i + 1 < b.worker_command.size(); ++i)
    if (b.worker_command[i] == flag) return b.worker_command[i + 1];
  return "";
}

std::string worker_script(const Backend& b) { return b.worker_command.size() > 1 ? b.worker_command[1] : ""; }

std::string py_str(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' || ch == '\\' ? std::string("\\") + ch : std::string(1, ch);
  return out + "'";
}

}  // namespace

bool et_pass_backend(const Backend& b) {
  const std::string script = worker_script(b);
  return script.size() >= 17 && script.compare(script.size() - 17, 17, "et_pass_worker.py") == 0 &&
         worker_arg(b, "--fault").empty();  // a planted fault exists only in the worker
}

std::string et_pass_pipeline(const Backend& b) { return worker_arg(b, "--pipeline"); }

std::string et_pass_script_tail(const Backend& b) {
  const std::string script = worker_script(b);
  const std::string dir = script.substr(0, script.rfind('/') + 1);
  std::string s =
      "\n# The torch 1.13 stand-ins, the loader of ExecuTorch's files, the edge-graph builder and\n"
      "# the pipelines (slicefuzz's backends/python/et_*.py, embedded: this script needs torch\n"
      "# and the ExecuTorch trees only).\n"
      "import types\n_EMBEDDED = {}\n";
  for (const char* name : {"et_torch113_shims", "et_upstream_loader", "et_edge_program", "et_pipelines"}) {
    std::ifstream in(dir + name + ".py");
    std::stringstream text;
    text << in.rdbuf();
    if (!in || text.str().find("'''") != std::string::npos)
      return s + "raise SystemExit('slicefuzz export: cannot embed " + dir + name + ".py')\n";
    s += "_EMBEDDED['" + std::string(name) + "'] = r'''" + text.str() + "'''\n";
  }
  s += "for _name, _text in _EMBEDDED.items():\n"
       "    _m = types.ModuleType(_name)\n"
       "    sys.modules[_name] = _m\n"
       "    exec(compile(_text, _name + '.py', 'exec'), _m.__dict__)\n"
       "import et_edge_program, et_pipelines, et_upstream_loader  # noqa: E402\n\n";
  s += "SRC = sys.argv[1] if len(sys.argv) > 1 else " + py_str(worker_arg(b, "--executorch-src")) + "\n";
  s += "OVERLAY = sys.argv[2] if len(sys.argv) > 2 else " + py_str(worker_arg(b, "--overlay")) + "\n";
  s += "PIPELINE = " + py_str(et_pass_pipeline(b)) + "\n";
  s += "et_upstream_loader.install(SRC, OVERLAY or None)\n"
       "stages = et_pipelines.load_pipeline(PIPELINE)\n"
       "ep, n = et_edge_program.build(f, make_input())\n"
       "print('---- edge graph (make_fx(functionalize(f)), edge ops)')\n"
       "print('\\n'.join(et_edge_program.code(ep)))\n"
       "ep = et_pipelines.run_stages(ep, stages)\n"
       "print('---- after ' + PIPELINE)\n"
       "print('\\n'.join(et_edge_program.code(ep)))\n"
       "for _mod, _path, _sha in et_upstream_loader.LOADED:\n"
       "    print('ran %s (sha256 %s)' % (_path, _sha[:16]))\n"
       "x = make_input()\n"
       "try:\n"
       "    transformed = outputs(x, et_edge_program.run(ep, n, x))\n"
       "except RuntimeError as e:  # eager PyTorch ran the program; the rewritten graph raises\n"
       "    print('RAISES after ' + PIPELINE + ': ' + ' '.join(str(e).split())[:300])\n"
       "    print('reproduced: the passes\\' graph raises where eager PyTorch ran the program')\n"
       "    sys.exit(1)\n"
       "bad = 0\nfor name in eager:\n"
       "    e, t = eager[name], transformed[name]\n"
       "    same = e.shape == t.shape and same_values(e, t)\n"
       "    print(('%s %s\\n  eager:      %s\\n  ' + PIPELINE + ': %s') % ('ok  ' if same else 'DIFF', name, e.tolist(), t.tolist()))\n"
       "    bad += not same\n"
       "print('reproduced: %d output(s) differ' % bad if bad else 'not reproduced: eager and the passes agree')\n"
       "sys.exit(1 if bad else 0)\n";
  return s;
}

}  // namespace slicefuzz
