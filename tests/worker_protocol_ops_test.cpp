// backends/worker_protocol.h, the one gate of the worker backends' ops, against
// what the Python side really parses (backends/python/slicefuzz_worker.py): the
// op kinds it admits are OP_FORMS's names, and for each of them a committed case
// that uses it, sent as the runner sends it, is parsed by the worker into the
// same ops. A kind admitted that the worker cannot parse would crash every
// worker backend on it; a kind the worker parses that the gate refuses is
// coverage thrown away.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "backends/worker_protocol.h"
#include "vocab/case_format.h"

namespace slicefuzz {
namespace {

namespace fs = std::filesystem;
const std::string kSource = SLICEFUZZ_SOURCE_DIR;

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The op names of OP_FORMS, in its order.
std::vector<std::string> op_forms_names() {
  const std::string py = read_file(kSource + "/backends/python/slicefuzz_worker.py");
  const size_t begin = py.find("OP_FORMS = [");
  const size_t end = py.find("\n]\n", begin);
  std::vector<std::string> names;
  if (begin == std::string::npos || end == std::string::npos) return names;
  const std::string block = py.substr(begin, end - begin);
  const std::regex form("\\(\"(\\w+)\", re\\.compile");
  for (auto it = std::sregex_iterator(block.begin(), block.end(), form); it != std::sregex_iterator(); ++it)
    names.push_back((*it)[1]);
  return names;
}

std::set<std::string> admitted_names() {
  std::set<std::string> names;
  for (const OpKindInfo& row : kOpKinds)
    if (in_worker_protocol(row.kind)) names.insert(row.name);
  return names;
}

TEST(WorkerProtocolOps, TheGateAdmitsExactlyTheOpsTheWorkerParses) {
  const std::vector<std::string> forms = op_forms_names();
  ASSERT_FALSE(forms.empty()) << "no OP_FORMS in slicefuzz_worker.py";
  const std::set<std::string> parsed(forms.begin(), forms.end());
  EXPECT_EQ(parsed, admitted_names());
}

TEST(WorkerProtocolOps, TheWorkerParsesACommittedCaseOfEveryAdmittedOp) {
  // One static case per admitted kind (the first by path that the gate admits),
  // printed as runner.cpp sends it: the one input's dtype as the default.
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(kSource + "/corpus"))
    if (e.is_regular_file() && e.path().extension() == ".case") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::map<std::string, std::pair<std::string, std::string>> sample;  // kind -> (file, text sent)
  for (const fs::path& file : files) {
    CaseSyntax s = parse_case_syntax(read_file(file.string()), file.string());
    if (!s.ok || s.c.is_dynamic() || s.c.has_constants() || !outside_worker_protocol_ops(s.c).empty()) continue;
    Case sent = s.c;
    sent.dtype = s.c.input_dtype(0);
    sent.inputs[0].dtype.reset();
    for (const Op& op : s.c.ops) sample.emplace(op_kind_name(op.kind), std::make_pair(file.string(), print_case(sent)));
  }
  char dir_template[] = "/tmp/slicefuzz-protocol-test-XXXXXX";
  const char* dir = mkdtemp(dir_template);
  ASSERT_NE(dir, nullptr);
  // The worker's parse of each, one line per case: its op kinds, space-separated.
  std::string script = "import sys\nsys.path.insert(0, '" + kSource + "/backends/python')\nimport slicefuzz_worker\n";
  std::vector<std::string> kinds;
  for (const auto& [kind, file_text] : sample) {
    const std::string path = std::string(dir) + "/" + kind + ".case";
    std::ofstream(path) << file_text.second;
    script += "print(' '.join(op[0] for op in slicefuzz_worker.parse_case(open('" + path + "').read())['ops']))\n";
    kinds.push_back(kind);
  }
  const std::string script_path = std::string(dir) + "/parse.py";
  std::ofstream(script_path) << script;
  std::string out;
  if (FILE* p = popen(("/usr/bin/python3 " + script_path + " 2>&1").c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    EXPECT_EQ(pclose(p), 0) << out;
  }
  fs::remove_all(dir);

  for (const std::string& name : admitted_names())
    EXPECT_TRUE(sample.count(name)) << "no committed static case of one input uses " << name
                                    << " (add one under corpus/ so the worker's parse of it is tested)";
  std::istringstream lines(out);
  size_t i = 0;
  for (std::string line; std::getline(lines, line) && i < kinds.size(); ++i) {
    CaseSyntax s = parse_case_syntax(sample[kinds[i]].second);
    std::string expected;
    for (const Op& op : s.c.ops) expected += (expected.empty() ? "" : " ") + std::string(op_kind_name(op.kind));
    EXPECT_EQ(line, expected) << "the worker's parse of " << sample[kinds[i]].first;
  }
  EXPECT_EQ(i, kinds.size()) << out;
}

}  // namespace
}  // namespace slicefuzz
