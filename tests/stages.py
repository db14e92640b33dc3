#!/usr/bin/env python3
"""Runs `make test`'s stages: each argument is a group of make targets run side by side, and
the groups one after another. A stage's output is printed whole when it ends, under its name;
at the end a table of each stage's time and the tests counted, and one closing line
'N passed, N failed'. Stops after the first group with a failed stage.

    python3 tests/stages.py "compile prereqs>lints" "cargo-tests browser" book

'A>B' in a group runs A, which the group waits for, then B, which it does not: B runs beside
the groups after it (the linters beside the tests, which need only what A installed), and the
last group starts after it. A failure of B stops the run before that last group.

The stages' temporary files (the site copies, builds, repositories and browser profiles the
tests make and delete by the thousand) go to a folder of their own on tmpfs, /dev/shm, when
TMPDIR does not say where: on a disk's file system every file made where one was just deleted
costs the kernel a search (ext4 without a journal checks each free inode for a recent
deletion), which took a third of the cargo tests' processor time on this machine. The folder
is removed after a run that passed and kept, with its path printed, after one that failed.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

# The closing lines of the runners: cargo's per test binary, node's once per run, and Python's
# unittest (the CI scripts' tests): 'Ran N tests', then 'FAILED (failures=N, errors=N)' or 'OK'.
CARGO = re.compile(r"^test result: \w+\. (\d+) passed; (\d+) failed", re.M)
NODE_PASS = re.compile(r"^ℹ pass (\d+)$", re.M)
NODE_FAIL = re.compile(r"^ℹ fail (\d+)$", re.M)
PY_RAN = re.compile(r"^Ran (\d+) tests? in ", re.M)
PY_FAILED = re.compile(r"^FAILED \((.*)\)$", re.M)


def counts(log):
    py_failed = sum(int(n) for line in PY_FAILED.findall(log) for n in re.findall(r"(?:failures|errors)=(\d+)", line))
    py_ran = sum(map(int, PY_RAN.findall(log)))
    passed = sum(int(p) for p, _ in CARGO.findall(log)) + sum(map(int, NODE_PASS.findall(log))) + py_ran - py_failed
    failed = sum(int(f) for _, f in CARGO.findall(log)) + sum(map(int, NODE_FAIL.findall(log))) + py_failed
    return passed, failed


class Stage:
    def __init__(self, target):
        self.target = target
        self.seconds = 0.0
        self.code = None
        self.passed = self.failed = 0

    def run(self, lock):
        started = time.monotonic()
        with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as log:
            self.code = subprocess.call(
                ["make", "--no-print-directory", self.target], stdout=log, stderr=subprocess.STDOUT
            )
            self.seconds = time.monotonic() - started
            log.seek(0)
            text = log.read()
        self.passed, self.failed = counts(text)
        with lock:
            verdict = "ok" if self.code == 0 else f"FAILED (exit {self.code})"
            print(f"\n===== {self.target}: {verdict} in {self.seconds:.0f} s =====", flush=True)
            sys.stdout.write(text)
            sys.stdout.flush()


def is_tmpfs(path):
    with open("/proc/mounts", encoding="utf-8") as mounts:
        return any(line.split()[1:3] == [path, "tmpfs"] for line in mounts)


def scratch():
    """A new folder on /dev/shm for the temporary files, or None: TMPDIR set, no such tmpfs, or
    under 2 GiB free on it (a run's files take about 200 MB at most)."""
    shm = "/dev/shm"
    if os.environ.get("TMPDIR") or not os.access(shm, os.W_OK) or not is_tmpfs(shm):
        return None
    space = os.statvfs(shm)
    if space.f_bavail * space.f_frsize < 2 << 30:
        return None
    return tempfile.mkdtemp(prefix="harmonia-test.", dir=shm)


def main(groups):
    folder = scratch()
    if folder:
        os.environ["TMPDIR"] = folder
        tempfile.tempdir = folder
    code = 1
    try:
        code = run(groups)
    finally:
        if folder and code == 0:
            shutil.rmtree(folder, ignore_errors=True)
        elif folder:
            print(f"the temporary files of this run are kept in {folder}")
    return code


def then(first, second, lock, done):
    """Runs `first`, tells `done`, then `second` if `first` passed."""
    first.run(lock)
    done.set()
    if first.code == 0:
        second.run(lock)


def run(groups):
    lock = threading.Lock()
    stages, walls, beside = [], [], []
    started = time.monotonic()
    for number, group in enumerate(groups):
        if number == len(groups) - 1:
            for thread in beside:
                thread.join()
            if any(s.code not in (0, None) for s in stages):
                break
        members, waits = [], []
        print(f"==> {' + '.join(group.split())}", flush=True)
        began = time.monotonic()
        for token in group.split():
            first, _, second = token.partition(">")
            stage = Stage(first)
            members.append(stage)
            if second:
                after = Stage(second)
                done = threading.Event()
                thread = threading.Thread(target=then, args=(stage, after, lock, done))
                beside.append(thread)
                stages += [stage, after]
                waits.append(done.wait)
            else:
                thread = threading.Thread(target=stage.run, args=(lock,))
                stages.append(stage)
                waits.append(thread.join)
            thread.start()
        for wait in waits:
            wait()
        walls.append((" ".join(s.target for s in members), time.monotonic() - began))
        if any(s.code != 0 for s in members):
            break
    for thread in beside:
        thread.join()
    total = time.monotonic() - started
    print("\n| stage | seconds | tests passed | result |\n|---|---:|---:|---|")
    for s in stages:
        result = "ok" if s.code == 0 else "not run" if s.code is None else f"failed ({s.code})"
        print(f"| {s.target} | {s.seconds:.0f} | {s.passed or ''} | {result} |")
    for group, wall in walls:
        print(f"| **{' + '.join(group.split())}** (side by side) | {wall:.0f} | | |")
    print(f"| **total** | {total:.0f} | | |")
    passed = sum(s.passed for s in stages)
    failed = sum(s.failed for s in stages)
    print(f"\n{passed} passed, {failed} failed")
    skipped = [t for g in groups[len(walls):] for t in g.replace(">", " ").split()]
    if skipped:
        print(f"not run after the failure: {' '.join(skipped)}")
    return 0 if all(s.code == 0 for s in stages) and not skipped else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
