#!/usr/bin/python3
"""fuzz_program's exec/s at case format version 4 against version 3, in one run
(issue 37's target: 0.9 or more). See bench/version_ratio.sh.

Each round runs fuzz_program at SLICEFUZZ_FORMAT_VERSION=3 and =4 (the order
alternates between rounds, so neither always runs on a warmer or quieter
machine), same seed, same time, each on its own temporary copy of the seed
corpus, and reads libFuzzer's own figures (-print_final_stats=1:
stat::average_exec_per_sec, stat::number_of_executed_units) and fuzz_program's
counts (stat::slicefuzz_programs, _with_symbols, _executions). With --compare
BUILD, the fuzz_program of BUILD runs in the same rounds (a before/after pair).
Only ratios from one run mean anything on a shared machine; the median of the
rounds' ratios is reported. Nothing is written outside the temporary directory
but the JSON under out/version_ratio/.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

STAT = re.compile(r"^stat::(\w+):\s+(\d+)")
KEYS = ("average_exec_per_sec", "number_of_executed_units", "slicefuzz_programs",
        "slicefuzz_programs_with_symbols", "slicefuzz_executions")


def run_once(fuzzer, corpus, version, seconds, seed, work):
    cdir = tempfile.mkdtemp(prefix="corpus-", dir=work)
    for name in sorted(os.listdir(corpus)):
        src = os.path.join(corpus, name)
        if os.path.isfile(src):
            shutil.copy(src, cdir)
    env = dict(os.environ, SLICEFUZZ_FORMAT_VERSION=str(version),
               SLICEFUZZ_BACKEND=os.environ.get("SLICEFUZZ_BACKEND", "reference"),
               ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "quarantine_size_mb=64:malloc_context_size=2"))
    cmd = [fuzzer, "-seed=%d" % seed, "-max_total_time=%d" % seconds, "-print_final_stats=1",
           "-rss_limit_mb=4096", "-artifact_prefix=%s/" % work, cdir]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    stats = {}
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        m = STAT.match(line)
        if m and m.group(1) in KEYS:
            stats[m.group(1)] = int(m.group(2))  # the last printed (final) value
    shutil.rmtree(cdir, ignore_errors=True)
    if p.returncode != 0 or "average_exec_per_sec" not in stats:
        tail = p.stdout.decode("utf-8", "replace").splitlines()[-20:]
        sys.exit("version_ratio: %s at version %d exited %d:\n%s" % (fuzzer, version, p.returncode, "\n".join(tail)))
    return stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build/fuzz", help="the build holding fuzz_program")
    ap.add_argument("--compare", help="another build holding fuzz_program, run in the same rounds")
    ap.add_argument("--corpus", default="corpus/seeds")
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    builds = [("this", os.path.join(a.build, "fuzz_program"))]
    if a.compare:
        builds.append(("compare", os.path.join(a.compare, "fuzz_program")))
    for _, f in builds:
        if not os.access(f, os.X_OK):
            sys.exit("version_ratio: no fuzz_program at %s (build it: cmake --build --preset fuzz)" % f)
    if not os.path.isdir(a.corpus):
        sys.exit("version_ratio: no corpus directory %s" % a.corpus)
    results = {name: {3: [], 4: []} for name, _ in builds}
    work = tempfile.mkdtemp(prefix="slicefuzz-version-ratio-")
    try:
        for r in range(a.rounds):
            for name, fuzzer in builds:
                for v in ((3, 4) if r % 2 == 0 else (4, 3)):
                    s = run_once(fuzzer, a.corpus, v, a.seconds, a.seed, work)
                    results[name][v].append(s)
                    print("round %d %-7s v%d: %5d exec/s, %6d units, %5d programs (%d with symbols), %d executions"
                          % (r + 1, name, v, s["average_exec_per_sec"], s["number_of_executed_units"],
                             s.get("slicefuzz_programs", 0), s.get("slicefuzz_programs_with_symbols", 0),
                             s.get("slicefuzz_executions", 0)), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary = {}
    for name, _ in builds:
        ratios = [b["average_exec_per_sec"] / max(1, a3["average_exec_per_sec"])
                  for a3, b in zip(results[name][3], results[name][4])]
        summary[name] = {"ratios": ratios, "median_ratio": statistics.median(ratios), "runs": results[name]}
        print("%-7s exec/s v4/v3 per round: %s; median %.2f" %
              (name, ", ".join("%.2f" % x for x in ratios), summary[name]["median_ratio"]))
    if a.compare:
        pairs = [t["average_exec_per_sec"] / max(1, c["average_exec_per_sec"])
                 for v in (3, 4) for t, c in zip(results["this"][v], results["compare"][v])]
        print("this/compare exec/s, every (round, version): %s" % ", ".join("%.2f" % x for x in pairs))
    os.makedirs("out/version_ratio", exist_ok=True)
    stamp = datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ")
    with open("out/version_ratio/%s.json" % stamp, "w") as f:
        json.dump({"seconds": a.seconds, "seed": a.seed, "corpus": a.corpus, "builds": dict(builds),
                   "summary": summary}, f, indent=1, default=str)


if __name__ == "__main__":
    main()
