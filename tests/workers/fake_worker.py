#!/usr/bin/python3
"""A misbehaving worker for the protocol tests (tests/worker_protocol_test.sh):
`--mode crash|hang|garbage|wrong|wrong-diagnosed|ok`. It answers like a worker whose outputs are all
zeros until the case's op count says otherwise: `crash` exits on cases with 2+ ops,
`hang` sleeps on them, `garbage` answers nonsense, `wrong` flips one byte. Cases
with 1 op are answered with the values the harness sent (the input, for
`output x` after a copy of it), so the restarted worker is seen to work.
`wrong-diagnosed` flips the byte too and answers `diagnose` with a cause; the
other modes answer every verb like `run` (a worker that predates `diagnose`)."""
import sys
import time

mode = sys.argv[sys.argv.index("--mode") + 1]
out = sys.stdout
out.write("slicefuzz-worker 1 fake %s\n" % mode)
out.flush()
while True:
    header = sys.stdin.buffer.readline()
    if not header:
        break
    verb, n = header.split()[0].decode(), int(header.split()[1])
    text = sys.stdin.buffer.read(n).decode()
    inp = sys.stdin.buffer.readline().decode().split()  # input DTYPE [S..] hex HEX
    ops = [l for l in text.splitlines() if "(" in l and not l.startswith("#")]
    bad = len(ops) >= 2
    if bad and mode == "crash":
        sys.stderr.write("fake worker: exiting on purpose\n")
        sys.exit(3)
    if bad and mode == "hang":
        time.sleep(3600)
    if bad and mode == "garbage":
        out.write("hello there\n")
        out.flush()
        continue
    if verb == "diagnose" and mode == "wrong-diagnosed":
        out.write("text the fake pass flipped a byte\ncause fake-pass:flip\nend\n")
        out.flush()
        continue
    dtype, hexdata = inp[1], inp[-1]
    sizes = " ".join(inp[2:-2])
    if bad and mode in ("wrong", "wrong-diagnosed"):
        hexdata = ("%02x" % (int(hexdata[:2], 16) ^ 1)) + hexdata[2:]
    out.write("ok\noutput x %s %s hex %s\nend\n" % (dtype, sizes, hexdata))
    out.flush()
