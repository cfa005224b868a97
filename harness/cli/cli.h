// The slicefuzz verbs. Each returns the process exit code.
#pragma once

namespace slicefuzz {

int cli_check(int argc, char** argv);
int cli_gen(int argc, char** argv);
int cli_backends(int argc, char** argv);
int cli_explain(int argc, char** argv);
int cli_minimize(int argc, char** argv);
int cli_export(int argc, char** argv);
int cli_run(int argc, char** argv);
int cli_triage(int argc, char** argv);

}  // namespace slicefuzz
