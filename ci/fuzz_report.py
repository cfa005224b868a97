#!/usr/bin/python3
"""Writes the nightly job's reports from what ci/fuzz.sh left in OUT.

Inputs (in OUT): fuzz.log (libFuzzer), unique.tsv (one finding per signature:
signature, kind, artifact, message), findings/<slug>/ (case, minimized case,
reproducers), coverage-summary.json (llvm-cov export -summary-only).
Outputs (in OUT): report.md, report.json, junit.xml, findings.sarif,
fuzz-progress.svg.
"""
import argparse
import json
import os
import re
import sys
from xml.sax.saxutils import escape

# Fork mode: "#123: cov: 1400 ft: 7000 corp: 600 exec/s 300 oom/timeout/crash: 0/0/0 time: 10s ..."
FORK_LINE = re.compile(r"^#(\d+): cov: (\d+) ft: (\d+) corp: (\d+) exec/s:? (\d+).*time: (\d+)s")
# In-process: "#4096	pulse  cov: 2279 ft: 10516 corp: 499/166Kb lim: 4096 exec/s: 215 rss: 699Mb"
PLAIN_LINE = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)\S*.*exec/s: (\d+)")


def parse_log(path):
    points = []  # (seconds, total_execs, cov, exec_per_s)
    if not os.path.exists(path):
        return points
    with open(path, errors="replace") as f:
        for i, line in enumerate(f):
            m = FORK_LINE.match(line)
            if m:
                points.append((int(m[6]), int(m[1]), int(m[2]), int(m[5])))
                continue
            m = PLAIN_LINE.match(line)
            if m:
                points.append((float(len(points)), int(m[1]), int(m[2]), int(m[5])))
    return points


def coverage(out):
    try:
        with open(os.path.join(out, "coverage-summary.json")) as f:
            totals = json.load(f)["data"][0]["totals"]
        return {
            "lines": {"covered": totals["lines"]["covered"], "count": totals["lines"]["count"],
                      "percent": round(totals["lines"]["percent"], 2)},
            "branches": {"covered": totals["branches"]["covered"],
                         "count": totals["branches"]["count"],
                         "percent": round(totals["branches"]["percent"], 2)},
            "percent": round(totals["lines"]["percent"], 2),
            "scope": "kernels/ and program/, replaying the final corpus",
            "html": "coverage/index.html",
        }
    except (OSError, KeyError, IndexError, ValueError) as e:
        return {"lines": None, "branches": None, "percent": None, "error": str(e)}


def findings(out):
    result = []
    path = os.path.join(out, "unique.tsv")
    if not os.path.exists(path):
        return result
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 4:
                continue
            sig, kind, artifact, message = parts[0], parts[1], parts[2], parts[3]
            slug = re.sub(r"[^A-Za-z0-9_]", "-", sig)
            d = os.path.join("findings", slug)
            case = os.path.join(d, "minimized.case")
            if not os.path.exists(os.path.join(out, case)):
                case = os.path.join(d, "case.case")
            repro = [p for p in (os.path.join(d, "repro.py"), os.path.join(d, "repro_test.cpp"))
                     if os.path.exists(os.path.join(out, p))]
            result.append({"signature": sig, "kind": kind, "case": case, "artifact": artifact,
                           "message": message, "reproducers": repro})
    return result


def group_by_minimized_signature(out, found):
    """Findings whose minimised cases share a signature are one bug: keep the first,
    list the others under "duplicates" (their files stay on disk)."""
    minimized = {}
    path = os.path.join(out, "minimized.tsv")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3:
                    minimized[os.path.dirname(os.path.relpath(parts[2], out))] = parts[0]
    groups, order = {}, []
    for f in found:
        key = minimized.get(os.path.dirname(f["case"]), f["signature"])
        f["minimized_signature"] = key
        if key not in groups:
            groups[key] = f
            f["duplicates"] = []
            order.append(f)
        else:
            groups[key]["duplicates"].append(f["case"])
    return order


def svg_plot(points, path):
    w, h, left, top = 640, 280, 60, 30
    lines = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'font-family="monospace" font-size="11">' % (w + left + 70, h + top + 50),
             '<text x="%d" y="18" font-size="13">fuzz_program: coverage (blue) and exec/s '
             '(orange) over time</text>' % left,
             '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>'
             % (left, top, w, h)]
    if points:
        t_max = max(p[0] for p in points) or 1
        cov_min, cov_max = min(p[2] for p in points), max(p[2] for p in points)
        eps_max = max(p[3] for p in points) or 1
        span = (cov_max - cov_min) or 1

        def poly(values, color):
            pts = " ".join("%.1f,%.1f" % (left + w * t / t_max, top + h - h * v)
                           for t, v in values)
            return '<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (color, pts)

        lines.append(poly([(p[0], (p[2] - cov_min) / span) for p in points], "#1f77b4"))
        lines.append(poly([(p[0], p[3] / eps_max) for p in points], "#ff7f0e"))
        lines.append('<text x="%d" y="%d" text-anchor="end" fill="#1f77b4">%d</text>'
                     % (left - 4, top + 10, cov_max))
        lines.append('<text x="%d" y="%d" text-anchor="end" fill="#1f77b4">%d</text>'
                     % (left - 4, top + h, cov_min))
        lines.append('<text x="%d" y="%d" fill="#ff7f0e">%d exec/s</text>'
                     % (left + w + 4, top + 10, eps_max))
        lines.append('<text x="%d" y="%d" text-anchor="middle">time (s), 0 .. %s</text>'
                     % (left + w / 2, top + h + 20, t_max))
    else:
        lines.append('<text x="%d" y="%d">no progress lines in fuzz.log</text>'
                     % (left + 10, top + 20))
    lines.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


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
    a = ap.parse_args()
    out = a.out
    points = parse_log(os.path.join(out, "fuzz.log"))
    total = points[-1][1] if points else 0
    secs = max(a.seconds, 1.0)
    found = group_by_minimized_signature(out, findings(out))
    cov = coverage(out)
    report = {
        "backend": a.backend,
        "seconds": a.seconds,
        "total_execs": total,
        "execs_per_second": round(total / secs, 1),
        "coverage": cov,
        "corpus": {"before": a.corpus_before, "after": a.corpus_after},
        "libfuzzer_edges": points[-1][2] if points else None,
        "findings": found,
        "new_findings": len(found),
    }
    write_atomic(os.path.join(out, "report.json"), json.dumps(report, indent=2) + "\n")
    svg_plot(points, os.path.join(out, "fuzz-progress.svg"))

    md = ["# slicefuzz nightly report", "",
          "- backend: `%s`" % a.backend,
          "- fuzzing: %d s, %d executions, %.1f exec/s" % (a.seconds, total, total / secs),
          "- corpus: %d -> %d files" % (a.corpus_before, a.corpus_after)]
    if cov.get("lines"):
        md.append("- coverage of kernels/ and program/: lines %.2f%% (%d/%d), branches %.2f%% "
                  "(%d/%d); HTML in `coverage/index.html`"
                  % (cov["lines"]["percent"], cov["lines"]["covered"], cov["lines"]["count"],
                     cov["branches"]["percent"], cov["branches"]["covered"],
                     cov["branches"]["count"]))
    md.append("- progress plot: `fuzz-progress.svg`")
    md += ["", "## Findings (%d distinct)" % len(found), ""]
    if not found:
        md.append("None.")
    for f in found:
        md += ["### %s" % f["signature"], "", "- kind: `%s`" % f["kind"],
               "- case: `%s` (from artifact `%s`)" % (f["case"], f["artifact"]),
               "- reproducers: %s" % ", ".join("`%s`" % r for r in f["reproducers"]),
               "- message: %s" % f["message"]]
        if f.get("duplicates"):
            md.append("- the same bug after minimisation: %s"
                      % ", ".join("`%s`" % d for d in f["duplicates"]))
        md.append("")
    write_atomic(os.path.join(out, "report.md"), "\n".join(md) + "\n")

    cases = ['  <testcase classname="slicefuzz.nightly" name="campaign" time="%.1f"/>' % a.seconds]
    for f in found:
        cases.append('  <testcase classname="slicefuzz.findings" name="%s">\n'
                     '    <failure type="%s" message="%s">%s</failure>\n  </testcase>'
                     % (escape(f["signature"], {'"': "&quot;"}), escape(f["kind"]),
                        escape(f["message"], {'"': "&quot;"}), escape(f["case"])))
    write_atomic(os.path.join(out, "junit.xml"),
                 '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="slicefuzz-nightly" '
                 'tests="%d" failures="%d" time="%.1f">\n%s\n</testsuite>\n'
                 % (1 + len(found), len(found), a.seconds, "\n".join(cases)))

    rules = sorted({f["kind"] for f in found})
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "slicefuzz", "informationUri": "README.md",
                                "rules": [{"id": k, "shortDescription": {"text": k}}
                                          for k in rules]}},
            "results": [{
                "ruleId": f["kind"],
                "level": "error",
                "message": {"text": f["message"]},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": f["case"]}}}],
                "partialFingerprints": {"slicefuzzSignature/v1": f["signature"]},
            } for f in found],
        }],
    }
    write_atomic(os.path.join(out, "findings.sarif"), json.dumps(sarif, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
