#!/usr/bin/env python3
"""`make cargo-tests`: every test binary of the workspace, on the build `make compile` made,
several at a time instead of cargo's one after another.

`cargo test --workspace` runs its binaries in turn: the sidecar's integration binary (most of
the time goes to waiting for git, builds and servers, not to the processor) and then the site's
would each leave a core idle. Here the binaries come from one `cargo test --workspace --no-run`
(the same features, so nothing is built again) and run side by side, the longest first, each as
cargo runs it: from its package's folder, with `.cargo/config.toml`'s [env]. The sidecar's
integration binary is split into shards by module (`--list`, then filters), so its slow git
modules run beside the rest. Each binary's output is printed whole when it ends, with libtest's
own 'test result' line, which tests/stages.py counts.

    python3 tests/cargo_tests.py [--jobs N] [--threads N] [libtest arguments…]
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Modules of one integration binary that run in a shard of their own: they spend their time in
# git, pushes and rebuilds, so they overlap well with the others.
SLOW_PREFIXES = ("git_",)


def cargo_env():
    """`.cargo/config.toml`'s [env], as cargo sets it for the tests it runs."""
    config = tomllib.loads((ROOT / ".cargo/config.toml").read_text())
    env = dict(os.environ)
    for key, value in config.get("env", {}).items():
        if isinstance(value, dict):
            text = value["value"]
            if value.get("relative"):
                text = str(ROOT / text)
            if key in os.environ and not value.get("force"):
                continue
        else:
            text = value
            if key in os.environ:
                continue
        env[key] = text
    return env


def test_binaries():
    """(package folder, target kind and name, executable) of every test binary, from cargo's build."""
    out = subprocess.run(
        ["cargo", "test", "--workspace", "--no-run", "--message-format=json-render-diagnostics"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, check=True,
    ).stdout
    found = []
    for line in out.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message.get("profile", {}).get("test") and message.get("executable"):
            folder = Path(message["manifest_path"]).parent
            target = message["target"]
            found.append((folder, f"{'/'.join(target['kind'])} {target['name']}", message["executable"]))
    return found


def listed_modules(executable, folder, env):
    """The top-level modules of a test binary's tests, with how many tests each holds."""
    out = subprocess.run([executable, "--list", "--format", "terse"], cwd=folder, env=env,
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    modules = {}
    for line in out.splitlines():
        if line.endswith(": test") and "::" in line:
            module = line.split("::", 1)[0]
            modules[module] = modules.get(module, 0) + 1
    return modules


class Job:
    def __init__(self, label, folder, command, weight):
        self.label, self.folder, self.command, self.weight = label, folder, command, weight
        self.code, self.seconds = None, 0.0

    def run(self, env, lock):
        started = time.monotonic()
        done = subprocess.run(self.command, cwd=self.folder, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, errors="replace")
        self.code, self.seconds = done.returncode, time.monotonic() - started
        with lock:
            print(f"\n----- {self.label}: exit {self.code} in {self.seconds:.0f} s -----", flush=True)
            sys.stdout.write(done.stdout)
            sys.stdout.flush()


def jobs(binaries, env, threads, extra):
    made = []
    for folder, name, executable in binaries:
        base = [executable, f"--test-threads={threads}", *extra]
        label = f"{folder.name}: {name}"
        modules = listed_modules(executable, folder, env)
        slow = sorted(m for m in modules if m.startswith(SLOW_PREFIXES))
        if slow and len(slow) < len(modules):
            # Filters match a test's path as a substring: "git_sync::" names that module only.
            filters = [f"{m}::" for m in slow]
            made.append(Job(f"{label} ({', '.join(slow)})", folder, base + filters,
                            10 * sum(modules[m] for m in slow)))
            skips = [a for f in filters for a in ("--skip", f)]
            made.append(Job(f"{label} (the other modules)", folder, base + skips,
                            sum(n for m, n in modules.items() if m not in slow)))
        else:
            made.append(Job(label, folder, base, sum(modules.values()) or 1))
    # The longest first, so the short ones fill in beside them.
    return sorted(made, key=lambda j: -j.weight)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2, help="binaries (or shards) at a time")
    parser.add_argument("--threads", type=int, default=2, help="tests at a time in each")
    args, extra = parser.parse_known_args()
    env = cargo_env()
    queue = jobs(test_binaries(), env, args.threads, extra)
    lock, pending = threading.Lock(), list(queue)

    def worker():
        while True:
            with lock:
                if not pending:
                    return
                job = pending.pop(0)
            job.run(env, lock)

    started = time.monotonic()
    workers = [threading.Thread(target=worker) for _ in range(args.jobs)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    print(f"\n{len(queue)} test binaries (or shards) in {time.monotonic() - started:.0f} s, {args.jobs} at a time:")
    for job in sorted(queue, key=lambda j: -j.seconds):
        print(f"  {job.seconds:6.0f} s  {'ok' if job.code == 0 else f'FAILED (exit {job.code})'}  {job.label}")
    sys.exit(0 if all(j.code == 0 for j in queue) else 1)


if __name__ == "__main__":
    main()
