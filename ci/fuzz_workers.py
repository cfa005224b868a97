#!/usr/bin/python3
"""The nightly job's parallel fuzzing (ci/fuzz.sh): N long-lived fuzz_program
workers on one shared corpus, instead of libFuzzer's -fork.

Why: libFuzzer's -fork restarts every job after min(300, job id) seconds (not
configurable in libFuzzer 14), and each restart reloads libtorch and re-executes
a sample of the corpus; over a short campaign most jobs live 1-10 s and a fork
worker ran at 0.40 of a single process (docs/benchmarks.md). Here each worker is
a plain in-process libFuzzer run that lives for the whole campaign:

  fuzz_program FLAGS -seed=S -max_total_time=LEFT -artifact_prefix=ARTIFACTS
               [-seed_inputs=@LIST] NEW

- NEW is the only corpus directory: every worker writes its new inputs there and
  reads the others' back (libFuzzer's -reload, every second). The working corpus
  is never a libFuzzer directory argument: it enters as seeds (-seed_inputs, a
  list file under --logs), so no worker ever writes into it; ci/fuzz.sh merges
  NEW into it afterwards as before.
- Worker i's k-th start has -seed=SEED + i + N*k (distinct, reproducible).
- A worker that stops before the deadline (a crash, timeout, OOM or leak: the
  artifact is in ARTIFACTS) is restarted with the time that is left. If it
  stopped on an input of its initial corpus pass, that input is left out of the
  seeds (working corpus) or deleted from NEW (the artifact keeps it) first, so a
  crashing corpus input costs one restart, not a crash loop. A worker that fails
  to start three times in a row without writing an artifact is given up.
- Workers stop themselves at -max_total_time (then exit normally, with
  LeakSanitizer's check at exit, about a second); one still running 5 s after
  the deadline gets SIGINT (libFuzzer prints its final stats and exits), 10 s later
  SIGKILL. SIGTERM kills every worker at once. Workers die with this script (PDEATHSIG).

stdout (ci/fuzz.sh's fuzz.log): "INFO: Seed: SEED" once a worker has started,
then every few seconds a status line in libFuzzer's fork-mode format, which
ci/fuzz_plot.py and ci/fuzz_report.py parse:
  #TOTAL: cov: C ft: F corp: K exec/s R oom/timeout/crash: O/T/X time: Ts job: STARTS dft_time: 0
TOTAL sums every worker's executions (finished starts included); cov/ft/corp are
the largest single worker's (each worker reloads the others' inputs, so they
converge; the union is at least that). Each worker's own output goes to
LOGS/worker-I.log. Last lines: the final totals, fuzz_program's own counts summed
over workers and starts (stat::slicefuzz_programs, _programs_with_symbols,
_executions: a start that ended in a crash counts up to its last power of two),
and per worker its CPU seconds.
Exit 0 when fuzzing ran, 2 when no worker ever started.
"""
import argparse
import ctypes
import hashlib
import os
import re
import signal
import subprocess
import sys
import threading
import time

STATUS = re.compile(r"^#(\d+)\s+(\w+)\s+cov: (\d+) ft: (\d+) corp: (\d+)")
UNITS = re.compile(r"^stat::number_of_executed_units: (\d+)")
ARTIFACT = re.compile(r"Test unit written to (\S+)")
SEED_LINE = re.compile(r"^INFO: Seed: ")
# fuzz_program's own counts (programs run, those with symbols, their executions),
# printed at exit and at powers of two: the largest of a start, summed.
COUNTS = re.compile(r"^stat::slicefuzz_(programs|programs_with_symbols|executions): (\d+)")
COUNT_KEYS = ("programs", "programs_with_symbols", "executions")


def pdeathsig():
    """In the child before exec: SIGKILL when this script dies."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


class Worker:
    def __init__(self, index, log_path):
        self.index = index
        self.log_path = log_path
        self.proc = None
        self.starts = 0
        self.failed_starts = 0  # consecutive starts that ended before INITED, no artifact
        self.given_up = False
        self.done_execs = 0  # executions of finished starts
        self.execs = 0  # of the current start
        self.done_counts = dict.fromkeys(COUNT_KEYS, 0)  # fuzz_program's, finished starts
        self.counts = dict.fromkeys(COUNT_KEYS, 0)  # of the current start
        self.cov = self.ft = self.corp = 0
        self.inited = False
        self.seed_seen = False
        self.artifacts = []
        self.reader = None
        self.cpu = 0.0
        self.started_at = 0.0


class Pool:
    def __init__(self, a):
        self.a = a
        self.lock = threading.Lock()
        self.workers = [Worker(i, os.path.join(a.logs, "worker-%d.log" % i)) for i in range(a.jobs)]
        self.t0 = time.monotonic()
        self.deadline = self.t0 + a.seconds
        self.seed_announced = False
        self.counts = {"oom": 0, "timeout": 0, "crash": 0}
        self.stopping = False
        self.seed_list = os.path.join(a.logs, "seeds.txt")
        self.seeds = self.corpus_files()
        self.write_seed_list()

    def corpus_files(self):
        files = []
        for d in self.a.corpus:
            try:
                names = sorted(os.listdir(d))
            except OSError:
                continue
            for n in names:
                p = os.path.join(d, n)
                # Temporary names of an interrupted copy are not corpus files.
                if ".tmp." in n or not os.path.isfile(p):
                    continue
                if "," in p:  # -seed_inputs is comma-separated
                    self.say("INFO: %s has a comma in its name: not a seed this run" % p)
                    continue
                files.append(p)
        return files

    def write_seed_list(self):
        tmp = self.seed_list + ".tmp"
        with open(tmp, "w") as f:
            f.write(",".join(self.seeds))
        os.replace(tmp, self.seed_list)

    def say(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def command(self, w, seconds):
        seed = (self.a.seed + w.index + self.a.jobs * w.starts) % (2 ** 32)
        cmd = [self.a.fuzzer, *self.a.flags, "-seed=%d" % seed, "-max_total_time=%d" % seconds,
               "-print_final_stats=1", "-artifact_prefix=%s" % self.a.artifact_prefix]
        if self.seeds:
            cmd.append("-seed_inputs=@%s" % self.seed_list)
        cmd.append(self.a.new)
        return cmd

    def start(self, w):
        # libFuzzer stops once more than -max_total_time whole seconds have
        # passed, i.e. one second late: ask for a second less.
        left = int(self.deadline - time.monotonic() + 0.5) - 1
        cmd = self.command(w, max(1, left))
        log = open(w.log_path, "a")
        log.write("==== fuzz_workers: start %d of worker %d at %.1f s: %s\n"
                  % (w.starts + 1, w.index, time.monotonic() - self.t0, " ".join(cmd)))
        log.flush()
        w.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, preexec_fn=pdeathsig)
        w.starts += 1
        w.execs, w.inited, w.artifacts = 0, False, []
        w.started_at = time.monotonic()
        w.reader = threading.Thread(target=self.read, args=(w, w.proc, log), daemon=True)
        w.reader.start()

    def read(self, w, proc, log):
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace")
            log.write(line)
            with self.lock:
                m = STATUS.match(line)
                if m:
                    w.execs = max(w.execs, int(m[1]))
                    w.cov, w.ft, w.corp = (max(w.cov, int(m[3])), max(w.ft, int(m[4])),
                                           max(w.corp, int(m[5])))
                    if m[2] == "INITED":
                        w.inited = True
                    continue
                m = UNITS.match(line)
                if m:
                    w.execs = max(w.execs, int(m[1]))
                    continue
                m = COUNTS.match(line)
                if m:
                    w.counts[m[1]] = max(w.counts[m[1]], int(m[2]))
                    continue
                m = ARTIFACT.search(line)
                if m:
                    w.artifacts.append(m[1])
                    continue
                if SEED_LINE.match(line) and not self.seed_announced:
                    self.seed_announced = True
                    self.say("INFO: Seed: %d (worker i's k-th start: -seed=%d+i+%d*k; %d workers; "
                             "logs in %s)" % (self.a.seed, self.a.seed, self.a.jobs, self.a.jobs,
                                              self.a.logs))
        log.close()

    def finished(self, w, usage):
        """A worker's process has ended: account for it, decide on a restart."""
        w.reader.join(timeout=10)
        rc = w.proc.returncode
        w.cpu += usage.ru_utime + usage.ru_stime
        with self.lock:
            w.done_execs += w.execs
            w.execs = 0
            for k in COUNT_KEYS:
                w.done_counts[k] += w.counts[k]
            w.counts = dict.fromkeys(COUNT_KEYS, 0)
            for art in w.artifacts:
                kind = os.path.basename(art).split("-")[0]
                key = {"oom": "oom", "timeout": "timeout"}.get(kind, "crash")
                if kind != "slow":
                    self.counts[key] += 1
        w.proc = None
        if self.stopping or time.monotonic() > self.deadline - 3:
            return
        if not w.inited:
            if any(not os.path.basename(x).startswith("slow-unit-") for x in w.artifacts):
                self.drop_corpus_inputs(w)
                w.failed_starts = 0
            else:
                w.failed_starts += 1
                if w.failed_starts >= 3:
                    w.given_up = True
                    self.say("INFO: worker %d failed to start %d times (exit %s); given up. Last "
                             "lines of %s:" % (w.index, w.failed_starts, rc, w.log_path))
                    self.tail(w)
                    return
        else:
            w.failed_starts = 0
        self.start(w)

    def drop_corpus_inputs(self, w):
        """The worker stopped in its initial corpus pass: leave the input that
        stopped it out of the seeds (or delete it from NEW; the artifact has it)."""
        for art in w.artifacts:
            if os.path.basename(art).startswith("slow-unit-"):
                continue  # slow, not a failure: stays a seed
            digest = os.path.basename(art).split("-")[-1]
            try:
                with open(art, "rb") as f:
                    digest = hashlib.sha1(f.read()).hexdigest()
            except OSError:
                pass
            kept = []
            for p in self.seeds:
                try:
                    with open(p, "rb") as f:
                        same = hashlib.sha1(f.read()).hexdigest() == digest
                except OSError:
                    same = True  # gone: nothing to seed from
                if same:
                    self.say("INFO: corpus input %s stopped worker %d before fuzzing (%s): left "
                             "out of this run's seeds" % (p, w.index, os.path.basename(art)))
                else:
                    kept.append(p)
            if len(kept) != len(self.seeds):
                self.seeds = kept
                self.write_seed_list()
            victim = os.path.join(self.a.new, digest)
            if os.path.isfile(victim):
                os.unlink(victim)
                self.say("INFO: new input %s stopped worker %d before fuzzing (%s): deleted from %s"
                         % (digest, w.index, os.path.basename(art), self.a.new))

    def tail(self, w, n=15):
        try:
            with open(w.log_path, errors="replace") as f:
                for line in f.readlines()[-n:]:
                    self.say("  " + line.rstrip("\n"))
        except OSError:
            pass

    def status(self):
        with self.lock:
            total = sum(w.done_execs + w.execs for w in self.workers)
            cov = max(w.cov for w in self.workers)
            ft = max(w.ft for w in self.workers)
            corp = max(w.corp for w in self.workers)
            starts = sum(w.starts for w in self.workers)
            c = self.counts
        t = time.monotonic() - self.t0
        self.say("#%d: cov: %d ft: %d corp: %d exec/s %d oom/timeout/crash: %d/%d/%d time: %ds "
                 "job: %d dft_time: 0" % (total, cov, ft, corp, total / t if t > 0 else 0,
                                          c["oom"], c["timeout"], c["crash"], int(t), starts))
        return total, t

    def run(self):
        for w in self.workers:
            self.start(w)
        interval = max(2, self.a.seconds // 300)
        next_status = time.monotonic() + interval
        interrupted = killed = False
        while any(w.proc for w in self.workers):
            # Reap whatever ended (with its resource usage: CPU seconds per worker).
            for w in self.workers:
                if w.proc is None:
                    continue
                pid, status, usage = os.wait4(w.proc.pid, os.WNOHANG)
                if pid:
                    w.proc.returncode = os.waitstatus_to_exitcode(status)
                    self.finished(w, usage)
            now = time.monotonic()
            # Workers stop themselves at -max_total_time; SIGINT (final stats, then
            # exit) for one still running (in its initial corpus pass, or in a
            # slow input), SIGKILL 10 s later.
            if now >= self.deadline:
                self.stopping = True
            if now >= self.deadline + 5 and not interrupted:
                interrupted = True
                self.signal(signal.SIGINT)
            if now >= self.deadline + 15 and not killed:
                killed = True
                self.signal(signal.SIGKILL)
            if now >= next_status:
                self.status()
                next_status = now + interval
            time.sleep(0.2)
        total, t = self.status()
        self.say("stat::number_of_executed_units: %d" % total)
        self.say("stat::average_exec_per_sec: %d" % (total / t if t > 0 else 0))
        with self.lock:
            for k in COUNT_KEYS:
                self.say("stat::slicefuzz_%s: %d" % (k, sum(w.done_counts[k] + w.counts[k]
                                                            for w in self.workers)))
        self.say("stat::workers: %d starts: %d cpu_seconds: %s" % (
            self.a.jobs, sum(w.starts for w in self.workers),
            " ".join("%.1f" % w.cpu for w in self.workers)))
        if not self.seed_announced:
            self.say("fuzz_workers: no worker started; last lines of %s:" % self.workers[0].log_path)
            self.tail(self.workers[0])
            return 2
        return 0

    def signal(self, sig):
        for w in self.workers:
            if w.proc:
                try:
                    w.proc.send_signal(sig)
                except OSError:
                    pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 usage="%(prog)s [options] -- [libFuzzer flags]")
    ap.add_argument("--fuzzer", required=True)
    ap.add_argument("--jobs", type=int, required=True)
    ap.add_argument("--seconds", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--new", required=True, help="directory for new inputs (shared, reloaded)")
    ap.add_argument("--corpus", action="append", default=[],
                    help="seed corpus directory, read only (repeatable)")
    ap.add_argument("--artifact-prefix", required=True)
    ap.add_argument("--logs", required=True, help="directory for the workers' own logs")
    ap.add_argument("flags", nargs="*", help="libFuzzer flags for every worker")
    a = ap.parse_args()
    if a.jobs < 1 or a.seconds < 1:
        ap.error("--jobs and --seconds must be >= 1")
    os.makedirs(a.logs, exist_ok=True)
    os.makedirs(a.new, exist_ok=True)
    pool = Pool(a)

    def stop(signum, _frame):
        pool.stopping = True
        pool.signal(signal.SIGKILL)
        sys.exit(128 + signum)

    def wind_up(_signum, _frame):  # Ctrl-C: end the campaign now, keep the totals
        pool.deadline = min(pool.deadline, time.monotonic())

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    signal.signal(signal.SIGINT, wind_up)
    return pool.run()


if __name__ == "__main__":
    sys.exit(main())
