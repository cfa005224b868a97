#!/usr/bin/python3
"""Writes the nightly job's reports from what ci/fuzz.sh left in OUT.

Inputs (in OUT): fuzz.log (libFuzzer), triage.tsv (every replayed artifact:
signature, kind, artifact, message, NEW|KNOWN), unique.tsv (one line per
signature), findings/<slug>/ (case, minimized case, finding.jsonl: the minimised
case's own finding as a record of `slicefuzz triage --jsonl`, with the dead
worker's frames; check.log: its worker log, for people; reproducers), minimized.jsonl (the records of every minimised case, for their
root-cause signatures), known-replay.tsv (the backend's
known findings replayed), coverage-summary.json, coverage-replay.jsonl (the
corpus replay's figures as records).
Any of them may be missing: with --failed REASON (the job failed, exit 2) the
reports are still written, with the reason first.
Outputs (in OUT): report.md, report.json, junit.xml, findings.sarif,
fuzz-progress.svg.
"""
import argparse
import datetime
import glob
import json
import os
import re
import sys
from xml.sax.saxutils import escape

# The progress series and its plot (ci/fuzz_plot.py, next to this script).
from fuzz_plot import parse_log, rates, svg_plot


# The code under test of each backend, as paths in the source tree (and, for the
# ExecuTorch backends, every ExecuTorch file built in): the headline coverage is
# of these; every other covered file (the reference's kernels when a backend
# replaces them, the faulty backends, other backends) is listed apart.
def under_test_parts(backend):
    """(name, test(path relative to the source tree, or None), takes ExecuTorch files)."""
    if backend.startswith("executorch"):
        return "ExecuTorch's sources built in and backends/executorch/", ("backends/executorch/",), True
    if backend == "pr21552-rule":
        return "PR 21552's rule (backends/pr21552_rule.cpp)", ("backends/pr21552_rule.cpp",), False
    if backend.startswith("faulty-"):
        return ("the project's kernels/ and program/ with the faulty backends' files",
                ("kernels/", "program/", "backends/faulty"), False)
    if backend == "example-naive-kernels":
        return "backends/example_backend.cpp, kernels/ and program/", (
            "backends/example_backend.cpp", "kernels/", "program/"), False
    return "the project's kernels/ and program/ (the reference's kernels, pass, planner, executor)", (
        "kernels/", "program/"), False


def coverage(out, backend="reference", source_dir=None, executorch_dir=None):
    try:
        with open(os.path.join(out, "coverage-summary.json")) as f:
            data = json.load(f)["data"][0]
    except (OSError, KeyError, IndexError, ValueError) as e:
        return {"lines": None, "branches": None, "percent": None, "error": str(e)}
    scope, prefixes, takes_executorch = under_test_parts(backend)
    src = os.path.realpath(source_dir or os.getcwd()) + os.sep
    et = os.path.realpath(executorch_dir) + os.sep if executorch_dir else None  # "" counts as none
    sums = {"under_test": [0, 0, 0, 0], "rest": [0, 0, 0, 0]}  # lines covered/count, branches
    files = {"under_test": [], "rest": []}
    for f in data.get("files", []):
        name = os.path.realpath(f["filename"])
        if et and name.startswith(et):
            part, rel = ("under_test" if takes_executorch else "rest"), "executorch/" + name[len(et):]
        else:
            rel = name[len(src):] if name.startswith(src) else name
            part = "under_test" if rel.startswith(prefixes) else "rest"
        lines, branches = f["summary"]["lines"], f["summary"]["branches"]
        acc = sums[part]
        acc[0] += lines["covered"]
        acc[1] += lines["count"]
        acc[2] += branches["covered"]
        acc[3] += branches["count"]
        files[part].append({"file": rel, "lines_covered": lines["covered"], "lines": lines["count"]})

    def summary(acc):
        pct = lambda c, n: round(100.0 * c / n, 2) if n else 0.0
        return {"lines": {"covered": acc[0], "count": acc[1], "percent": pct(acc[0], acc[1])},
                "branches": {"covered": acc[2], "count": acc[3], "percent": pct(acc[2], acc[3])}}

    under = summary(sums["under_test"])
    return {
        "lines": under["lines"], "branches": under["branches"], "percent": under["lines"]["percent"],
        "scope": "%s, replaying the final corpus on backend %s" % (scope, backend),
        "rest": dict(summary(sums["rest"]), files=sorted(files["rest"], key=lambda x: x["file"])),
        "under_test_files": sorted(files["under_test"], key=lambda x: x["file"]),
        "html": "coverage/index.html",
    }


def read_tsv(path, width):
    rows = []
    if os.path.exists(path):
        with open(path, errors="replace") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= width:
                    rows.append(parts + [""] * (6 - len(parts)))
    return rows


def read(path, default=""):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


def read_jsonl(path):
    """The records of a `slicefuzz triage --jsonl` output (a broken line is skipped)."""
    records = []
    for line in read(path).splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict):
            records.append(rec)
    return records


def findings(out, cli, backend):
    """One entry per signature of unique.tsv, with what the minimised case says."""
    triaged = read_tsv(os.path.join(out, "triage.tsv"), 4)
    folded = {}
    for row in triaged:
        folded[row[0]] = folded.get(row[0], 0) + 1
    result = []
    for sig, kind, artifact, message, status, slug in read_tsv(os.path.join(out, "unique.tsv"), 4):
        # triage's slug column (signature_slug in the CLI), never recomputed here.
        d = os.path.join("findings", slug or sig)
        case = os.path.join(d, "minimized.case")
        if not os.path.exists(os.path.join(out, case)):
            case = os.path.join(d, "case.case")
        repro = [p for p in (os.path.join(d, "repro.py"), os.path.join(d, "repro_test.cpp"))
                 if os.path.exists(os.path.join(out, p))]
        # The minimised case's own finding (it was re-run), not the artifact's:
        # its record's fields, never its message, say what and where.
        own = (read_jsonl(os.path.join(out, d, "finding.jsonl")) or [{}])[0]
        own_kind = own.get("kind", kind)
        own_message = own.get("message", message)
        text = read(os.path.join(out, case))
        case_abs = os.path.abspath(os.path.join(out, case))
        result.append({
            "signature": sig, "kind": own_kind, "case": case, "artifact": artifact,
            "message": own_message, "artifact_message": message,
            "status": status or "NEW", "reproducers": repro,
            "case_text": "\n".join(l for l in text.splitlines() if not l.startswith("#")),
            # The record's frames (the CLI's own parse of the worker's log, the
            # one the signature uses), the first five.
            "frames": list(own.get("frames") or [])[:5],
            "artifacts": folded.get(sig, 1),
            "repro_command": "%s check --backend %s %s" % (os.path.abspath(cli), backend, case_abs),
            "line": own.get("line") or header_line(text),
            "op": own.get("op", -1), "op_kind": own.get("op_kind", ""),
            "path": own.get("path", ""), "rule": own.get("rule", ""),
        })
    return result


def header_line(text):
    """The header's line: where a finding about no one op points."""
    for i, line in enumerate(text.splitlines()):
        if line.startswith("slicefuzz-case"):
            return i + 1
    return 1


def group_by_minimized_signature(out, found):
    """Findings whose minimised cases share a root-cause signature are one bug:
    keep the first, fold the others into it (their files stay on disk)."""
    minimized = {}
    for rec in read_jsonl(os.path.join(out, "minimized.jsonl")):
        if rec.get("file") and rec.get("signature"):
            minimized[os.path.dirname(os.path.relpath(rec["file"], out))] = (
                rec["signature"], rec.get("status") or "NEW")
    groups, order = {}, []
    for f in found:
        key, status = minimized.get(os.path.dirname(f["case"]), (f["signature"], f["status"]))
        f["minimized_signature"] = key
        f["status"] = status
        if key not in groups:
            groups[key] = f
            f["duplicates"] = []
            order.append(f)
        else:
            groups[key]["duplicates"].append(f["case"])
            groups[key]["artifacts"] += f["artifacts"]
    return order


def known_not_reproduced(out, known_dir):
    """Known findings of the backend whose replay no longer fails with their signature."""
    replay = {row[2]: row[0] for row in read_tsv(os.path.join(out, "known-replay.tsv"), 3)}
    gone = []
    for path in sorted(glob.glob(os.path.join(known_dir, "*.case"))) if known_dir else []:
        sig = ""
        for line in read(path).splitlines():
            if line.startswith("# signature:"):
                sig = line.split(":", 1)[1].strip()
        if replay.get(path) != sig:
            gone.append({"file": path, "signature": sig, "now": replay.get(path, "passes")})
    return gone


def known_hits(out):
    """Known findings fuzz_program met and skipped (known-hits.log: "SIG PID N",
    written at powers of two per process): the sum over processes of the largest
    N, a lower bound of the hits."""
    per = {}
    for line in read(os.path.join(out, "known-hits.log")).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2].isdigit():
            key = (parts[0], parts[1])
            per[key] = max(per.get(key, 0), int(parts[2]))
    hits = {}
    for (sig, _), n in per.items():
        hits[sig] = hits.get(sig, 0) + n
    return hits


def program_counts(out):
    """fuzz_program's own counts, the last `stat::slicefuzz_*` lines of fuzz.log
    (ci/fuzz_workers.py sums them over workers and starts): programs run, those
    with symbols (dynamic), their executions. None when the log has none."""
    counts = {}
    for line in read(os.path.join(out, "fuzz.log")).splitlines():
        m = re.match(r"^stat::slicefuzz_(programs|programs_with_symbols|executions): (\d+)", line)
        if m:
            counts[m[1]] = int(m[2])
    return counts if "programs" in counts else None


def campaign_stats(out):
    """Rewrite share and arena totals over the final corpus (the coverage replay's
    records, coverage-replay.jsonl: one per batch of files)."""
    st = {"cases": 0, "cases_with_symbols": 0, "executions": 0, "slices": 0, "rewritten": 0,
          "arena_bytes": 0, "copy_only_arena_bytes": 0}
    for rec in read_jsonl(os.path.join(out, "coverage-replay.jsonl")):
        for k in st:
            st[k] += int(rec.get(k, 0))
    st["rewrite_share"] = round(st["rewritten"] / st["slices"], 4) if st["slices"] else None
    return st


def rate_warnings(points):
    """exec/s from deltas of total executions (fork mode prints 0 exec/s): a
    warning when the last third of the campaign ran at under 10% of the best."""
    warnings = []
    if points and points[-1][0] > 0 and points[-1][1] / max(points[-1][0], 1) < 10:
        warnings.append("exec/s collapsed: %d executions in %d s. Nearly every input crashes "
                        "(each crash restarts a libFuzzer worker, which reloads libtorch): a "
                        "finding on a common path? List it in corpus/known/<backend> and "
                        "fuzz_program skips it and explores on" % (points[-1][1], points[-1][0]))
    rs = rates(points)
    if len(rs) < 3:
        return warnings
    best = max(r for _, r in rs)
    tail = rs[-max(1, len(rs) // 3):]
    late = sum(r for _, r in tail) / len(tail)
    if best > 0 and late < 0.1 * best:
        warnings.append("exec/s collapsed: %.0f exec/s at best, %.0f exec/s over the last third "
                        "of the campaign (slow inputs, a crash loop, or memory pressure)" % (best, late))
    return warnings


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("--backend", default="reference")
    ap.add_argument("--corpus-before", type=int, default=0)
    ap.add_argument("--corpus-after", type=int, default=0)
    ap.add_argument("--seed", default="")
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--known-dir", default="")
    ap.add_argument("--cli", default="build/fuzz/slicefuzz")
    ap.add_argument("--warnings", default="")
    ap.add_argument("--failed", default="")
    ap.add_argument("--total-seconds", type=float, default=None)
    ap.add_argument("--bound", type=float, default=None)
    ap.add_argument("--source-dir", default=None)
    ap.add_argument("--executorch-src", default=None)
    a = ap.parse_args()
    out = a.out
    points = parse_log(os.path.join(out, "fuzz.log"))
    total = points[-1][1] if points else 0
    secs = max(a.seconds, 1.0)
    found = group_by_minimized_signature(out, findings(out, a.cli, a.backend))
    new = [f for f in found if f["status"] != "KNOWN"]
    known = [f for f in found if f["status"] == "KNOWN"]
    gone = known_not_reproduced(out, a.known_dir)
    skipped = known_hits(out)
    cov = coverage(out, a.backend, a.source_dir, a.executorch_src)
    stats = campaign_stats(out)
    programs = program_counts(out)
    warnings = [w for w in a.warnings.split("\n") if w] + rate_warnings(points)
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    report = {
        "date": date, "commit": a.commit, "seed": a.seed,
        "backend": a.backend,
        "job_failed": a.failed or None,
        "seconds": a.seconds,
        "total_seconds": a.total_seconds, "bound_seconds": a.bound,
        "total_execs": total,
        "execs_per_second": round(total / secs, 1),
        "coverage": cov,
        "corpus": {"before": a.corpus_before, "after": a.corpus_after},
        "libfuzzer_edges": points[-1][2] if points else None,
        "campaign": stats,
        "programs_fuzzed": programs,
        "warnings": warnings,
        "findings": found,
        "new_findings": len(new),
        "known_findings": len(known),
        "known_not_reproduced": gone,
        "known_skipped_while_fuzzing": skipped,
    }
    write_atomic(os.path.join(out, "report.json"), json.dumps(report, indent=2) + "\n")
    svg_plot(points, os.path.join(out, "fuzz-progress.svg"))

    md = ["# slicefuzz nightly report", ""]
    if a.failed:
        md += ["**The job failed (exit 2): %s**" % a.failed, "",
               "What follows is what the job had done before it stopped.", ""]
    md += ["- date: %s; commit `%s`; seed `%s`; backend `%s`" % (date, a.commit, a.seed, a.backend),
           "- fuzzing: %d s, %d executions, %.1f exec/s" % (a.seconds, total, total / secs),
           "- corpus: %d -> %d files" % (a.corpus_before, a.corpus_after)]
    if programs:
        md.append("- programs run while fuzzing: %d, of which %d with symbols (dynamic shapes or runtime "
                  "integers, %.1f%%); %d executions (a static program is one)"
                  % (programs["programs"], programs.get("programs_with_symbols", 0),
                     100.0 * programs.get("programs_with_symbols", 0) / max(programs["programs"], 1),
                     programs.get("executions", 0)))
    if a.total_seconds is not None:
        md.append("- whole job after the build: %d s (bound %d s)" % (a.total_seconds, a.bound or 0))
    if stats["slices"]:
        md.append("- final corpus replay: %d cases (%d with symbols, %d executions), %d slices, %.1f%% of "
                  "view-copy ops rewritten to aliases; arena bytes %d with the rewrite, %d copy-only"
                  % (stats["cases"], stats["cases_with_symbols"], stats["executions"], stats["slices"],
                     100.0 * stats["rewrite_share"],
                     stats["arena_bytes"], stats["copy_only_arena_bytes"]))
    if cov.get("lines"):
        md.append("- coverage of the code under test (%s): lines %.2f%% (%d/%d), branches "
                  "%.2f%% (%d/%d); HTML in `coverage/index.html`"
                  % (cov["scope"], cov["lines"]["percent"], cov["lines"]["covered"], cov["lines"]["count"],
                     cov["branches"]["percent"], cov["branches"]["covered"],
                     cov["branches"]["count"]))
        rest = cov["rest"]
        if rest["lines"]["count"]:
            md.append("- apart, not under test with this backend (%d files: the other backends, the "
                      "reference's code where this backend replaces it): lines %.2f%% (%d/%d)"
                      % (len(rest["files"]), rest["lines"]["percent"], rest["lines"]["covered"],
                         rest["lines"]["count"]))
    md.append("- progress plot: `fuzz-progress.svg` (coverage in libFuzzer's unit, covered edges "
              "`cov:`: %s at the end; exec/s from deltas of total executions)"
              % (points[-1][2] if points else "no status lines"))
    if warnings:
        md += ["", "## Warnings", ""] + ["- %s" % w for w in warnings]
    md += ["", "## Findings (%d new, %d known)" % (len(new), len(known)), ""]
    if not found:
        md.append("None.")
    for f in new + known:
        md += ["### %s%s" % ("KNOWN: " if f["status"] == "KNOWN" else "", f["minimized_signature"]), "",
               "- kind: `%s`; %s; %d artifact(s) folded into it"
               % (f["kind"], "known (listed in `%s`)" % a.known_dir if f["status"] == "KNOWN"
                  else "new", f["artifacts"]),
               "- message (of the minimised case): %s" % f["message"]]
        if f["frames"]:
            md.append("- top frames in the system under test:")
            md += ["  - `%s`" % fr for fr in f["frames"]]
        md += ["- reproduce: `%s`" % f["repro_command"],
               "- case: `%s` (from artifact `%s`); reproducers: %s"
               % (f["case"], f["artifact"], ", ".join("`%s`" % r for r in f["reproducers"]) or "none"),
               "", "```", f["case_text"], "```"]
        if f.get("duplicates"):
            md.append("- the same root cause after minimisation: %s"
                      % ", ".join("`%s`" % d for d in f["duplicates"]))
        md.append("")
    if skipped:
        md += ["Known findings met while fuzzing (not kept as artifacts; fuzz_program explored on):", ""]
        md += ["- KNOWN `%s`: at least %d hits" % (k, n) for k, n in sorted(skipped.items())]
        md.append("")
    if gone:
        md += ["## Known findings that no longer reproduce (fixed? move to corpus/regression/)", ""]
        md += ["- `%s` (%s): now %s" % (g["file"], g["signature"], g["now"]) for g in gone]
        md.append("")
    write_atomic(os.path.join(out, "report.md"), "\n".join(md) + "\n")

    q = {'"': "&quot;"}
    cases = ['  <testcase classname="slicefuzz.nightly" name="campaign" time="%.1f"%s' % (
        a.seconds, ">\n    <error type=\"JOB_FAILED\" message=\"%s\"/>\n  </testcase>" % escape(a.failed, q)
        if a.failed else "/>")]
    for f in found:
        body = ('    <skipped message="KNOWN: %s"/>' % escape(f["minimized_signature"], q)
                if f["status"] == "KNOWN" else
                '    <failure type="%s" message="%s">%s</failure>'
                % (escape(f["kind"]), escape(f["message"], q),
                   escape(f["repro_command"] + "\n\n" + f["case_text"])))
        cases.append('  <testcase classname="slicefuzz.findings" name="%s">\n%s\n  </testcase>'
                     % (escape(f["minimized_signature"], q), body))
    write_atomic(os.path.join(out, "junit.xml"),
                 '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="slicefuzz-nightly" '
                 'tests="%d" failures="%d" errors="%d" skipped="%d" time="%.1f">\n%s\n</testsuite>\n'
                 % (1 + len(found), len(new), 1 if a.failed else 0, len(known), a.seconds,
                    "\n".join(cases)))

    rules = sorted({f["kind"] for f in found})
    readme = "file://" + os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "README.md"))
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "slicefuzz",
                                "informationUri": os.environ.get("SLICEFUZZ_INFO_URI", readme),
                                "rules": [{"id": k, "shortDescription": {"text": k}}
                                          for k in rules]}},
            # URIs are relative to the report directory, named by this base id.
            "originalUriBaseIds": {"REPORTDIR": {"uri": "file://" + os.path.abspath(out) + "/"}},
            "results": [{
                "ruleId": f["kind"],
                "level": "note" if f["status"] == "KNOWN" else "error",
                "message": {"text": f["message"]},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": f["case"], "uriBaseId": "REPORTDIR"},
                    "region": {"startLine": f["line"]}}}],
                "partialFingerprints": {"slicefuzzSignature/v2": f["minimized_signature"]},
            } for f in found],
        }],
    }
    write_atomic(os.path.join(out, "findings.sarif"), json.dumps(sarif, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
