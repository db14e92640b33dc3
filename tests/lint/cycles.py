#!/usr/bin/env python3
"""`make lint`: no two modules of a crate import each other, directly or in a loop, and no two
of the sidecar's folders (its top-level modules: `api/`, `changes/`, `state.rs`…) do either.

Each source file is a module (`src/api/pages.rs` is `api::pages`, `src/api/mod.rs` is `api`,
`src/lib.rs` is the crate's root). A module depends on another when its code names it by a
path: `crate::api::pages::Thing`, `super::Thing`, `self::child::Thing`, `use crate::{a, b::c}`.
A path is resolved to the longest module it names (`crate::api::pages::Thing` is `api::pages`;
`crate::now` is the root). Declaring a child (`mod child;`) is not a dependency; tests
(`#[cfg(test)]` modules, `tests/`) are left out, since they may look at anything.

A folder depends on another when one of its modules does; the crate's root (`lib.rs`), which
assembles them all, is left out.

Prints every loop found and exits 1, or prints how many modules and arrows were checked.
With `--graph`, prints the arrows."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def crates():
    """Every crate of the workspace: its name and its `src/`."""
    for manifest in sorted(ROOT.glob("**/Cargo.toml")):
        if any(part in ("target", "node_modules", ".cargo") for part in manifest.parts):
            continue
        src = manifest.parent / "src"
        if src.is_dir() and (src / "lib.rs").exists():
            name = re.search(r'^name = "([^"]+)"', manifest.read_text(), re.M)
            if name:
                yield name.group(1), src


def module_of(src, path):
    relative = path.relative_to(src).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "mod":
        parts = parts[:-1]
    if parts in (["lib"], ["main"]):
        return ()
    return tuple(parts)


def without_tests(text):
    """The text without `#[cfg(test)]` modules (a `mod x { … }` after the attribute)."""
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(pub(\(crate\))?\s+)?mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def strip_comments_and_strings(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def expand_use_groups(text):
    """`use a::{b, c::{d, e}}` as the paths `a::b`, `a::c::d`, `a::c::e`."""
    paths = []
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        stack = [m.group(1).replace("\n", " ")]
        while stack:
            item = stack.pop().strip()
            brace = item.find("{")
            if brace < 0:
                paths.append(item.split(" as ")[0].strip())
                continue
            prefix, inner = item[:brace], item[brace + 1:item.rfind("}")]
            depth, start = 0, 0
            for k, ch in enumerate(inner + ","):
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                elif ch == "," and depth == 0:
                    part = inner[start:k].strip()
                    if part:
                        stack.append(prefix + ("" if part == "self" else part))
                    start = k + 1
    return paths


def references(text):
    code = strip_comments_and_strings(without_tests(text))
    paths = expand_use_groups(code)
    paths += re.findall(r"\b((?:crate|super|self)(?:::\w+)+)", code)
    # A bare path whose first part is a child module (`pages::configure` in `lib.rs`).
    paths += ["self::" + p for p in re.findall(r"(?<![\w:])(\w+(?:::\w+)+)", code)]
    return paths


def resolve(path, here, modules):
    parts = path.replace(" ", "").rstrip(":").split("::")
    if parts[0] == "crate":
        base, rest = (), parts[1:]
    elif parts[0] in ("super", "self"):
        base = list(here)
        while parts and parts[0] in ("super", "self"):
            if parts[0] == "super" and base:
                base.pop()
            parts = parts[1:]
        base, rest = tuple(base), parts
    else:
        return None
    target = base
    for i in range(len(rest), 0, -1):
        candidate = base + tuple(rest[:i])
        if candidate in modules:
            target = candidate
            break
    else:
        if path.startswith("self::") and parts and parts[0] != "self":
            return None
    return target


def check(name, src):
    # `main.rs` and `src/bin/` are crates of their own, which use this one from outside.
    files = {
        module_of(src, p): p
        for p in src.rglob("*.rs")
        if p.name != "main.rs" and "bin" not in p.relative_to(src).parts
    }
    modules = set(files)
    arrows = {m: set() for m in modules}
    for module, path in files.items():
        for ref in references(path.read_text()):
            target = resolve(ref, module, modules)
            if target is None or target == module:
                continue
            # A parent naming its own child is the child's owner, not a dependency loop by
            # itself; it still counts as an arrow, so a child naming its parent back loops.
            arrows[module].add(target)
    return modules, arrows


def loops(arrows):
    """Every strongly connected group of two or more modules (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in arrows[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for v in sorted(arrows):
        if v not in index:
            visit(v)
    return out


# The crates whose folders are checked too.
FOLDERS_CHECKED = ("sidecar",)


def folders(arrows):
    """The arrows between top-level modules, each with the module arrows that make it."""
    out, why = {}, {}
    for m, targets in arrows.items():
        if not m:
            continue
        out.setdefault(m[:1], set())
        for t in targets:
            if t and t[:1] != m[:1]:
                out[m[:1]].add(t[:1])
                out.setdefault(t[:1], set())
                why.setdefault((m[:1], t[:1]), []).append((m, t))
    return out, why


def show(module, crate):
    return crate + ("::" + "::".join(module) if module else "")


def main():
    failed = False
    total_modules = total_arrows = 0
    for name, src in crates():
        modules, arrows = check(name, src)
        total_modules += len(modules)
        total_arrows += sum(len(a) for a in arrows.values())
        if "--graph" in sys.argv:
            for m in sorted(arrows):
                for t in sorted(arrows[m]):
                    print(f"{show(m, name)} -> {show(t, name)}")
        for group in loops(arrows):
            failed = True
            members = set(group)
            print(f"{name}: modules that import each other in a loop:")
            for m in group:
                inside = sorted(show(t, name) for t in arrows[m] if t in members)
                print(f"  {show(m, name)} -> {', '.join(inside)}")
        if name in FOLDERS_CHECKED:
            tops, why = folders(arrows)
            for group in loops(tops):
                failed = True
                members = set(group)
                print(f"{name}: folders that import each other in a loop:")
                for f in group:
                    for t in sorted(t for t in tops[f] if t in members):
                        for m, target in sorted(why[(f, t)]):
                            print(f"  {show(m, name)} -> {show(target, name)}")
    if failed:
        sys.exit(1)
    print(f"module loops: none ({total_modules} modules, {total_arrows} arrows)")


if __name__ == "__main__":
    main()
