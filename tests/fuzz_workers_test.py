#!/usr/bin/python3
"""ci/fuzz_workers.py (the nightly's parallel fuzzing) against a fake libFuzzer:
workers start with distinct seeds; a corpus input that crashes a worker before
fuzzing is left out of the seeds and costs one restart; a worker stopped by a
finding mid-run is restarted with the next seed and the time left; executions
of every start are summed, and fuzz_program's own counts (programs, with
symbols, executions); the working corpus is never written; the campaign
ends on time; the status lines parse as fork-mode lines (ci/fuzz_plot.py).
Usage: fuzz_workers_test.py SOURCE_DIR"""
import hashlib
import os
import re
import subprocess
import sys
import atexit
import shutil
import tempfile
import time

SRC = sys.argv[1]
sys.path.insert(0, os.path.join(SRC, "ci"))
from fuzz_plot import parse_log  # noqa: E402

# A fake fuzz_program: libFuzzer's output lines, 100 executions per 0.1 s.
FAKE = r'''#!/usr/bin/python3
import hashlib, os, sys, time
args = [a for a in sys.argv[1:] if a.startswith("-")]
opt = dict(a[1:].split("=", 1) for a in args)
new = [a for a in sys.argv[1:] if not a.startswith("-")][-1]
seed, limit, prefix = int(opt["seed"]), int(opt["max_total_time"]), opt["artifact_prefix"]
print("INFO: Seed: %d" % seed, flush=True)
n = 0
def crash(data, code):
    name = prefix + "crash-" + hashlib.sha1(data).hexdigest()
    open(name, "wb").write(data)
    print("artifact_prefix='%s'; Test unit written to %s" % (prefix, name), flush=True)
    print("stat::number_of_executed_units: %d" % n, flush=True)
    counts(n)
    sys.exit(code)
def counts(n):  # fuzz_program's own: programs, those with symbols, executions
    print("stat::slicefuzz_programs: %d\nstat::slicefuzz_programs_with_symbols: %d\n"
          "stat::slicefuzz_executions: %d" % (n, n // 4, n + n // 2), flush=True)
seeds = opt["seed_inputs"][1:] if "seed_inputs" in opt else None
files = open(seeds).read().split(",") if seeds else []
# Every first start reads the seed list before any of them crashes on it (the
# pool leaves a crashing seed out as soon as one worker has stopped on it; a
# slow start on a loaded machine would otherwise never see it).
sync = os.environ["FAKE_SYNC_DIR"]
open(os.path.join(sync, "read-%d" % seed), "w").close()
for f in files:
    data = open(f, "rb").read()
    if b"CRASH" in data:
        t1 = time.monotonic()
        while (len(os.listdir(sync)) < int(os.environ["FAKE_FIRST_STARTS"])
               and time.monotonic() - t1 < 20):
            time.sleep(0.02)
        crash(data, 1)
n = len(files) + 1
print("#%d\tINITED cov: 10 ft: 20 corp: %d/1Kb exec/s: 0 rss: 1Mb" % (n, n), flush=True)
t0 = time.monotonic()
while time.monotonic() - t0 < limit + 1:
    time.sleep(0.1)
    n += 100
    print("#%d\tNEW    cov: 11 ft: 21 corp: %d/1Kb lim: 4 exec/s: 1000 rss: 1Mb" % (n, n), flush=True)
    open(os.path.join(new, "%d-%d" % (seed, n)), "w").write("x")
    if seed == int(os.environ["FAKE_CRASH_SEED"]) and time.monotonic() - t0 > 1:
        crash(b"found %d" % seed, 77)
print("Done %d runs" % n, flush=True)
print("stat::number_of_executed_units: %d" % n, flush=True)
counts(n)
'''

failures = []


def scratch_dir(prefix="tmp"):
    """A directory removed when the test exits, whatever its result."""
    d = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, d, True)
    return d


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)


d = scratch_dir("fuzz-workers-test-")
fake = os.path.join(d, "fake_fuzzer")
with open(fake, "w") as f:
    f.write(FAKE)
os.chmod(fake, 0o755)
corpus = os.path.join(d, "corpus")
os.makedirs(corpus)
for i in range(5):
    with open(os.path.join(corpus, "seed%d.case" % i), "w") as f:
        f.write("fine %d" % i)
with open(os.path.join(corpus, "bad.case"), "w") as f:
    f.write("CRASH me")
with open(os.path.join(corpus, "half.tmp.123"), "w") as f:
    f.write("CRASH: a temporary name, not a corpus file")
before = {n: hashlib.sha1(open(os.path.join(corpus, n), "rb").read()).hexdigest()
          for n in os.listdir(corpus)}
new, art, logs = (os.path.join(d, x) for x in ("new", "artifacts", "logs"))
os.makedirs(art)
SEED, SECONDS = 100, 12  # generous: the restarts must fit even on a loaded machine
# Worker 1's second start (seed 100 + 1 + 2*1 = 103) finds something after 1 s.
sync = os.path.join(d, "sync")
os.makedirs(sync)
env = dict(os.environ, FAKE_CRASH_SEED="103", FAKE_SYNC_DIR=sync, FAKE_FIRST_STARTS="2")
t0 = time.monotonic()
p = subprocess.run(["/usr/bin/python3", os.path.join(SRC, "ci", "fuzz_workers.py"), "--fuzzer", fake,
                    "--jobs", "2", "--seconds", str(SECONDS), "--seed", str(SEED), "--new", new,
                    "--corpus", corpus, "--artifact-prefix", art + "/", "--logs", logs, "--",
                    "-timeout=25"], capture_output=True, text=True, env=env, timeout=60)
wall = time.monotonic() - t0
out = p.stdout
print(out)
check(p.returncode == 0, "exit 0 (got %d; stderr %s)" % (p.returncode, p.stderr[-500:]))
check(wall < SECONDS + 4, "ended on time (%.1f s for %d s)" % (wall, SECONDS))
check(out.startswith("INFO: Seed: %d" % SEED), "fuzz.log starts with the seed line")
check("bad.case stopped worker" in out, "the crashing corpus input is named")
seeds = open(os.path.join(logs, "seeds.txt")).read().split(",")
check(not any(s.endswith("bad.case") for s in seeds), "bad.case left out of the seeds: %r" % seeds)
check(not any(".tmp." in s for s in seeds), "temporary names are not seeds")
check(len(seeds) == 5, "the other five corpus files stay seeds")
after = {n: hashlib.sha1(open(os.path.join(corpus, n), "rb").read()).hexdigest()
         for n in os.listdir(corpus)}
check(before == after, "the working corpus is untouched")
# Starts: both workers crash on bad.case (seeds 100, 101); worker 0 restarts with
# 102 and runs to the end; worker 1 with 103 (finds something), then 105.
log0 = open(os.path.join(logs, "worker-0.log")).read()
log1 = open(os.path.join(logs, "worker-1.log")).read()
seeds0 = re.findall(r"-seed=(\d+) ", log0)
seeds1 = re.findall(r"-seed=(\d+) ", log1)
check(seeds0 == ["100", "102"], "worker 0 seeds %r" % seeds0)
check(seeds1 == ["101", "103", "105"], "worker 1 seeds %r" % seeds1)
arts = sorted(os.listdir(art))
check("crash-" + hashlib.sha1(b"found 103").hexdigest() in arts, "the finding's artifact is kept")
check("crash-" + hashlib.sha1(b"CRASH me").hexdigest() in arts, "bad.case's artifact is kept")
# Restarts get the time that is left, less a second (libFuzzer stops a second late).
limits1 = [int(x) for x in re.findall(r"-max_total_time=(\d+)", log1)]
check(limits1[0] == SECONDS - 1 and limits1[-1] < limits1[0], "time limits %r" % limits1)
# Totals: every start's executions.
m = re.search(r"^stat::number_of_executed_units: (\d+)", out, re.M)
units = [int(x) for x in re.findall(r"^stat::number_of_executed_units: (\d+)", log0 + log1, re.M)]
check(m and int(m[1]) == sum(units), "total %s is the sum of the starts' %r" % (m and m[1], units))
check(re.search(r"oom/timeout/crash: 0/0/3 ", out) is not None, "three crash artifacts counted")
for key in ("programs", "programs_with_symbols", "executions"):
    m2 = re.search(r"^stat::slicefuzz_%s: (\d+)" % key, out, re.M)
    per = [int(x) for x in re.findall(r"^stat::slicefuzz_%s: (\d+)" % key, log0 + log1, re.M)]
    check(m2 and per and int(m2[1]) == sum(per),
          "fuzz_program's %s summed over starts: %s vs %r" % (key, m2 and m2[1], per))
with open(os.path.join(d, "fuzz.log"), "w") as f:
    f.write(out)
points = parse_log(os.path.join(d, "fuzz.log"))
check(len(points) >= 2 and points[-1][1] == int(m[1]), "status lines parse as fork-mode lines")
check(len(os.listdir(new)) > 10, "new inputs land in NEW")

# A fuzzer that never starts: exit 2 with its last lines.
p = subprocess.run(["/usr/bin/python3", os.path.join(SRC, "ci", "fuzz_workers.py"), "--fuzzer",
                    "/bin/false", "--jobs", "1", "--seconds", "5", "--seed", "1", "--new", new,
                    "--corpus", corpus, "--artifact-prefix", art + "/", "--logs", logs + "2"],
                   capture_output=True, text=True, timeout=60)
check(p.returncode == 2 and "no worker started" in p.stdout, "a fuzzer that never starts: exit 2")
check("INFO: Seed:" not in p.stdout, "no seed line when nothing started (ci/fuzz.sh checks it)")

print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
