#!/usr/bin/python3
"""ci/selftest.py: a method that cannot run (check or run exits 2, fuzz_program
refuses its backend) fails its row with the tool's reason; it never reads as 'not killed'.
Usage: selftest_rows_test.py SOURCE_DIR SLICEFUZZ_CLI"""
import os
import shutil
import sys
import tempfile

src, cli = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(src, "ci"))
import selftest  # noqa: E402

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


work = tempfile.mkdtemp(prefix="slicefuzz-selftest-rows-")
selftest.CLI = cli
selftest.RUN_COUNT = 5
# A backend the binary does not have: `run` exits 2 with its reason.
r = selftest.campaign("no-such-backend", 1, work)
check(r["killed"] is False and "run exited 2" in r.get("error", ""), "campaign error recorded: %r" % r)

# The corpus replay of a backend the binary does not have: check exits 2.
selftest.CORPUS = os.path.join(src, "corpus", "seeds")
rp = selftest.replay("no-such-backend")
check(rp["killed"] is False and "check exited 2" in rp.get("error", ""), "replay error recorded: %r" % rp)

# A fuzz target that refuses its backend, as fuzz_program does (exit 2, no artifact).
fake = os.path.join(work, "fake_fuzzer")
with open(fake, "w") as f:
    f.write("#!/bin/sh\necho 'fuzz_program: unknown backend no-such-backend' >&2\nexit 2\n")
os.chmod(fake, 0o755)
selftest.FUZZER = fake
selftest.FUZZ_SECONDS = 1
z = selftest.fuzz("no-such-backend", 1, work)
check(z["killed"] is False and z.get("error") == "fuzz_program exited 2: fuzz_program: unknown backend no-such-backend",
      "fuzz error recorded: %r" % z)

# The row fails with both reasons, for a faulty row and for a sound one alike.
seeds = selftest.SEEDS
for name in ("faulty-blockcopy", "reference"):
    row = {"backend": name, "replay": dict(rp),
           "run": [dict(r) for _ in seeds], "fuzz": [dict(z) for _ in seeds]}
    why = selftest.row_failures(row)
    check(any(w.startswith("replay did not run: check exited 2") for w in why), "%s: replay's reason in %r" % (name, why))
    check(any(w.startswith("run on seed %d did not run: run exited 2" % seeds[0]) for w in why),
          "%s: run's reason in %r" % (name, why))
    check(any(w.startswith("fuzz on seed %d did not run: fuzz_program exited 2" % seeds[0]) for w in why),
          "%s: fuzz's reason in %r" % (name, why))
# A row whose methods ran has no such reason.
ok_row = {"backend": "reference", "replay": {"killed": False},
          "run": [{"killed": False, "cases": None} for _ in seeds],
          "fuzz": [{"killed": False, "seconds": None} for _ in seeds]}
check(selftest.row_failures(ok_row) == [], "a clean sound row passes: %r" % selftest.row_failures(ok_row))

shutil.rmtree(work, ignore_errors=True)
for f in failures:
    print("FAIL " + f)
print("selftest_rows: %d checks failed" % len(failures) if failures else "selftest_rows: ok")
sys.exit(1 if failures else 0)
