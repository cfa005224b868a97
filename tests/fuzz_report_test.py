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
import tempfile

SOURCE, CLI = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(SOURCE, "ci"))
from fuzz_report import findings, group_by_minimized_signature  # noqa: E402

failures = []


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
known = subprocess.run([CLI, "triage", "--jsonl", "--backend", "faulty-output-rule", "--known",
                        os.path.dirname(fixture), fixture], capture_output=True, text=True)
check(known.returncode == 0 and '"status":"KNOWN"' in known.stdout.replace(" ", ""),
      "with the list the record says KNOWN and triage exits 0: %r" % known.stdout)

# 2. The report: fields from the records; the misleading message is not read.
out = tempfile.mkdtemp()
case_text = "slicefuzz-case 3\ndtype float32\ninput x [4, 2]\na = clone(x)\ny = narrow_copy(a, dim=0, start=1, length=2)\noutput y\n"
for slug in ("SIG-one", "SIG-two"):  # findings/<slug>: the signature with - for other characters
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
    f.write("SIG:one\tVALUE_MISMATCH\tart1\tm1\tNEW\nSIG:two\tVALUE_MISMATCH\tart2\tm2\tNEW\n")
with open(os.path.join(out, "unique.tsv"), "w") as f:
    f.write("SIG:one\tVALUE_MISMATCH\tart1\tm1\tNEW\nSIG:two\tVALUE_MISMATCH\tart2\tm2\tNEW\n")
with open(os.path.join(out, "minimized.jsonl"), "w") as f:
    for slug in ("SIG-one", "SIG-two"):
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

for f in failures:
    print("FAIL:", f)
print("fuzz_report_test: %d checks failed" % len(failures) if failures else "fuzz_report_test: ok")
sys.exit(1 if failures else 0)
