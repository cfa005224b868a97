#!/usr/bin/env python3
"""bench/same_search.py OLD_FUZZ_PROGRAM NEW_FUZZ_PROGRAM [--runs N] [--seed S]

Whether two fuzz_program builds make the same search: each runs libFuzzer's loop
at the same seed for the same number of executions on a fresh copy of
corpus/bench/, and the corpus files each writes (libFuzzer names a file by the
SHA-1 of its contents) are compared. Equal sets mean the same mutants were made
and the same ones found new coverage, so an exec/s ratio between the two builds
compares the same work, and a change meant only to be faster (the mutator's
caches, the judge's arithmetic) changed nothing the fuzzer does.

A change inside the instrumented code (the system under test, the parser) can
change coverage features and so the search, without being wrong: there, a
difference is information, not a failure. Both run with -reload=0: libFuzzer
re-reads its output corpus every second by default, and where that falls in
the run sequence depends on the clock (measured: one build's two runs at seed 1
differed in 48 of 312 files at 3,000 executions with reloading, and agreed at
4,000 without). When the two builds differ the new one is run a second time:
if it differs from itself, the comparison says nothing at that length. Exit 0
when the corpora are equal, 1 when they differ (and the new build agrees with
itself), 3 when the new build does not agree with itself, 2 on a usage or run
error.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def search(binary, seed, runs, corpus, work):
    out = os.path.join(work, "corpus")
    os.makedirs(out)
    env = dict(os.environ, SLICEFUZZ_BACKEND=os.environ.get("SLICEFUZZ_BACKEND", "reference"),
               ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "quarantine_size_mb=64:malloc_context_size=2"))
    log = os.path.join(work, "log")
    with open(log, "w") as f:
        rc = subprocess.call([binary, "-seed=%d" % seed, "-runs=%d" % runs, "-reload=0",
                              "-artifact_prefix=%s/" % work, out, corpus],
                             stdout=f, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    if rc != 0:
        sys.stderr.write("same_search: %s exited %d (log %s)\n" % (binary, rc, log))
        sys.exit(2)
    return set(os.listdir(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--runs", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--corpus", default=os.path.join(ROOT, "corpus", "bench"))
    a = ap.parse_args()
    for b in (a.old, a.new):
        if not os.access(b, os.X_OK):
            sys.exit("same_search: %s is not an executable" % b)
    tmp = tempfile.mkdtemp(prefix="same-search-")
    try:
        def run(name, binary):
            work = os.path.join(tmp, name)
            os.makedirs(work)
            return search(binary, a.seed, a.runs, a.corpus, work)
        old, new = run("old", a.old), run("new", a.new)
        print("seed %d, %d runs: old wrote %d corpus files, new %d; only old %d, only new %d"
              % (a.seed, a.runs, len(old), len(new), len(old - new), len(new - old)))
        if old == new:
            print("same search")
            return 0
        again = run("new-again", a.new)
        if again != new:
            print("the new build's own two runs differ (%d files): not deterministic over %d runs; "
                  "compare fewer" % (len(again ^ new), a.runs))
            return 3
        print("different search")
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
