#!/usr/bin/env python3
"""Gives a fresh clone's files the modification times of their content, for the build cache.

Cargo decides that a crate is stale when one of its files is newer than its last build. In a
fresh clone every file is new, so each run would compile every workspace crate again, changed
or not. This script keeps, beside the cache, a list of each tracked file's content (its git blob)
and since when it has had that content (the start of the first run that saw it, in an unbroken
chain of runs whose build completed):

    sources.py restore LIST START   before the build: a file whose content the list holds gets
                                    that time, any other file START; LIST is deleted (a run that
                                    stops before its build completes leaves no list, and the next
                                    one compiles everything); the new list waits in LIST.pending
    sources.py record LIST          after the build completed: LIST.pending becomes LIST

A build made after a content's time was made from that content, so cargo keeps a crate only when
none of its files changed since it was compiled; a file edited in the working tree counts as
changed. Cargo's other checks (flags, features, toolchain, dependencies) are untouched. A list
serves only a run in the folder of the run that wrote it: cargo notes a file outside a crate's
folder (the workspace's Cargo.toml and clippy.toml) by its absolute path, so in another folder
it would look at the last clone's file, not this one's.
"""

import os
import subprocess
import sys


def tracked():
    """(blob, path) of every file git tracks, and the paths changed in the working tree."""
    listing = subprocess.run(["git", "ls-files", "-s", "-z"], capture_output=True, check=True).stdout
    files = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, blob, _stage = meta.split(b" ")
        if mode != b"160000":
            files.append((blob.decode(), os.fsdecode(path)))
    status = subprocess.run(
        ["git", "status", "--porcelain", "-z", "--untracked-files=no", "--no-renames"],
        capture_output=True, check=True,
    ).stdout
    edited = {os.fsdecode(e[3:]) for e in status.split(b"\0") if len(e) > 3}
    return files, edited


def read(listing):
    """path -> (blob, since) from a list written by `restore` (the folder it was written in, then
    since, blob and path of each file, each ended by a NUL, which no path holds), and the list
    deleted: whatever happens next, no later run reads it. A list that cannot be read, or was
    written in another folder, counts as none."""
    try:
        with open(listing, "rb") as f:
            fields = f.read().split(b"\0")
    except FileNotFoundError:
        return {}
    os.remove(listing)
    if len(fields) % 3 != 2 or fields[-1] or fields[0] != os.fsencode(os.getcwd()):
        return {}
    try:
        return {
            os.fsdecode(fields[i + 2]): (fields[i + 1].decode(), int(fields[i]))
            for i in range(1, len(fields) - 1, 3)
        }
    except ValueError:
        return {}


def restore(listing, start):
    known = read(listing)
    files, edited = tracked()
    kept = 0
    with open(listing + ".pending", "wb") as out:
        out.write(os.fsencode(os.getcwd()) + b"\0")
        for blob, path in files:
            blob_then, since = known.get(path, (None, start))
            if path in edited:
                # What this run builds from is not the blob: no later run may take it for it.
                blob, since = "edited", start
            elif blob_then != blob:
                since = start
            else:
                kept += 1
            if os.path.lexists(path):
                os.utime(path, (since, since), follow_symlinks=False)
            out.write(b"%d\0%s\0%s\0" % (since, blob.encode(), os.fsencode(path)))
    print(f"==> {kept} of {len(files)} files as the build cache last compiled them; the others count as changed")


def record(listing):
    os.replace(listing + ".pending", listing)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "restore":
        restore(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 3 and sys.argv[1] == "record":
        record(sys.argv[2])
    else:
        sys.exit("usage: sources.py restore LIST START | sources.py record LIST")
