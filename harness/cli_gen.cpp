// `slicefuzz gen --count N --seed S --out DIR`: generated cases as .case files.
#include <cstdio>
#include <filesystem>

#include "generators/generate.h"
#include "harness/cli.h"
#include "harness/cli_common.h"
#include "program/case_format.h"

namespace slicefuzz {

int cli_gen(int argc, char** argv) {
  CliArgs args;
  CommonOptions common;
  if (!parse_common(args, argc, argv, {"--count", "--seed", "--out"}, {}, common)) return 2;
  int64_t count = -1, seed = 0;
  std::string error;
  if (!args.get_int("--count", count, error) || !args.get_int("--seed", seed, error)) {
    std::fprintf(stderr, "slicefuzz gen: %s\n", error.c_str());
    return 2;
  }
  auto out = args.get("--out");
  if (count < 0 || !out || !args.positional().empty()) {
    std::fprintf(stderr, "usage: slicefuzz gen --count N --seed S --out DIR\n");
    return 2;
  }
  std::error_code ec;
  std::filesystem::create_directories(*out, ec);
  if (ec) {
    std::fprintf(stderr, "slicefuzz gen: cannot create %s: %s\n", out->c_str(), ec.message().c_str());
    return 2;
  }
  for (int64_t i = 0; i < count; ++i) {
    Case c = generate_case(static_cast<uint64_t>(seed), static_cast<uint64_t>(i));
    char name[64];
    std::snprintf(name, sizeof name, "gen-%lld-%06lld.case", static_cast<long long>(seed),
                  static_cast<long long>(i));
    std::string text = "# generated: slicefuzz gen --seed " + std::to_string(seed) +
                       ", case " + std::to_string(i) + "\n" + print_case(c);
    if (!write_file_atomic((std::filesystem::path(*out) / name).string(), text, error)) {
      std::fprintf(stderr, "slicefuzz gen: %s\n", error.c_str());
      return 2;
    }
    if (count >= 1000 && (i + 1) % 500 == 0)
      std::fprintf(stderr, "\rgen: %lld/%lld", static_cast<long long>(i + 1), static_cast<long long>(count));
  }
  if (count >= 1000) std::fprintf(stderr, "\n");
  std::printf("wrote %lld cases to %s\n", static_cast<long long>(count), out->c_str());
  return 0;
}

}  // namespace slicefuzz
