"""fuzz_program's progress from fuzz.log, and fuzz-progress.svg.

libFuzzer prints a status line now and then. In fork mode, and in the lines
ci/fuzz_workers.py writes in that format (what ci/fuzz.sh runs), the line has
the total executions and the elapsed seconds (fork mode's exec/s field is 0),
so the rate is computed here from deltas of total executions over time.
In-process lines carry exec/s but no time: their time is estimated from the
execution deltas at the printed rate. The coverage is libFuzzer's `cov:`
(covered edges, i.e. instrumented control-flow edges): the report quotes it in
the same unit next to the plot (the llvm-cov line coverage comes from a separate
replay of the final corpus and has no time series).
"""
import re
from xml.sax.saxutils import escape

# Fork mode: "#123: cov: 1400 ft: 7000 corp: 600 exec/s 300 oom/timeout/crash: 0/0/0 time: 10s ..."
FORK_LINE = re.compile(r"^#(\d+): cov: (\d+) ft: (\d+) corp: (\d+) exec/s:? (\d+).*time: (\d+)s")
# In-process: "#4096	pulse  cov: 2279 ft: 10516 corp: 499/166Kb lim: 4096 exec/s: 215 rss: 699Mb"
PLAIN_LINE = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)\S*.*exec/s: (\d+)")


def parse_log(path):
    """[(seconds, total_execs, cov_edges, printed_exec_per_s)] in log order."""
    points = []
    try:
        f = open(path, errors="replace")
    except OSError:
        return points
    with f:
        for line in f:
            m = FORK_LINE.match(line)
            if m:
                points.append((float(m[6]), int(m[1]), int(m[2]), int(m[5])))
                continue
            m = PLAIN_LINE.match(line)
            if m:
                execs, eps = int(m[1]), int(m[5])
                t0, e0 = (points[-1][0], points[-1][1]) if points else (0.0, 0)
                points.append((t0 + (execs - e0) / eps if eps > 0 else t0, execs, int(m[2]), eps))
    return points


def rates(points):
    """[(seconds, exec/s)] from deltas of total executions, starting from 0
    executions at 0 s; lines printed within the same second are merged."""
    out, t0, e0 = [], 0.0, 0
    for t, e, _, _ in points:
        if t > t0:
            out.append((t, max(0.0, (e - e0) / (t - t0))))
            t0, e0 = t, e
    return out


def nice_max(v):
    """The smallest 1, 2 or 5 times a power of ten that is >= v (an axis end)."""
    v = max(v, 1)
    step = 1
    while step * 10 <= v:
        step *= 10
    for m in (1, 2, 5, 10):
        if m * step >= v:
            return m * step
    return 10 * step


def svg_plot(points, path):
    w, h, left, top, right = 620, 260, 90, 50, 110
    width, height = left + w + right, top + h + 60
    cov_pts = [(p[0], p[2]) for p in points]
    eps_pts = rates(points)
    t_max = max([p[0] for p in points] + [1.0])
    cov_top = nice_max(max([c for _, c in cov_pts] + [1]))
    eps_top = nice_max(max([r for _, r in eps_pts] + [1]))
    x = lambda t: left + w * t / t_max
    y = lambda v, top_v: top + h - h * v / top_v
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="monospace" font-size="11">' % (width, height),
         '<text x="%d" y="18" font-size="13">fuzz_program: coverage (blue, libFuzzer edges) '
         'and exec/s (orange)</text>' % left,
         '<text x="%d" y="34">exec/s from deltas of total executions over time; %d status '
         'line(s)</text>' % (left, len(points)),
         '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>' % (left, top, w, h)]
    # Both axes start at 0, with ticks at 0, 1/2 and the end.
    for frac in (0, 0.5, 1):
        s.append('<text x="%d" y="%.1f" text-anchor="end" fill="#1f77b4">%d</text>'
                 % (left - 4, y(frac * cov_top, cov_top) + 4, frac * cov_top))
        s.append('<text x="%d" y="%.1f" fill="#ff7f0e">%d</text>'
                 % (left + w + 4, y(frac * eps_top, eps_top) + 4, frac * eps_top))
        s.append('<text x="%.1f" y="%d" text-anchor="middle">%g</text>'
                 % (x(frac * t_max), top + h + 15, round(frac * t_max, 1)))
    s.append('<text transform="translate(14,%d) rotate(-90)" text-anchor="middle" '
             'fill="#1f77b4">coverage (edges, cov:)</text>' % (top + h / 2))
    s.append('<text transform="translate(%d,%d) rotate(90)" text-anchor="middle" '
             'fill="#ff7f0e">executions per second</text>' % (width - 14, top + h / 2))
    s.append('<text x="%d" y="%d" text-anchor="middle">time since the start of fuzzing (s)</text>'
             % (left + w / 2, top + h + 35))

    def series(values, top_v, color):
        pts = [(x(t), y(v, top_v)) for t, v in values]
        if len(pts) > 1:
            s.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                     % (color, " ".join("%.1f,%.1f" % p for p in pts)))
        for px, py in pts[-1:] if len(pts) > 1 else pts:  # a lone point is still visible
            s.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (px, py, color))

    if points:
        series(cov_pts, cov_top, "#1f77b4")
        series(eps_pts, eps_top, "#ff7f0e")
    else:
        s.append('<text x="%d" y="%d">%s</text>'
                 % (left + 10, top + 20, escape("no progress lines in fuzz.log")))
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")
