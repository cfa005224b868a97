// `slicefuzz gen --count N --seed S --out DIR`: generated cases as .case files.
// `slicefuzz gen --index I --seed S --out DIR`: exactly case I of seed S, the
// case `run --seed S` ran as case I (both call generate_case_within(S, I, limits)).
#include <cstdio>
#include <filesystem>

#include "generators/generate.h"
#include "harness/cli/cli.h"
#include "harness/cli/cli_common.h"
#include "vocab/case_format.h"

namespace slicefuzz {

int cli_gen(int argc, char** argv) {
  CliArgs args;
  CommonOptions common;
  if (!parse_common(args, argc, argv, {"--count", "--seed", "--out", "--index", "--format-version"}, {}, common))
    return 2;
  constexpr const char* kGenUsage =
      "usage: slicefuzz gen --count N --seed S --out DIR [--format-version V]\n"
      "       slicefuzz gen --index I --seed S --out DIR   (case I of seed S, as `run` makes it)\n";
  int64_t count = -1, seed = 0, index = -1;
  int version = kDefaultGeneratedVersion;
  std::string error;
  if (!args.get_int("--count", count, error) || !args.get_int("--seed", seed, error) ||
      !args.get_int("--index", index, error) || !get_format_version(args, version, error)) {
    std::fprintf(stderr, "slicefuzz gen: %s\n%s", error.c_str(), kGenUsage);
    return 2;
  }
  // The seed is required: a silent default would make "the cases I generated"
  // irreproducible from the command line someone pastes.
  if (!args.has("--seed")) error = "--seed S is required";
  else if (args.has("--count") == args.has("--index")) error = "give one of --count N and --index I";
  else if (args.has("--count") && count < 0) error = "--count must be >= 0, got " + std::to_string(count);
  else if (args.has("--index") && index < 0) error = "--index must be >= 0, got " + std::to_string(index);
  else if (!args.get("--out")) error = "--out DIR is required";
  else if (!args.positional().empty()) error = "unexpected argument '" + args.positional()[0] + "'";
  if (!error.empty()) {
    std::fprintf(stderr, "slicefuzz gen: %s\n%s", error.c_str(), kGenUsage);
    return 2;
  }
  auto out = args.get("--out");
  const int64_t first = index >= 0 ? index : 0;
  if (index >= 0) count = 1;
  std::error_code ec;
  std::filesystem::create_directories(*out, ec);
  if (ec) {
    std::fprintf(stderr, "slicefuzz gen: cannot create %s: %s\n", out->c_str(), ec.message().c_str());
    return 2;
  }
  for (int64_t i = first; i < first + count; ++i) {
    Case c = generate_case_within(static_cast<uint64_t>(seed), static_cast<uint64_t>(i),
                                  common.backend->outside_limits,
                                  common.backend->eager_ops, version);
    char name[64];
    std::snprintf(name, sizeof name, "gen-%lld-%06lld.case", static_cast<long long>(seed),
                  static_cast<long long>(i));
    std::string text = "# generated: slicefuzz gen --seed " + std::to_string(seed) +
                       ", case " + std::to_string(i) + "\n" + print_case(c);
    if (!write_file_atomic((std::filesystem::path(*out) / name).string(), text, error)) {
      std::fprintf(stderr, "slicefuzz gen: %s\n", error.c_str());
      return 2;
    }
    if (index >= 0) std::printf("wrote %s\n", (std::filesystem::path(*out) / name).string().c_str());
    if (count >= 1000 && (i + 1) % 500 == 0)
      std::fprintf(stderr, "\rgen: %lld/%lld", static_cast<long long>(i + 1), static_cast<long long>(count));
  }
  if (count >= 1000) std::fprintf(stderr, "\n");
  if (index < 0) std::printf("wrote %lld cases to %s\n", static_cast<long long>(count), out->c_str());
  return 0;
}

}  // namespace slicefuzz
