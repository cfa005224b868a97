// A dead job worker's sanitizer report, symbolized by the harness. The workers
// print their stacks unsymbolized (`symbolize=0`, harness/cli/main.cpp): ASan
// would otherwise start llvm-symbolizer afresh in every dying worker, which
// loads the binary's DWARF each time (42% of an executorch-portable campaign,
// whose kernels' known defects end a worker every fifteen cases; docs/design.md
// section 10, issue 37). One llvm-symbolizer kept alive by the harness answers
// every report instead, and the frames read as ASan's own ("#N 0xADDR in
// FUNCTION FILE:LINE:COL", inlined frames first), so signatures do not change.
#pragma once
#include <string>

namespace slicefuzz {

// `log` with every unsymbolized frame line ("#N 0xADDR  (MODULE+0xOFF) ...")
// replaced by its symbolized frames; a frame the symbolizer cannot name, or every
// frame when no symbolizer runs ($ASAN_SYMBOLIZER_PATH, else llvm-symbolizer on
// the PATH), stays as it was.
std::string symbolize_report(const std::string& log);

}  // namespace slicefuzz
