#!/usr/bin/env python3
"""`make lint`: the sidecar's handlers (`sidecar/src/api/`) do no blocking work themselves.

They read the request and answer; what blocks (files, SQLite, a build, a render, the mail)
runs in the module that owns it (`changes::apply`, `changes::read`, the stores' `run`, the
outbox), behind an async function. A handler that calls `web::block`, `spawn_blocking` or
`tasks::block`
itself fails this check, with the file and line."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
API = ROOT / "sidecar" / "src" / "api"
BLOCKING = re.compile(r"\b(web::block|spawn_blocking|tasks::block)\b")


def main():
    found = []
    for path in sorted(API.rglob("*.rs")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("//", 1)[0]
            if BLOCKING.search(code):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    if found:
        print("blocking work in a handler (move it into the module that owns it):")
        print("\n".join(f"  {f}" for f in found))
        sys.exit(1)
    print(f"handlers: no blocking call under {API.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
