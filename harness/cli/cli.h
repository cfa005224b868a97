// The slicefuzz verbs. Each returns the process exit code.
#pragma once
#include <string>

namespace slicefuzz {

int cli_check(int argc, char** argv);
int cli_gen(int argc, char** argv);
int cli_backends(int argc, char** argv);
int cli_explain(int argc, char** argv);
int cli_minimize(int argc, char** argv);
int cli_export(int argc, char** argv);
// `export --pte` (cli_export_pte.cpp), called by cli_export with its parsed arguments.
class CliArgs;
struct CommonOptions;
int cli_export_pte(const CliArgs& args, const CommonOptions& common, const std::string& file,
                   const std::string& text);
int cli_run(int argc, char** argv);
int cli_triage(int argc, char** argv);

}  // namespace slicefuzz
