// The client side of the out-of-process backend protocol (README, "Out-of-process
// backends"): a persistent worker per command, per process, started on first use
// and restarted after it times out, dies or answers garbage. A forked harness
// worker keeps its own (harness/run/line_process.h: the child dies with its
// parent, and only the process that started it talks to it).
#pragma once
#include <string>
#include <vector>

#include "vocab/path_result.h"

namespace slicefuzz {

struct WorkerAnswer {
  enum class Status { Ok, Timeout, Crash, Protocol } status = Status::Ok;
  PathResult path;                  // Ok: an error at op K, or one value per output
  std::vector<std::string> names;   // Ok: the output names, as the worker gave them
  std::vector<std::string> text;    // Ok for `graph` and `diagnose`: the worker's text lines
  std::string cause;                // Ok for `diagnose`: the change to blame, "" for `cause none`
  std::string detail;               // otherwise: what went wrong, in words
  std::string log;                  // the worker's stderr tail (Crash, Timeout, Protocol)
};

// Sends `verb` ("run", "graph" or "diagnose") with the case text and the input's row-major
// bytes, and reads the answer. Never throws, never waits longer than
// `timeout_s` (plus the worker's start-up, bounded on its own).
WorkerAnswer ask_worker(const std::vector<std::string>& command, const std::string& verb,
                        const std::string& case_text, const TensorValue& input,
                        double timeout_s);

// The per-case timeout: $SLICEFUZZ_WORKER_TIMEOUT seconds, default 10 (below the
// harness's own --timeout, so a hang is this worker's TIMEOUT, not the harness's).
double worker_timeout_seconds();

// Hex of bytes and back (the protocol's `hex` form).
std::string to_hex(const std::vector<uint8_t>& bytes);
bool from_hex(const std::string& hex, std::vector<uint8_t>& out);

}  // namespace slicefuzz
