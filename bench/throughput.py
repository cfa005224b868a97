#!/usr/bin/python3
"""The measurements behind bench/throughput.sh (see there for what and why).

Every figure is executions per second of one process (fork mode: per worker),
timed from this script's own clock on each output line of the fuzzer, so a
figure never includes start-up unless it says so. Only ratios between figures of
one run mean anything on a shared machine.
"""
import argparse
import datetime
import glob
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# The nightly's ASan options (ci/fuzz.sh), for every binary measured (the
# baseline too: a speed-up is the code's, not the options').
ENV = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS",
                                                   "quarantine_size_mb=64:malloc_context_size=2"),
           SLICEFUZZ_BACKEND="reference")
INITED = re.compile(r"^#(\d+)\s+INITED")
UNITS = re.compile(r"^stat::number_of_executed_units: (\d+)")
FORK = re.compile(r"^#(\d+): cov: ")
WORKERS = re.compile(r"^stat::workers: \d+ starts: (\d+)")


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def proc_cpu(pid):
    """CPU seconds a running process has used so far (/proc/PID/stat)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def timed_lines(cmd, timeout, cpu_at=None):
    """Runs cmd; returns ([(seconds since start, line)], seconds until exit,
    CPU seconds of cmd and every descendant, CPU seconds of cmd itself when the
    first line matching cpu_at appeared)."""
    t0 = time.monotonic()
    c0 = cpu_children()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=ENV,
                         start_new_session=True)
    lines, cpu_mark = [], None
    for raw in p.stdout:
        line = raw.decode("utf-8", "replace").rstrip("\n")
        lines.append((time.monotonic() - t0, line))
        if cpu_at is not None and cpu_mark is None and cpu_at.search(line):
            cpu_mark = proc_cpu(p.pid)
    p.wait(timeout=timeout)
    timed_lines.cpu, timed_lines.cpu_mark = cpu_children() - c0, cpu_mark
    return lines, time.monotonic() - t0


def first(lines, pattern):
    for t, l in lines:
        m = pattern.search(l)
        if m:
            return t, m
    return None, None


def startup(fuzzer, tmp):
    """(e): seconds from exec to the first execution (libFuzzer runs the empty input
    first; INITED follows at once with an empty corpus)."""
    empty = tempfile.mkdtemp(dir=tmp)
    lines, _ = timed_lines([fuzzer, "-runs=0", empty], 120)
    t, _ = first(lines, INITED)
    return t


def mutation_on(fuzzer, corpus, seconds, tmp, extra=(), cpu=None):
    """(a), (b) mutation on: libFuzzer's loop at a fixed seed, after the corpus has
    been read and executed (INITED). With a list `cpu`, also appends executions
    per CPU second over the same stretch."""
    work = tempfile.mkdtemp(dir=tmp)
    lines, total = timed_lines([fuzzer, "-seed=1", "-max_total_time=%d" % seconds,
                                "-print_final_stats=1", "-rss_limit_mb=4096",
                                "-artifact_prefix=%s/" % work, *extra, work, corpus],
                               seconds + 120, cpu_at=INITED)
    t_init, m_init = first(lines, INITED)
    t_end, m_end = first(lines, UNITS)
    if not m_init or not m_end:
        sys.exit("throughput: %s did not run:\n%s" % (fuzzer, "\n".join(l for _, l in lines[-15:])))
    execs = int(m_end.group(1)) - int(m_init.group(1))
    if cpu is not None and timed_lines.cpu_mark is not None:
        cpu.append(execs / max(timed_lines.cpu - timed_lines.cpu_mark, 1e-3))
    return execs / (t_end - t_init)


def mutation_off(fuzzer, files, repeats):
    """(b) mutation off: every corpus file executed `repeats` times (libFuzzer's
    individual-file mode: no mutation, no feature bookkeeping), from the first
    execution to exit."""
    lines, total = timed_lines([fuzzer, "-runs=%d" % repeats, *files], 600)
    t0 = next((t for t, l in lines if l.startswith("Running: ")), None)
    done = sum(1 for _, l in lines if l.startswith("Executed "))
    if t0 is None or done != len(files):
        sys.exit("throughput: %s did not replay the corpus:\n%s" % (fuzzer, "\n".join(l for _, l in lines[-15:])))
    return len(files) * repeats / (total - t0)


def fork_mode(fuzzer, corpus, seconds, jobs, tmp):
    """(c, before) libFuzzer's -fork=JOBS, the nightly's command line until
    fuzz_workers.py: over a copy of the corpus, all executions over the whole
    wall time (restarts, start-up, the initial corpus pass), per worker. Returns
    (exec/s per worker, exec per CPU second)."""
    work = tempfile.mkdtemp(dir=tmp)
    new = os.path.join(work, "new")
    cdir = os.path.join(work, "corpus")
    os.makedirs(new)
    shutil.copytree(corpus, cdir)
    lines, total = timed_lines([fuzzer, "-fork=%d" % jobs, "-ignore_crashes=1", "-ignore_timeouts=1",
                                "-ignore_ooms=1", "-seed=1", "-max_total_time=%d" % seconds,
                                "-timeout=25", "-rss_limit_mb=4096", "-dict=corpus/slicefuzz.dict",
                                "-artifact_prefix=%s/" % work, "-print_final_stats=1", new, cdir],
                               seconds + 120)
    last = None
    for t, l in lines:
        m = FORK.search(l)
        if m:
            last = (t, int(m.group(1)))
    if not last:
        sys.exit("throughput: fork mode printed no progress:\n%s" % "\n".join(l for _, l in lines[-15:]))
    # Executions up to the last progress line, over the time since launch.
    return last[1] / last[0] / jobs, last[1] / max(timed_lines.cpu, 1e-3)


def workers_mode(fuzzer, corpus, seconds, jobs, tmp):
    """(c) the nightly's parallel mode (ci/fuzz.sh -> ci/fuzz_workers.py, the same
    flags): JOBS long-lived workers over a copy of the corpus, all executions over
    the whole wall time (start-up, initial corpus pass, restarts included), per
    worker. Returns (exec/s per worker, exec per CPU second, starts)."""
    work = tempfile.mkdtemp(dir=tmp)
    cdir = os.path.join(work, "corpus")
    shutil.copytree(corpus, cdir)
    lines, total = timed_lines(["/usr/bin/python3", "ci/fuzz_workers.py", "--fuzzer", fuzzer,
                                "--jobs", str(jobs), "--seconds", str(seconds), "--seed", "1",
                                "--new", os.path.join(work, "new"), "--corpus", cdir,
                                "--artifact-prefix", work + "/", "--logs", os.path.join(work, "logs"),
                                "--", "-timeout=25", "-rss_limit_mb=4096",
                                "-dict=corpus/slicefuzz.dict"], seconds + 120)
    last = None
    for t, l in lines:
        m = FORK.search(l)
        if m:
            last = (t, int(m.group(1)))
    starts = next((int(m.group(1)) for _, l in lines for m in [WORKERS.search(l)] if m), None)
    if not last or last[1] == 0:
        sys.exit("throughput: fuzz_workers printed no progress:\n%s" % "\n".join(l for _, l in lines[-15:]))
    return last[1] / last[0] / jobs, last[1] / max(timed_lines.cpu, 1e-3), starts


def check(cli, corpus):
    """(d) slicefuzz check --no-isolate: its own cases/s (excludes start-up)."""
    out = subprocess.run([cli, "check", "--no-isolate", corpus], capture_output=True, text=True,
                         env=ENV).stdout
    m = re.search(r"(\d+) cases run in ([\d.]+) s", out)
    if not m or "0 failed" not in out:
        sys.exit("throughput: check failed:\n" + out[-2000:])
    # The printed seconds have 2 digits; recompute from the rate it prints.
    r = re.search(r"\((\d+) cases/s\)", out)
    return float(r.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--baseline-build")
    ap.add_argument("--baseline", default="")
    ap.add_argument("--corpus", default="corpus/bench")
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--fork-seconds", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--skip-fork", action="store_true",
                    help="skip (c): the nightly's workers (N and 1) and libFuzzer's -fork")
    ap.add_argument("--skip-old-fork", action="store_true",
                    help="skip only libFuzzer's -fork (the nightly's mode before fuzz_workers.py)")
    ap.add_argument("--compare", help="a directory holding another fuzz_program build (e.g. a "
                    "copy of the previous one) to measure beside the current one")
    ap.add_argument("--out", default="out/throughput")
    a = ap.parse_args()

    fuzzer = os.path.join(a.build, "fuzz_program")
    ceiling = os.path.join(a.build, "fuzz_ceiling")
    cli = os.path.join(a.build, "slicefuzz")
    base = os.path.join(a.baseline_build, "fuzz_program") if a.baseline_build else None
    prev = os.path.join(a.compare, "fuzz_program") if a.compare else None
    files = sorted(glob.glob(os.path.join(a.corpus, "*.case")))
    tmp = tempfile.mkdtemp(prefix="throughput-")
    seed = os.path.join(tmp, "ceiling-seed")
    os.makedirs(seed)
    with open(os.path.join(seed, "seed"), "wb") as f:
        f.write(bytes([7, 7, 1, 1, 5, 1]))

    r = {k: [] for k in ("ceiling", "on", "off", "base_on", "base_off", "startup", "base_startup",
                         "ceiling_startup", "check", "prev_on", "prev_off", "on_cpu",
                         "prev_on_cpu", "base_on_cpu")}
    # Rounds interleave the current build and the baseline, so load changes on the
    # shared machine hit both; the best of the rounds is reported.
    for i in range(a.rounds):
        print("round %d/%d" % (i + 1, a.rounds), file=sys.stderr)
        r["ceiling"].append(mutation_on(ceiling, seed, a.seconds, tmp))
        r["on"].append(mutation_on(fuzzer, a.corpus, a.seconds, tmp, ["-dict=corpus/slicefuzz.dict"],
                                   r["on_cpu"]))
        if base:
            r["base_on"].append(mutation_on(base, a.corpus, a.seconds, tmp, ["-dict=corpus/slicefuzz.dict"],
                                            r["base_on_cpu"]))
        if prev:
            r["prev_on"].append(mutation_on(prev, a.corpus, a.seconds, tmp, ["-dict=corpus/slicefuzz.dict"],
                                            r["prev_on_cpu"]))
        r["off"].append(mutation_off(fuzzer, files, a.repeats))
        if prev:
            r["prev_off"].append(mutation_off(prev, files, a.repeats))
        if base:
            r["base_off"].append(mutation_off(base, files, a.repeats))
        r["check"].append(check(cli, a.corpus))
        r["startup"].append(startup(fuzzer, tmp))
        r["ceiling_startup"].append(startup(ceiling, tmp))
        if base:
            r["base_startup"].append(startup(base, tmp))
    fork = fork_cpu = wk = wk_cpu = wk1 = wk1_cpu = None
    wk_starts = wk1_starts = None
    if not a.skip_fork:
        # The nightly's mode with JOBS workers, then with one worker (the same
        # script, corpus and duration: the single-process rate under identical
        # conditions), then libFuzzer's -fork (what the nightly ran before).
        print("nightly workers (%d, then 1), %d s each" % (a.jobs, a.fork_seconds), file=sys.stderr)
        wk, wk_cpu, wk_starts = workers_mode(fuzzer, a.corpus, a.fork_seconds, a.jobs, tmp)
        wk1, wk1_cpu, wk1_starts = workers_mode(fuzzer, a.corpus, a.fork_seconds, 1, tmp)
        if not a.skip_old_fork:
            print("libFuzzer -fork=%d, %d s" % (a.jobs, a.fork_seconds), file=sys.stderr)
            fork, fork_cpu = fork_mode(fuzzer, a.corpus, a.fork_seconds, a.jobs, tmp)
    shutil.rmtree(tmp, ignore_errors=True)

    best = {k: (max(v) if v else None) for k, v in r.items()}
    for k in ("startup", "base_startup", "ceiling_startup"):
        best[k] = min(r[k]) if r[k] else None
    ceil = best["ceiling"]
    res = {
        "stamp": datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ"),
        "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                 text=True).stdout.strip(),
        "baseline": a.baseline or None,
        "corpus": a.corpus, "corpus_cases": len(files), "seconds": a.seconds, "rounds": a.rounds,
        "exec_per_s": {
            "ceiling": ceil,
            "fuzz_program_mutation_on": best["on"],
            "fuzz_program_mutation_off": best["off"],
            "nightly_workers_per_worker": wk,
            "nightly_one_worker": wk1,
            "fork_mode_per_worker": fork,
            "check_no_isolate": best["check"],
            "baseline_mutation_on": best["base_on"],
            "baseline_mutation_off": best["base_off"],
            "compare_mutation_on": best["prev_on"],
            "compare_mutation_off": best["prev_off"],
        },
        "compare": a.compare,
        "all_rounds": r,
        "startup_seconds": {"fuzz_program": best["startup"], "ceiling": best["ceiling_startup"],
                            "baseline": best["base_startup"]},
        "ratio_to_ceiling": best["on"] / ceil,
        "speedup_vs_baseline": best["on"] / best["base_on"] if best["base_on"] else None,
        "speedup_vs_baseline_mutation_off": best["off"] / best["base_off"] if best["base_off"] else None,
        "fork_per_worker_vs_single": fork / best["on"] if fork else None,
        # Executions per CPU second: what a core does, whatever else shares the
        # machine (the wall-clock ratios below also need the cores to be free).
        "exec_per_cpu_second": {
            "fuzz_program_mutation_on": max(r["on_cpu"]) if r["on_cpu"] else None,
            "baseline_mutation_on": max(r["base_on_cpu"]) if r["base_on_cpu"] else None,
            "compare_mutation_on": max(r["prev_on_cpu"]) if r["prev_on_cpu"] else None,
            "nightly_workers": wk_cpu, "nightly_one_worker": wk1_cpu, "fork_mode": fork_cpu,
        },
        "nightly_workers": a.jobs, "nightly_seconds": a.fork_seconds,
        "nightly_starts": wk_starts, "nightly_one_worker_starts": wk1_starts,
        # The nightly's parallel mode against a single process, per core.
        "nightly_per_worker_vs_single": wk / best["on"] if wk else None,
        "nightly_per_worker_vs_one_worker": wk / wk1 if wk else None,
        "nightly_per_cpu_vs_one_worker": wk_cpu / wk1_cpu if wk_cpu else None,
        "nightly_per_cpu_vs_single": (wk_cpu / max(r["on_cpu"])) if wk_cpu and r["on_cpu"] else None,
        "fork_per_cpu_vs_one_worker": fork_cpu / wk1_cpu if fork_cpu and wk1_cpu else None,
    }
    print("%-44s %10s %10s" % ("figure (best of %d rounds)" % a.rounds, "exec/s", "/ceiling"))
    for label, v in [("(a) ceiling: fuzz_ceiling", ceil),
                     ("(b) fuzz_program, mutation on (seed 1)", best["on"]),
                     ("(b) fuzz_program, mutation off", best["off"]),
                     ("(c) nightly, %d workers, per worker" % a.jobs, wk),
                     ("(c) nightly, 1 worker" , wk1),
                     ("libFuzzer -fork=%d (before), per worker" % a.jobs, fork),
                     ("(d) slicefuzz check --no-isolate", best["check"]),
                     ("baseline %s, mutation on" % a.baseline, best["base_on"]),
                     ("baseline %s, mutation off" % a.baseline, best["base_off"]),
                     ("compare %s, mutation on" % a.compare, best["prev_on"]),
                     ("compare %s, mutation off" % a.compare, best["prev_off"])]:
        if v:
            print("%-44s %10.0f %10.4f" % (label, v, v / ceil))
    print("(e) start-up to first execution: fuzz_program %.2f s, ceiling %.2f s%s" %
          (best["startup"], best["ceiling_startup"],
           ", baseline %.2f s" % best["base_startup"] if best["base_startup"] else ""))
    if res["speedup_vs_baseline"]:
        print("speedup vs baseline %s: mutation on %.2fx, mutation off %.2fx" %
              (a.baseline, res["speedup_vs_baseline"], res["speedup_vs_baseline_mutation_off"]))
    if prev:
        print("current / compare: mutation on %.2fx, mutation off %.2fx" %
              (best["on"] / best["prev_on"], best["off"] / best["prev_off"]))
    if wk:
        print("nightly (%d workers, %d s, %s starts) per worker / single process (b): %.2f wall, "
              "%.2f per CPU second" % (a.jobs, a.fork_seconds, wk_starts, res["nightly_per_worker_vs_single"],
                                       res["nightly_per_cpu_vs_single"] or 0))
        print("nightly per worker / nightly with 1 worker (same %d s): %.2f wall, %.2f per CPU second"
              % (a.fork_seconds, res["nightly_per_worker_vs_one_worker"], res["nightly_per_cpu_vs_one_worker"]))
    if fork:
        print("libFuzzer -fork per worker / single process (b): %.2f wall; per CPU second / 1 worker: %.2f"
              % (res["fork_per_worker_vs_single"], res["fork_per_cpu_vs_one_worker"] or 0))
    cpu = res["exec_per_cpu_second"]
    if cpu["fuzz_program_mutation_on"] and cpu["baseline_mutation_on"]:
        print("per CPU second, mutation on: current %.0f, baseline %.0f (%.2fx)"
              % (cpu["fuzz_program_mutation_on"], cpu["baseline_mutation_on"],
                 cpu["fuzz_program_mutation_on"] / cpu["baseline_mutation_on"]))
    if cpu["fuzz_program_mutation_on"] and cpu["compare_mutation_on"]:
        print("per CPU second, mutation on: current / compare %.2fx"
              % (cpu["fuzz_program_mutation_on"] / cpu["compare_mutation_on"]))
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, res["stamp"] + ".json")
    with open(path, "w") as f:
        json.dump(res, f, indent=2)
    print("wrote " + path)


if __name__ == "__main__":
    main()
