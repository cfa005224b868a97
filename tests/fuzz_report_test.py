#!/usr/bin/python3
"""The nightly report reads findings as records (`slicefuzz triage --jsonl`), not
messages: the minimised case's kind, op, line, path and rule come from its
record, grouping from the minimised records' signatures, and a message that
quotes some other op never moves the line. Also runs the CLI's --jsonl on a
planted finding. Usage: fuzz_report_test.py SOURCE_DIR CLI"""
import json
import os
import subprocess
import sys
import atexit
import shutil
import tempfile

SOURCE, CLI = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(SOURCE, "ci"))
from fuzz_report import (campaign_stats, coverage, findings, group_by_minimized_signature,  # noqa: E402
                         program_counts)

failures = []


def scratch_dir(prefix="tmp"):
    """A directory removed when the test exits, whatever its result."""
    d = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, d, True)
    return d


def check(cond, what):
    if not cond:
        failures.append(what)


# 1. The CLI: one record per failing file, its fields as the judge made them.
fixture = os.path.join(SOURCE, "tests/fixtures/known/faulty-output-rule/output_narrow_copy_aliased.case")
run = subprocess.run([CLI, "triage", "--jsonl", "--backend", "faulty-output-rule", "--known",
                      "/nonexistent", fixture], capture_output=True, text=True)
check(run.returncode == 1, "triage --jsonl of a new finding exits 1, got %d" % run.returncode)
lines = [l for l in run.stdout.splitlines() if l.strip()]
check(len(lines) == 1, "one record, got %r" % run.stdout)
rec = json.loads(lines[0]) if lines else {}
check(rec.get("signature") == "UNSOUND_REWRITE:narrow_copy:rewrite:program-output", "signature %r" % rec)
check(rec.get("kind") == "UNSOUND_REWRITE" and rec.get("path") == "rewrite", "kind/path %r" % rec)
check(rec.get("op") == 0 and rec.get("op_kind") == "narrow_copy", "op %r" % rec)
with open(fixture) as f:
    op_line = next(i + 1 for i, l in enumerate(f.read().splitlines()) if "narrow_copy(" in l)
check(rec.get("line") == op_line, "line %r, the op is on line %d" % (rec.get("line"), op_line))
check(rec.get("status") == "NEW", "status %r" % rec.get("status"))
check(rec.get("frames") == [] and rec.get("cause") == "", "no dead worker, no diagnosis: %r" % rec)
check(rec.get("check") == "rewrite-decisions", "the runner's check that made it: %r" % rec.get("check"))
known = subprocess.run([CLI, "triage", "--jsonl", "--backend", "faulty-output-rule", "--known",
                        os.path.dirname(fixture), fixture], capture_output=True, text=True)
check(known.returncode == 0 and '"status":"KNOWN"' in known.stdout.replace(" ", ""),
      "with the list the record says KNOWN and triage exits 0: %r" % known.stdout)

# 1b. Coverage is of the fuzzed backend's code under test, the rest apart: three
# files (the reference's kernel, PR 21552's rule, an ExecuTorch kernel) in an
# llvm-cov export summary.
cov_out = scratch_dir()
src, et = os.path.join(cov_out, "src"), os.path.join(cov_out, "et")


def cov_file(path, covered):
    return {"filename": path, "summary": {"lines": {"covered": covered, "count": 10},
                                          "branches": {"covered": 0, "count": 4}}}


with open(os.path.join(cov_out, "coverage-summary.json"), "w") as f:
    json.dump({"data": [{"files": [cov_file(src + "/kernels/op_slice_copy.cpp", 9),
                                   cov_file(src + "/backends/pr21552_rule.cpp", 1),
                                   cov_file(et + "/kernels/portable/cpu/op_slice_copy.cpp", 5)],
                         "totals": {}}]}, f)
for backend, covered, rest in (("reference", 9, 6), ("pr21552-rule", 1, 14), ("executorch-portable", 5, 10)):
    c = coverage(cov_out, backend, src, et)
    check(c["lines"] == {"covered": covered, "count": 10, "percent": covered * 10.0},
          "%s: the headline is its code under test, got %r" % (backend, c["lines"]))
    check(c["rest"]["lines"]["covered"] == rest and c["rest"]["lines"]["count"] == 20,
          "%s: the rest apart, got %r" % (backend, c["rest"]["lines"]))
check(coverage(cov_out, "executorch-portable", src, None)["lines"]["count"] == 0,
      "without ExecuTorch's source dir its files are not claimed as under test")

# 2. The report: fields from the records; the misleading message is not read.
out = scratch_dir()
case_text = "slicefuzz-case 3\ndtype float32\ninput x [4, 2]\na = clone(x)\ny = narrow_copy(a, dim=0, start=1, length=2)\noutput y\n"
# findings/<slug>: the directory triage's slug column names (signature_slug in the
# CLI); names no regex of the signature would give, so the report must read them.
for slug in ("slug-one", "slug-two"):
    d = os.path.join(out, "findings", slug)
    os.makedirs(d)
    for name in ("case.case", "minimized.case"):
        with open(os.path.join(d, name), "w") as f:
            f.write(case_text)
    with open(os.path.join(d, "finding.jsonl"), "w") as f:
        f.write(json.dumps({"signature": "SIG:root", "kind": "UNSOUND_REWRITE", "path": "rewrite",
                            "op": 1, "op_kind": "narrow_copy", "line": 5, "rule": "program-output",
                            # quotes op 0's text: a parser of messages would point at line 4
                            "message": "op 0 `a = clone(x)` is fine; see op 1", "status": "NEW"}) + "\n")
with open(os.path.join(out, "triage.tsv"), "w") as f:
    f.write("SIG:one\tVALUE_MISMATCH\tart1\tm1\tNEW\tslug-one\nSIG:two\tVALUE_MISMATCH\tart2\tm2\tNEW\tslug-two\n")
with open(os.path.join(out, "unique.tsv"), "w") as f:
    f.write("SIG:one\tVALUE_MISMATCH\tart1\tm1\tNEW\tslug-one\nSIG:two\tVALUE_MISMATCH\tart2\tm2\tNEW\tslug-two\n")
with open(os.path.join(out, "minimized.jsonl"), "w") as f:
    for slug in ("slug-one", "slug-two"):
        f.write(json.dumps({"signature": "SIG:root", "file": os.path.join(out, "findings", slug, "minimized.case"),
                            "status": "KNOWN"}) + "\n")
    f.write("not json\n")
found = findings(out, CLI, "reference")
check(len(found) == 2, "two findings, got %d" % len(found))
for f in found:
    check(f["kind"] == "UNSOUND_REWRITE", "own kind from the record: %r" % f["kind"])
    check(f["line"] == 5, "line from the record (5), got %r" % f["line"])
    check(f["op_kind"] == "narrow_copy" and f["rule"] == "program-output", "op kind/rule %r" % f)
groups = group_by_minimized_signature(out, found)
check(len(groups) == 1 and groups[0]["minimized_signature"] == "SIG:root",
      "one root cause by the minimised records, got %r" % [g.get("minimized_signature") for g in groups])
check(groups and groups[0]["status"] == "KNOWN", "the minimised record's status")

# 3. A dead worker's frames come from the record (the CLI's parse, the one the
# signature uses); the sanitizer log beside it is for people and is not re-parsed.
d = os.path.join(out, "findings", "slug-one")
with open(os.path.join(d, "finding.jsonl"), "w") as f:
    f.write(json.dumps({"signature": "SANITIZER:copy:strided_copy@kernels/util/strided_copy.cpp",
                        "kind": "SANITIZER", "path": "copy", "op": -1, "status": "NEW",
                        "frames": ["strided_copy kernels/util/strided_copy.cpp:65"]}) + "\n")
with open(os.path.join(d, "check.log"), "w") as f:
    f.write("    #0 0x55ab in slicefuzz::elsewhere() /src/kernels/other.cpp:1:1\n")
found = {x["signature"]: x for x in findings(out, CLI, "reference")}
check(found["SIG:one"]["frames"] == ["strided_copy kernels/util/strided_copy.cpp:65"],
      "frames from the record: %r" % found["SIG:one"]["frames"])

# 4. The corpus replay's figures come from check's records (--stats-jsonl), summed
# over batches; the human line in coverage-replay.log is not read.
with open(os.path.join(out, "coverage-replay.log"), "w") as f:
    f.write("backend reference: 999 cases run in 1 s (1 cases/s); 999 slices, 999 rewritten to et_slice "
            "(100.0%), 0 tolerated findings; arena bytes 9 with the rewrite, 9 copy-only\n")
stats_file = os.path.join(out, "coverage-replay.jsonl")
seed_dir = os.path.join(SOURCE, "corpus/seeds")
seeds = sorted(os.path.join(seed_dir, n) for n in os.listdir(seed_dir) if n.endswith(".case"))[:6]
for batch in (seeds[:3], seeds[3:]):
    r = subprocess.run([CLI, "check", "--no-isolate", "--stats-jsonl", stats_file] + batch,
                       capture_output=True, text=True)
    check(r.returncode == 0, "check of three seeds: %r" % r.stdout[-300:])
recs = [json.loads(l) for l in open(stats_file).read().splitlines()]
check(len(recs) == 2 and all(r["cases"] == 3 for r in recs), "one record per call: %r" % recs)
st = campaign_stats(out)
check(st["cases"] == 6 and st["slices"] == sum(r["slices"] for r in recs),
      "totals from the records: %r" % st)
# A dynamic program is counted with its symbols and its executions (its run lines).
dyn = os.path.join(SOURCE, "corpus/seeds/dynamic/kv_cache_read_at_live_length.case")
dyn_runs = sum(1 for l in open(dyn) if l.startswith("run "))
r = subprocess.run([CLI, "check", "--no-isolate", "--stats-jsonl", stats_file, dyn, seeds[0]],
                   capture_output=True, text=True)
last = json.loads(open(stats_file).read().splitlines()[-1])
check(dyn_runs >= 2 and last["cases_with_symbols"] == 1 and last["executions"] == dyn_runs + 1,
      "a dynamic program's symbols and executions (%d run lines): %r" % (dyn_runs, last))
check(campaign_stats(out)["cases_with_symbols"] == 1, "summed: %r" % campaign_stats(out))
# fuzz_program's own counts, as ci/fuzz_workers.py sums them into fuzz.log.
with open(os.path.join(out, "fuzz.log"), "a") as f:
    f.write("stat::slicefuzz_programs: 40\nstat::slicefuzz_programs_with_symbols: 9\n"
            "stat::slicefuzz_executions: 57\n")
check(program_counts(out) == {"programs": 40, "programs_with_symbols": 9, "executions": 57},
      "fuzz_program's counts from fuzz.log: %r" % program_counts(out))

# 5. run --out writes its findings as records (findings.jsonl), which
# ci/selftest.py reads instead of the printed "finding ..." lines.
run_out = scratch_dir()
r = subprocess.run([CLI, "run", "--count", "200", "--seed", "1", "--backend", "faulty-output-rule",
                    "--stop-at-first", "--no-minimize", "--out", run_out], capture_output=True, text=True)
recs = [json.loads(l) for l in open(os.path.join(run_out, "findings.jsonl")).read().splitlines()] \
    if os.path.exists(os.path.join(run_out, "findings.jsonl")) else []
check(r.returncode == 1 and len(recs) >= 1, "run found the planted bug and wrote a record: %r" % recs)
for rec in recs:
    check(rec["status"] == "NEW" and rec["kind"] == rec["signature"].split(":")[0] and rec["count"] >= 1,
          "record fields: %r" % rec)
    check(os.path.exists(rec["case_file"]), "the record's case file exists: %r" % rec["case_file"])
    check("finding %s: %d times, first at case %d" % (rec["signature"], rec["count"], rec["first_case"])
          in r.stdout, "the record says what the printed line says: %r" % rec)

for f in failures:
    print("FAIL:", f)
print("fuzz_report_test: %d checks failed" % len(failures) if failures else "fuzz_report_test: ok")
sys.exit(1 if failures else 0)
