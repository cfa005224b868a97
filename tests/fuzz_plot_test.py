#!/usr/bin/python3
"""fuzz-progress.svg (ci/fuzz_plot.py): one status line, fork mode (libFuzzer
prints exec/s 0 there: the rate comes from execution deltas), axes from 0 with
their units, no text outside the picture. Usage: fuzz_plot_test.py SOURCE_DIR"""
import os
import re
import sys
import atexit
import shutil
import tempfile

sys.path.insert(0, os.path.join(sys.argv[1], "ci"))
from fuzz_plot import parse_log, rates, svg_plot  # noqa: E402

CHAR_W = 7.5  # a generous monospace advance at font-size 11-13
failures = []


def scratch_dir(prefix="tmp"):
    """A directory removed when the test exits, whatever its result."""
    d = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, d, True)
    return d


def check(cond, what):
    if not cond:
        failures.append(what)


def plot(log_text):
    d = scratch_dir()
    log, svg = os.path.join(d, "fuzz.log"), os.path.join(d, "p.svg")
    with open(log, "w") as f:
        f.write(log_text)
    points = parse_log(log)
    svg_plot(points, svg)
    return points, open(svg).read()


def texts_inside(svg, name):
    width = float(re.search(r'<svg[^>]*width="(\d+)"', svg)[1])
    for m in re.finditer(r'<text ([^>]*)>([^<]*)<', svg):
        attrs, text = m[1], m[2]
        if "rotate" in attrs:
            continue
        x = float(re.search(r'x="([\d.]+)"', attrs)[1])
        n = len(text) * CHAR_W
        anchor = re.search(r'text-anchor="(\w+)"', attrs)
        lo, hi = {"end": (x - n, x), "middle": (x - n / 2, x + n / 2)}.get(
            anchor[1] if anchor else "start", (x, x + n))
        check(lo >= 0 and hi <= width, "%s: text %r clipped (%.0f..%.0f of %.0f)" % (name, text, lo, hi, width))


FORK = "#%d: cov: %d ft: 9000 corp: 300 exec/s 0 oom/timeout/crash: 0/0/0 time: %ds job: 3 dft_time: 0\n"

# One data point: both series still drawn.
points, svg = plot(FORK % (12000, 1500, 10))
check(len(points) == 1, "one point parsed")
check(rates(points) == [(10.0, 1200.0)], "rate of a lone point from 0 execs at 0 s: %r" % rates(points))
check(svg.count("<circle") == 2, "a lone point draws a marker per series")
texts_inside(svg, "one point")

# Fork mode: exec/s printed as 0, computed from deltas.
log = "".join(FORK % (e, c, t) for e, c, t in [(2000, 900, 2), (6000, 1100, 4), (6000, 1100, 4),
                                                (14000, 1300, 8), (15000, 1310, 20)])
points, svg = plot(log)
rs = rates(points)
check([round(r) for _, r in rs] == [1000, 2000, 2000, 83], "fork-mode rates from deltas: %r" % rs)
check(svg.count("<polyline") == 2, "two series drawn")
# Coverage axis from 0, with its unit; the exec/s axis labelled.
check(re.search(r'fill="#1f77b4">0</text>', svg) is not None, "coverage axis starts at 0")
check("coverage (edges, cov:)" in svg, "coverage axis names its unit")
check("executions per second" in svg, "exec/s axis labelled")
texts_inside(svg, "fork mode")

# In-process lines: time estimated from the printed rate.
points, svg = plot("#1000\tpulse  cov: 50 ft: 60 corp: 5/1Kb lim: 4 exec/s: 500 rss: 1Mb\n"
                   "#3000\tpulse  cov: 70 ft: 90 corp: 9/2Kb lim: 4 exec/s: 1000 rss: 1Mb\n")
check([p[0] for p in points] == [2.0, 4.0], "in-process times from exec deltas: %r" % points)

# No lines at all.
points, svg = plot("INFO: Seed: 1\n")
check("no progress lines" in svg, "empty log says so")

for f in failures:
    print("FAIL", f)
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
