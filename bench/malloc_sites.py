#!/usr/bin/env python3
"""Heap allocations per execution of fuzz_program, by the source line that asked.

    build/fuzz/fuzz_program -trace_malloc=2 -runs=1 FILES... > trace.txt 2>&1
    bench/malloc_sites.py trace.txt [TOP]

Each malloc is charged to the first stack frame in this repository's sources
(not build/). libFuzzer executes an input a second time when its mallocs and
frees differ (a first execution can fill a kept cache; tests/heap_balance_test
holds warm runs to balance), so only the last traced execution of each file is counted: the steady
state a fuzzing run sees. Also printed, for comparison with older notes: every
traced malloc divided by the number of files.
"""
import collections
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + "/"


def site(block):
    frames = [f for f in re.findall(re.escape(ROOT) + r"(\S+?:\d+)", block)
              if not f.startswith("build/")]
    return frames[0] if frames else "(outside the repository)"


def main():
    runs_by_file = collections.OrderedDict()
    current = run = block = None
    every_malloc = 0
    with open(sys.argv[1], errors="replace") as f:
        for line in f:
            if line.startswith("Running:"):
                current = line.strip()
                runs_by_file[current] = []
            elif line.startswith("MallocFreeTracer: START"):
                run = collections.Counter()
            elif line.startswith("MallocFreeTracer: STOP"):
                if block is not None:
                    run[site(block)] += 1
                block = None
                runs_by_file.setdefault(current, []).append(run)
                run = None
            elif line.startswith("MALLOC["):
                every_malloc += 1
                if run is not None and block is not None:
                    run[site(block)] += 1
                block = line if run is not None else None
            elif block is not None:
                block += line
    files = len(runs_by_file)
    if not files:
        sys.exit("no 'Running:' lines: was fuzz_program given files and -trace_malloc=2?")
    sites = collections.Counter()
    for runs in runs_by_file.values():
        if runs:
            sites.update(runs[-1])
    total = sum(sites.values())
    print("%d files: %.1f mallocs per execution (steady state); every traced malloc / files: %.1f"
          % (files, total / files, every_malloc / files))
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    for where, n in sites.most_common(top):
        print("%7.1f  %s" % (n / files, where))


if __name__ == "__main__":
    main()
