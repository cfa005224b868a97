#!/usr/bin/python3
"""Picks corpus/bench/ (bench/throughput.sh's fixed corpus) from generated and
evolved cases. Run once; the result is committed, so every throughput run (and
the baseline commit it is compared with) executes the same inputs.

How corpus/bench/ was made (2026-11-29, build/fuzz of branch `speed`):
  slicefuzz gen --count 3000 --seed 20261129 --out /tmp/bench_gen
  fuzz_program -seed=1 -runs=15000 -dict=corpus/slicefuzz.dict /tmp/bench_evo /tmp/bench_gen
  fuzz_program -seed=2 -runs=50000 -dict=corpus/slicefuzz.dict /tmp/bench_evo
  bench/make_bench_corpus.py /tmp/bench_evo corpus/bench 500 build/fuzz/slicefuzz
/tmp/bench_evo is then what a fuzzing campaign keeps: coverage-increasing
generated cases plus cases evolved by fuzz_program's structure-aware mutator
(up to 12 ops). This script keeps the cases that parse and pass on the reference backend
(byte-mutated text that does not parse is part of a real corpus, but it
measures the parser only) with 2..12 ops and picks 500 of them
round-robin over (dtype, dim-order class, op-count band, has-mutation) so every
dtype and dim-order class is present, deterministically (sorted by content).
"""
import collections
import hashlib
import os
import re
import subprocess
import sys

OP = re.compile(r"^\s*(?:\w+\s*=\s*)?(slice_copy|clone|add_|copy_|select_copy|squeeze_copy|unsqueeze_copy|view_copy)\(")


def classify(text):
    dtype = re.search(r"^dtype (\w+)", text, re.M)
    inp = re.search(r"^input \w+ \[([^\]]*)\](?:\s*dim_order=\[([^\]]*)\])?", text, re.M)
    if not dtype or not inp:
        return None
    ops = [m.group(1) for line in text.splitlines() for m in [OP.match(line)] if m]
    try:
        order = [int(v) for v in inp.group(2).split(",")] if inp.group(2) else []
    except ValueError:
        return None
    rank = len([s for s in inp.group(1).split(",") if s.strip()])
    if not order or order == list(range(rank)):
        oc = "identity"
    elif order == [0, 2, 3, 1]:
        oc = "channels_last"
    elif order == [0, 2, 3, 4, 1]:
        oc = "channels_last_3d"
    else:
        oc = "permuted"
    mut = any(o in ("add_", "copy_") for o in ops)
    band = "2-3" if len(ops) <= 3 else "4-7" if len(ops) <= 7 else "8-12"
    return len(ops), (dtype.group(1), oc, band, mut)


def main():
    src, dst, n, cli = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    names = sorted(os.listdir(src))
    out = subprocess.run([cli, "check", "--no-isolate"] + [os.path.join(src, f) for f in names],
                         capture_output=True, text=True, errors="replace").stdout
    passing = {os.path.basename(l.split(" ", 2)[1]) for l in out.splitlines() if l.startswith("PASS ")}
    groups = collections.defaultdict(list)
    for name in names:
        if name not in passing:
            continue
        text = open(os.path.join(src, name), encoding="utf-8", errors="replace").read()
        c = classify(text)
        if not c or not 2 <= c[0] <= 12:
            continue
        groups[c[1]].append((hashlib.sha1(text.encode()).hexdigest(), text))
    for g in groups.values():
        g.sort()
    picked = []
    keys = sorted(groups)
    while len(picked) < n and any(groups[k] for k in keys):
        for k in keys:
            if groups[k] and len(picked) < n:
                picked.append((k, groups[k].pop(0)))
    os.makedirs(dst, exist_ok=True)
    for i, (k, (h, text)) in enumerate(sorted(picked, key=lambda p: p[1][0])):
        with open(os.path.join(dst, "bench-%03d-%s.case" % (i, h[:10])), "w") as f:
            f.write(text)
    count = collections.Counter()
    for k, _ in picked:
        count["dtype " + k[0]] += 1
        count["order " + k[1]] += 1
        count["ops " + k[2]] += 1
        count["mutation" if k[3] else "no mutation"] += 1
    for k in sorted(count):
        print("%-28s %d" % (k, count[k]))


if __name__ == "__main__":
    main()
