#!/usr/bin/python3
"""The kill matrix behind ci/selftest.sh (see there)."""
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from fuzz_report import read_jsonl  # the one reader of JSON-lines records

CLI = "build/asan/slicefuzz"
FUZZER = "build/fuzz/fuzz_program"
# The corpus replayed and the fuzzer's dictionary; main() points both at private
# copies, so editing the working tree during the (long) self-test changes nothing.
CORPUS = "corpus"
DICT = "corpus/slicefuzz.dict"
SEEDS = [int(s) for s in os.environ.get("SELFTEST_SEEDS", "1 2 3").split()]
FUZZ_SECONDS = int(os.environ.get("SELFTEST_FUZZ_SECONDS", "60"))
RUN_COUNT = int(os.environ.get("SELFTEST_RUN_COUNT", "20000"))
# Faulty backends with committed regression cases (corpus/regression/: issue 10's
# view-copy bug classes, and the alias prim ops' pointer set once): replaying the
# corpus must kill each of them, whatever the campaigns find. The cases are named
# for the record.
MUST_BE_KILLED_BY_REPLAY = {
    "faulty-output-next-node": ["output_read_by_later_ops.case", "select_output_with_two_users.case"],
    "faulty-view-nondense": ["view_copy_of_channels_last_input.case"],
    "faulty-select-negative-index": ["select_negative_index_alias.case"],
    "faulty-squeeze-size-gt1": ["squeeze_listed_dim_of_size_two.case"],
    "faulty-unsqueeze-order": ["unsqueeze_channels_last.case"],
    # Caught only because the rewrite path executes the method twice.
    "faulty-alias-pointer-once": ["alias_pointer_second_execution.case"],
}
# Faulty backends that every method (replay, run, fuzz) must kill on every seed:
# bug classes any program with an alias exposes, so a miss means the method no
# longer runs the rewrite path the way it should (here: twice).
MUST_BE_KILLED_BY_EVERY_METHOD = ["faulty-alias-pointer-once"]
# The case format version the campaigns generate (`run --format-version V`,
# SLICEFUZZ_FORMAT_VERSION=V for fuzz_program): the verbs' default, 4, since
# 2026-12-05 (issue 37); SELFTEST_FORMAT_VERSION=3 runs the matrix on the static
# stream of the builds before. docs/selftest-v3.json keeps the last version-3
# matrix, shown beside this one.
MATRIX_VERSION = int(os.environ.get("SELFTEST_FORMAT_VERSION", "4"))
# Rows whose bug class lives in version-4 programs (dynamic shapes: a tensor planned
# at its bound and run below it) run at version 4 whatever the matrix's version.
FORMAT_VERSION = {"faulty-out-not-resized": 4, "faulty-input-numel-only": 4,
                  "faulty-planned-offset-at-bound": 4, "faulty-view-bound-sizes": 4,
                  "faulty-slice-bound-strides": 4, "faulty-constant-in-arena": 4,
                  "faulty-decides-on-schedule": 4}


def version_of(backend):
    return FORMAT_VERSION.get(backend, MATRIX_VERSION)


def row_version(r):
    """The version a row's campaigns ran at (rows from before the field: the pinned
    rows at 4, the others at 3, the default then)."""
    return r.get("format_version", FORMAT_VERSION.get(r["backend"], 3))


MUST_BE_KILLED_BY_REPLAY["faulty-out-not-resized"] = ["slice_below_the_bound.case"]
MUST_BE_KILLED_BY_REPLAY["faulty-input-numel-only"] = ["input_past_its_bound_in_one_dim.case"]
MUST_BE_KILLED_BY_REPLAY["faulty-planned-offset-at-bound"] = ["slice_of_dim0_below_a_dynamic_inner_dim.case"]
MUST_BE_KILLED_BY_REPLAY["faulty-view-bound-sizes"] = ["view_below_the_bound.case"]
MUST_BE_KILLED_BY_REPLAY["faulty-slice-bound-strides"] = ["slice_of_dim0_below_a_dynamic_inner_dim.case"]
MUST_BE_KILLED_BY_REPLAY["faulty-constant-in-arena"] = ["planned_alias_of_a_constant.case"]
MUST_BE_KILLED_BY_REPLAY["faulty-decides-on-schedule"] = ["slice_dense_only_at_the_scheduled_size.case"]
# executorch-runtime's faulty variants (backends/executorch/runtime/pte_writer.h, PteFault).
MUST_BE_KILLED_BY_REPLAY["faulty-et-runtime-offset-without-delta"] = ["select_negative_index_alias.case"]
MUST_BE_KILLED_BY_REPLAY["faulty-et-runtime-drops-dim-order"] = ["channels_last_input_read_by_a_program.case"]
MUST_BE_KILLED_BY_REPLAY["faulty-et-runtime-pointer-once"] = ["alias_pointer_second_execution.case"]


# Every backend that is not deliberately faulty must have no finding at all.
def is_sound(name):
    return not name.startswith("faulty-")


# Backends listed but blocked upstream of slicefuzz (README "ExecuTorch's Python
# passes"): their pass does not import on torch 1.13, so every case is a CRASH
# naming the import; the matrix skips them and says so in one line.
BLOCKED = {"et-view-copy-to-view": "exir's replace_view_copy_with_view_pass.py does not import on torch 1.13",
           "et-to-executorch": "exir's replace_view_copy_with_view_pass.py does not import on torch 1.13"}


def backends():
    out = subprocess.run([CLI, "backends"], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        if not line.strip() or line.startswith("not available: "):
            continue
        name, desc = line.split("  ", 1)
        if name in BLOCKED:
            print("selftest: skipped %s: %s" % (name, BLOCKED[name]))
            continue
        rows.append([name, desc])
    return rows


# A faulty variant of a backend over other people's code shares that backend's
# known findings (its kernels' defects are not its planted bug).
KNOWN_OF = {"executorch-runtime-planned": "executorch-runtime",
            "faulty-et-runtime-offset-without-delta": "executorch-runtime",
            "faulty-et-runtime-drops-dim-order": "executorch-runtime",
            "faulty-et-runtime-pointer-once": "executorch-runtime",
            "faulty-et-native-delegate-alias-offset": "et-native-delegate",
            "faulty-et-aoti-view-alias-offset": "et-aoti-view",
            "faulty-et-exir-reinplace-relu-inplace": "et-exir-reinplace"}


def known_dir(backend):
    """The backend's known findings in the private corpus copy."""
    return os.path.join(CORPUS, "known", KNOWN_OF.get(backend, backend))


def replay(backend):
    p = subprocess.run([CLI, "check", CORPUS, "--backend", backend, "--jobs", "2",
                        "--known", known_dir(backend)],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):  # 0: every case passed, 1: a case failed; else check itself failed
        return {"killed": False, "failing_cases": 0, "first": None,
                "error": tool_error("check", p.returncode, p.stderr)}
    fails = [l for l in p.stdout.splitlines() if l.startswith("FAIL ")]
    return {"killed": p.returncode == 1, "failing_cases": len(fails),
            "first": fails[0] if fails else None}


def campaign(backend, seed, workdir):
    out = os.path.join(workdir, "run-%s-%d" % (backend, seed))
    version = ["--format-version", str(version_of(backend))]
    p = subprocess.run([CLI, "run", "--count", str(RUN_COUNT), "--seed", str(seed),
                        "--backend", backend, "--stop-at-first", "--no-minimize", "--out", out,
                        "--known", known_dir(backend)] + version,
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):  # 0: no finding, 1: findings; else run itself failed
        return {"killed": False, "cases": None, "error": tool_error("run", p.returncode, p.stderr)}
    # The campaign's records (run --out: findings.jsonl), never its printed lines.
    new = [r for r in read_jsonl(os.path.join(out, "findings.jsonl")) if r.get("status") == "NEW"]
    if not new:
        return {"killed": False, "cases": None}
    first = min(new, key=lambda r: r["first_case"])
    case_file = first["case_file"] if os.path.exists(first["case_file"]) else None
    text = None
    if case_file:  # kept in the record: the work directory is removed at the end
        with open(case_file, "rb") as f:
            text = f.read(8192).decode("utf-8", "replace")
    return {"killed": True, "cases": first["first_case"] + 1, "signature": first["signature"],
            "case_file": case_file, "case": text}



def fuzz(backend, seed, workdir):
    corpus = os.path.join(workdir, "fuzz-%s-%d" % (backend, seed))
    os.makedirs(corpus)
    env = dict(os.environ, SLICEFUZZ_BACKEND=backend, SLICEFUZZ_KNOWN=known_dir(backend))
    env["SLICEFUZZ_FORMAT_VERSION"] = str(version_of(backend))
    t0 = time.time()
    p = subprocess.Popen([FUZZER, "-seed=%d" % seed, "-max_total_time=%d" % FUZZ_SECONDS,
                          "-dict=%s" % DICT, "-artifact_prefix=%s/" % corpus,
                          "-rss_limit_mb=4096", corpus], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=env)
    # Start-up (loading libtorch, the first execution) is separated from search:
    # INITED is the first line after libFuzzer has executed its initial input.
    lines, startup = [], None
    for raw in p.stderr:
        line = raw.decode("utf-8", "replace")
        if startup is None and re.match(r"^#\d+\s+INITED", line):
            startup = time.time() - t0
        lines.append(line)
    p.wait()
    err = "".join(lines)
    secs = time.time() - t0
    crashes = [f for f in os.listdir(corpus) if f.startswith(("crash-", "leak-", "timeout-"))]
    if not crashes and p.returncode != 0:  # it never fuzzed (a backend the target lacks, say)
        return {"killed": False, "seconds": None, "error": tool_error("fuzz_program", p.returncode, err)}
    if not crashes:
        return {"killed": False, "seconds": None}
    # The finding's kind from the artifact's record (triage --jsonl), not from the
    # fuzzer's report text.
    artifact = os.path.join(corpus, sorted(crashes)[0])
    t = subprocess.run([CLI, "triage", "--jsonl", "--backend", backend, "--known", "/nonexistent",
                        "--timeout", "20", artifact], capture_output=True, text=True)
    records = [json.loads(l) for l in t.stdout.splitlines() if l.startswith("{")]
    kind = records[0]["kind"] if records else ("TIMEOUT" if sorted(crashes)[0].startswith("timeout-")
                                                else "CRASH (does not replay)")
    # The input itself is kept in the record: the work directory is removed at the
    # end, and a finding on a sound row must be triaged from what the docs hold.
    with open(artifact, "rb") as f:
        text = f.read(8192).decode("utf-8", "replace")
    return {"killed": True, "seconds": round(secs, 1),
            "startup_seconds": None if startup is None else round(startup, 1),
            "search_seconds": None if startup is None else round(secs - startup, 1),
            "kind": kind, "signature": records[0].get("signature") if records else None,
            "artifact": os.path.basename(artifact), "input": text}


def tool_error(tool, code, stderr):
    """A tool that failed to run a row's method: its exit code and last line, so
    the row fails with the reason instead of reading as 'not killed'."""
    last = [l for l in stderr.splitlines() if l.strip()][-1:] or ["(no output)"]
    return "%s exited %s: %s" % (tool, code, last[0][:300])


def minimize(backend, case_file, workdir):
    if not case_file:
        return None
    out = os.path.join(workdir, "min-%s.case" % backend)
    p = subprocess.run([CLI, "minimize", case_file, "-o", out, "--backend", backend, "--time", "60"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None
    with open(out) as f:
        return "".join(l for l in f if not l.startswith("#")).strip()


def row_failures(r):
    """Why one row of the matrix fails the self-test (empty: it passes)."""
    name, out = r["backend"], []
    if r["replay"].get("error"):
        out.append("replay did not run: %s" % r["replay"]["error"])
    for method in ("run", "fuzz"):
        for seed, x in zip(SEEDS, r[method]):
            if x.get("error"):
                out.append("%s on seed %d did not run: %s" % (method, seed, x["error"]))
    any_kill = r["replay"]["killed"] or any(x["killed"] for x in r["run"] + r["fuzz"])
    if is_sound(name) and any_kill:
        out.append("a sound backend produced a finding")
    if not is_sound(name) and not any_kill:
        out.append("survived every method")
    if name in MUST_BE_KILLED_BY_REPLAY and not r["replay"]["killed"]:
        out.append("survived the corpus replay (its regression cases: %s)"
                   % ", ".join(MUST_BE_KILLED_BY_REPLAY[name]))
    if name in MUST_BE_KILLED_BY_EVERY_METHOD and not all(r["killed_by"].values()):
        out.append("must be killed by every method, killed by %s" % r["killed_by"])
    return out


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def main():
    """The matrix in a private work directory, removed however the run ends (a
    finish, an error, or SIGTERM/SIGHUP/SIGINT: a user stopping an hour-long run)."""
    work = tempfile.mkdtemp(prefix="slicefuzz-selftest-")
    try:
        return run_matrix(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def still_running(pid):
    try:
        return os.waitpid(pid, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        return False


def stop_children(grace=5.0):
    """The tools this process still runs (a campaign, a fuzzer), stopped with it:
    SIGTERM, then SIGKILL after `grace` seconds. Without this a stopped self-test
    left its fuzz_program running on, orphaned, from the removed work directory."""
    me, kids = str(os.getpid()), []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/stat" % pid) as f:
                if f.read().rsplit(")", 1)[1].split()[1] == me:
                    kids.append(int(pid))
        except (OSError, IndexError):
            pass  # gone meanwhile
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for k in kids:
            try:
                os.kill(k, sig)
            except ProcessLookupError:
                pass
        deadline = time.time() + grace
        while kids and time.time() < deadline:
            kids = [k for k in kids if still_running(k)]
            time.sleep(0.1)
        if not kids:
            return


def stop_on_signal(signum, _frame):
    stop_children()
    raise SystemExit(128 + signum)  # unwinds through main's finally


def run_matrix(work):
    global CLI, FUZZER, CORPUS, DICT
    # Private copies: a rebuild or an edited corpus during the (long) self-test
    # cannot swap binaries or cases between rows.
    for name in ("CLI", "FUZZER"):
        copy = os.path.join(work, os.path.basename(globals()[name]))
        shutil.copy2(globals()[name], copy)
        globals()[name] = copy
    shutil.copytree(CORPUS, os.path.join(work, "corpus"))
    CORPUS = os.path.join(work, "corpus")
    DICT = os.path.join(CORPUS, "slicefuzz.dict")
    rows, ok = [], True
    listed = backends()  # once: each call runs the CLI and prints its skipped rows
    registered = [name for name, _ in listed]
    for name in list(MUST_BE_KILLED_BY_REPLAY) + MUST_BE_KILLED_BY_EVERY_METHOD:
        if name not in registered:
            ok = False
            print("FAIL %s: expected by the kill matrix but not registered" % name, flush=True)
    # SELFTEST_BACKENDS="a b": re-run only those rows; every other row is carried
    # over from docs/selftest.json, which must have been made with the same budgets
    # (after triaging a backend's findings, its row alone costs minutes, not an hour).
    only = os.environ.get("SELFTEST_BACKENDS", "").split()
    carried, rerun_dates = {}, {}
    if only:
        with open("docs/selftest.json") as f:
            old = json.load(f)
        m = old["meta"]
        if (m["seeds"], m["fuzz_seconds"], m["run_count"]) != (SEEDS, FUZZ_SECONDS, RUN_COUNT):
            print("SELFTEST_BACKENDS: docs/selftest.json has other budgets (seeds %s, fuzz %s s, run "
                  "%s): run the whole matrix" % (m["seeds"], m["fuzz_seconds"], m["run_count"]))
            return 2
        unknown = [n for n in only if n not in registered]
        if unknown:
            print("SELFTEST_BACKENDS: not registered: %s" % " ".join(unknown))
            return 2
        carried = {r["backend"]: r for r in old["backends"]}
        rerun_dates = dict(m.get("rerun", {}))
    for name, description in listed:
        if only and name not in only and name in carried:
            r = carried[name]
            for why in row_failures(r):
                ok = False
                print("FAIL %s: %s (carried over from docs/selftest.json)" % (name, why), flush=True)
            rows.append(r)
            continue
        if only and name not in only:
            # Never in the matrix (no row to carry): a re-run of some rows does not
            # grow into the whole matrix's cost; the full run adds it.
            print("selftest: skipped %s: not in docs/selftest.json yet (run the whole matrix to add it)" % name,
                  flush=True)
            continue
        if only:
            rerun_dates[name] = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
        t0 = time.time()
        r = {"backend": name, "bug_class": description, "format_version": version_of(name),
             "replay": replay(name),
             "run": [campaign(name, s, work) for s in SEEDS],
             "fuzz": [fuzz(name, s, work) for s in SEEDS]}
        r["killed_by"] = {
            "replay": r["replay"]["killed"],
            "run": all(x["killed"] for x in r["run"]),
            "fuzz": all(x["killed"] for x in r["fuzz"]),
        }
        r["median_cases_to_kill"] = median([x["cases"] for x in r["run"]])
        r["median_seconds_to_kill"] = median([x["seconds"] for x in r["fuzz"]])
        r["median_startup_seconds"] = median([x.get("startup_seconds") for x in r["fuzz"]])
        r["median_search_seconds"] = median([x.get("search_seconds") for x in r["fuzz"]])
        first = next((x.get("case_file") for x in r["run"] if x.get("case_file")), None)
        r["reproducer"] = minimize(name, first, work) if not is_sound(name) else None
        for why in row_failures(r):
            ok = False
            print("FAIL %s: %s" % (name, why), flush=True)
        print("%-24s replay=%s run=%s fuzz=%s (%.0f s)" % (
            name, r["replay"]["killed"], [x["cases"] for x in r["run"]],
            [x["seconds"] for x in r["fuzz"]], time.time() - t0), flush=True)
        rows.append(r)
        if only:
            # A re-run of some rows checkpoints after each one (a row is up to an
            # hour): the rows run so far, then the carried rows not reached yet, so
            # a run stopped part-way loses no finished row.
            done = {x["backend"] for x in rows}
            rest = [carried[n] for n, _ in listed if n in carried and n not in done]
            write_docs(matrix_meta(ok, only, old if only else None, rerun_dates), rows + rest)
    write_docs(matrix_meta(ok, only, old if only else None, rerun_dates), rows)
    print("wrote docs/selftest.md and docs/selftest.json: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


def matrix_meta(ok, only, old, rerun_dates):
    meta = {"seeds": SEEDS, "fuzz_seconds": FUZZ_SECONDS, "run_count": RUN_COUNT,
            "format_version": MATRIX_VERSION,
            "date_utc": old["meta"]["date_utc"] if only else time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
            "ok": ok}
    if rerun_dates:
        meta["rerun"] = dict(rerun_dates)
    if only and old["meta"].get("note"):
        meta["note"] = old["meta"]["note"]  # the matrix's own note stays with its rows
    return meta


def write_docs(meta, rows):
    """docs/selftest.json and docs/selftest.md from the matrix's rows."""
    rerun_dates = meta.get("rerun", {})
    ok = meta["ok"]
    os.makedirs("docs", exist_ok=True)
    with open("docs/selftest.json", "w") as f:
        json.dump({"meta": meta, "backends": rows}, f, indent=2)
        f.write("\n")
    md = ["# Self-test: the kill matrix", "",
          "Generated by `ci/selftest.sh` on %s UTC. Seeds %s; `slicefuzz run --count %d "
          "--seed S --stop-at-first`; `fuzz_program -seed=S -max_total_time=%d` from an empty "
          "corpus (no fork, stops at the first finding). A backend is killed by a method when "
          "every seed found it; medians over seeds. Every backend not named `faulty-*` "
          "(`reference`, `conservative`, the README's example) must have no finding at all "
          "(conservative's MISSED_REWRITEs are tolerated and counted)." % (
              meta["date_utc"], meta["seeds"], meta["run_count"], meta["fuzz_seconds"])
          + "".join(" Row `%s` re-run alone on %s UTC (`SELFTEST_BACKENDS`)." % (n, d)
                    for n, d in sorted(rerun_dates.items()))
          + " The campaigns generate case format version %d (`run --format-version %d`, "
          "`SLICEFUZZ_FORMAT_VERSION=%d`), the verbs' default since 2026-12-05; the column `v` "
          "gives the version each row ran at (a row at another version has not been re-run "
          "since). Rows %s run at version 4 whatever the matrix's version: their bug class lives "
          "in dynamic programs." % (meta.get("format_version", 3), meta.get("format_version", 3),
                                     meta.get("format_version", 3),
                                     ", ".join("`%s`" % n for n in sorted(FORMAT_VERSION)))
          + (" " + meta["note"] if meta.get("note") else ""), "",
          "| backend | bug class | v | replay | run | fuzz | median cases to kill (run) | "
          "median seconds to kill (fuzz) | of which start-up | of which search |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    yn = lambda b: "killed" if b else "-"
    for r in rows:
        dash = lambda v: "-" if v is None else v
        md.append("| `%s` | %s | %d | %s | %s | %s | %s | %s | %s | %s |" % (
            r["backend"], r["bug_class"], row_version(r), yn(r["killed_by"]["replay"]),
            yn(r["killed_by"]["run"]),
            yn(r["killed_by"]["fuzz"]),
            "-" if r["median_cases_to_kill"] is None else r["median_cases_to_kill"],
            "-" if r["median_seconds_to_kill"] is None else r["median_seconds_to_kill"],
            dash(r["median_startup_seconds"]), dash(r["median_search_seconds"])))
    md += side_by_side(rows)
    md += ["", "## Minimised reproducers (from the first `run` finding)", ""]
    for r in rows:
        if r["reproducer"]:
            md += ["### `%s`" % r["backend"], "", "```", r["reproducer"], "```", ""]
    # A sound row's finding is the matrix's real news: its input, as found, to triage.
    found = [(r["backend"], how, x) for r in rows if is_sound(r["backend"])
             for how in ("run", "fuzz") for x in r[how] if x.get("killed")]
    if found:
        md += ["## Findings on sound rows (to triage)", ""]
        for name, how, x in found:
            text = x.get("case") or x.get("input")
            md += ["- `%s`, %s: %s%s" % (name, how, x.get("signature") or x.get("kind"),
                                          "" if text else " (input not recorded)")]
            if text:
                md += ["", "```", text.rstrip(), "```", ""]
        md += [""]
    md += ["Overall: %s" % ("PASS" if ok else "FAIL"), ""]
    with open("docs/selftest.md", "w") as f:
        f.write("\n".join(md))


def side_by_side(rows, v3_path="docs/selftest-v3.json"):
    """The rows at version 4 beside their version-3 selves (docs/selftest-v3.json,
    the last matrix before the default moved): kills, cases and seconds to kill."""
    try:
        with open(v3_path) as f:
            old = {r["backend"]: r for r in json.load(f)["backends"]}
    except (OSError, ValueError, KeyError):
        return []
    pairs = [(old[r["backend"]], r) for r in rows
             if r["backend"] in old and row_version(r) == 4 and row_version(old[r["backend"]]) == 3]
    if not pairs:
        return []
    kills = lambda r: "/".join(m for m in ("replay", "run", "fuzz") if r["killed_by"][m]) or "-"
    dash = lambda v: "-" if v is None else v
    md = ["", "## Version 3 against version 4", "",
          "The same budgets; version 3 from `docs/selftest-v3.json` (the matrix before the "
          "verbs' default moved to 4), version 4 from the table above. A sound row must be "
          "`-` at both.", "",
          "| backend | killed by (v3) | killed by (v4) | cases to kill v3 | v4 | seconds to kill v3 | v4 |",
          "|---|---|---|---|---|---|---|"]
    for o, r in pairs:
        md.append("| `%s` | %s | %s | %s | %s | %s | %s |" % (
            r["backend"], kills(o), kills(r), dash(o["median_cases_to_kill"]),
            dash(r["median_cases_to_kill"]), dash(o["median_seconds_to_kill"]),
            dash(r["median_seconds_to_kill"])))
    return md


def merge(other_path):
    """`selftest.py --merge OTHER.json`: the rows OTHER re-ran alone (its meta's
    `rerun`, newer than ours) replace ours, e.g. rows run in parallel from a second
    worktree with SELFTEST_BACKENDS; the budgets must match. Exit 0 PASS, 1 FAIL,
    2 unusable input."""
    with open("docs/selftest.json") as f:
        mine = json.load(f)
    with open(other_path) as f:
        other = json.load(f)
    budgets = lambda m: (m["seeds"], m["fuzz_seconds"], m["run_count"])
    if budgets(mine["meta"]) != budgets(other["meta"]):
        print("selftest --merge: %s has other budgets %s than docs/selftest.json %s"
              % (other_path, budgets(other["meta"]), budgets(mine["meta"])))
        return 2
    mine_rerun, theirs = mine["meta"].setdefault("rerun", {}), other["meta"].get("rerun", {})
    by_name = {r["backend"]: r for r in other["backends"]}
    taken = [n for n, d in theirs.items() if n in by_name and d > mine_rerun.get(n, "")]
    rows = [by_name[r["backend"]] if r["backend"] in taken else r for r in mine["backends"]]
    for n in taken:
        mine_rerun[n] = theirs[n]
    ok = True
    for r in rows:
        for why in row_failures(r):
            ok = False
            print("FAIL %s: %s" % (r["backend"], why))
    mine["meta"]["ok"] = ok
    write_docs(mine["meta"], rows)
    print("merged rows %s from %s; wrote docs/selftest.md and docs/selftest.json: %s"
          % (", ".join(taken) or "(none newer)", other_path, "PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop_on_signal)
    if len(sys.argv) == 3 and sys.argv[1] == "--merge":
        sys.exit(merge(sys.argv[2]))
    sys.exit(main())
