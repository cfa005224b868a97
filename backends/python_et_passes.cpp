// The et-* backends: ExecuTorch's own Python alias passes, run unmodified from an
// ExecuTorch tree by backends/python/et_pass_worker.py (README "ExecuTorch's
// Python passes"). The tree is $SLICEFUZZ_EXECUTORCH_SRC, else the one the build
// was configured with; files newer than it come from $SLICEFUZZ_EXECUTORCH_OVERLAY
// (else the build's), searched first. A backend whose upstream files are not in
// those trees is not listed; its unavailable_backends() entry names the file.
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/worker_protocol.h"

namespace slicefuzz {

namespace {

std::string setting(const char* env, const char* at_build) {
  const char* e = std::getenv(env);
  return e && *e ? e : at_build;
}

bool is_file(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The overlay's copy of `rel` if it has one, else the tree's; "" if neither has it.
std::string resolve(const std::string& rel, const std::string& src, const std::string& overlay) {
  if (!overlay.empty() && is_file(overlay + "/" + rel)) return overlay + "/" + rel;
  if (!src.empty() && is_file(src + "/" + rel)) return src + "/" + rel;
  return "";
}

struct EtPipeline {
  const char* backend;
  const char* pipeline;  // et_pass_worker.py --pipeline
  const char* description;
  std::vector<const char*> files;  // the upstream files it executes
};

const std::vector<EtPipeline>& pipelines() {
  static const std::vector<EtPipeline> p = {
      {"et-edge-control", "edge-control",
       "no pass: the edge graph the et-* backends build (make_fx(functionalize) with edge ops, "
       "meta[\"val\"] and a graph signature) run as it is; the control for the et-* backends",
       {}},
      {"et-native-delegate", "native-delegate",
       "the native delegate's get_default_passes() (CollapseViewCopyPass, CSEPass, NativeReinplacePass "
       "over relu/gelu/sigmoid/index_put/index_copy) then ReplaceCopyWithAliasPass (PR 22762), run with "
       "true torch views",
       {"backends/native/passes/__init__.py", "backends/native/passes/reinplace.py",
        "backends/native/passes/replace_copy_with_alias.py", "exir/passes/reinplace.py",
        "exir/passes/cse_pass.py", "exir/operator/convert.py"}},
      {"et-aoti-view", "aoti-view",
       "AOTI's ReplaceViewCopyWithViewPass (slice_copy -> slice, select_copy -> select; PR 15136)",
       {"backends/aoti/passes/replace_view_copy_with_view.py"}},
      {"et-exir-reinplace", "exir-reinplace", "exir's reinplace_pass with its default op set (index_put)",
       {"exir/passes/reinplace.py", "exir/operator/convert.py"}},
      {"et-exir-reinplace-index-copy", "exir-reinplace-index-copy",
       "exir's reinplace_pass with index_copy added to its default set",
       {"exir/passes/reinplace.py", "exir/operator/convert.py"}},
      {"et-view-copy-to-view", "view-copy-to-view",
       "exir's ReplaceViewCopyWithViewPass (view_copy -> et_view, the pass issue 10917 cites)",
       {"exir/passes/replace_view_copy_with_view_pass.py"}},
      {"et-to-executorch", "to-executorch",
       "to_executorch's order with run_reinplace_pass=True: reinplace_pass, then exir's "
       "ReplaceViewCopyWithViewPass",
       {"exir/passes/reinplace.py", "exir/passes/replace_view_copy_with_view_pass.py"}},
  };
  return p;
}

struct EtFault {
  const char* backend;
  const char* pipeline;
  const char* fault;  // et_pass_worker.py --fault
  const char* what;
};

const std::vector<EtFault>& faults() {
  static const std::vector<EtFault> f = {
      {"faulty-et-native-delegate-alias-offset", "native-delegate", "alias-offset",
       "every slice alias starting one element late"},
      {"faulty-et-aoti-view-alias-offset", "aoti-view", "alias-offset",
       "every slice alias starting one element late"},
      {"faulty-et-exir-reinplace-relu-inplace", "exir-reinplace", "relu-inplace",
       "every relu of an intermediate made relu_, whether it is read later or not"},
  };
  return f;
}

// The worker protocol's ops (backends/worker_protocol.h), but a narrow_copy of a
// value in another dim order than the default: torch 1.13's aten::narrow_copy is
// silently wrong on a non-contiguous CPU input (pytorch/pytorch issue 91690, fixed
// by PR 91789 after 1.13), so the worker's own program would be.
std::string outside_et_worker(const Case& c, const ProgramInfo& info) {
  if (std::string why = outside_worker_protocol_ops(c); !why.empty()) return why;
  for (size_t k = 0; k < c.ops.size(); ++k) {
    const Op& op = c.ops[k];
    if (op.kind == OpKind::NarrowCopy && k < info.ops.size() && info.ops[k].src >= 0 &&
        info.ops[k].src < static_cast<int>(info.values.size())) {
      // A dim order is a permutation (the analysis checked it): sorted = the default.
      const std::vector<int>& order = info.values[info.ops[k].src].dim_order;
      if (!std::is_sorted(order.begin(), order.end()))
        return "narrow_copy of a value not in the default dim order (torch 1.13's aten::narrow_copy is "
                 "wrong on non-contiguous CPU inputs: pytorch/pytorch issue 91690)";
    }
  }
  return "";
}

}  // namespace

void add_et_pass_backends(std::vector<Backend>& out) {
  const std::string src = setting("SLICEFUZZ_EXECUTORCH_SRC", SLICEFUZZ_EXECUTORCH_SRC_AT_BUILD);
  const std::string overlay = setting("SLICEFUZZ_EXECUTORCH_OVERLAY", SLICEFUZZ_EXECUTORCH_OVERLAY_AT_BUILD);
  const char* py = std::getenv("SLICEFUZZ_PYTHON");
  const std::string python = py && *py ? py : "/usr/bin/python3";
  const std::string script = std::string(SLICEFUZZ_SOURCE_DIR) + "/backends/python/et_pass_worker.py";
  for (const EtPipeline& p : pipelines()) {
    if (src.empty()) {
      unavailable_backends().push_back({p.backend, "no ExecuTorch tree (set SLICEFUZZ_EXECUTORCH_SRC)"});
      continue;
    }
    std::string missing;
    for (const char* f : p.files)
      if (missing.empty() && resolve(f, src, overlay).empty()) missing = f;
    if (!missing.empty()) {
      unavailable_backends().push_back(
          {p.backend, missing + " is in neither " + src + (overlay.empty() ? "" : " nor " + overlay)});
      continue;
    }
    Backend b{p.backend,
              std::string(p.description) +
                  " (out of process; ExecuTorch's unmodified Python files on torch 1.13 with "
                  "shims; the whole program is compared with the judge)",
              {}};
    b.worker_command = {python, script, "--pipeline", p.pipeline, "--executorch-src", src};
    if (!overlay.empty()) b.worker_command.insert(b.worker_command.end(), {"--overlay", overlay});
    b.eager_ops = true;
    b.outside_limits = &outside_et_worker;
    out.push_back(b);
    // The self-test's faulty variants (ci/selftest.py): a bug planted after the
    // upstream passes ran (et_pass_worker.py `fault`); they share the backend's
    // known findings, which are upstream's, not the planted bug.
    for (const EtFault& f : faults())
      if (f.pipeline == std::string(p.pipeline)) {
        Backend fb = b;
        fb.name = f.backend;
        fb.description = std::string("DELIBERATELY FAULTY (self-test): ") + p.backend + " with " + f.what;
        fb.worker_command.insert(fb.worker_command.end(), {"--fault", f.fault});
        fb.known_findings_of = p.backend;
        out.push_back(std::move(fb));
      }
  }
}

}  // namespace slicefuzz
