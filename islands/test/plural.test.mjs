// The panel's Polish plural rule on the numbers the server's rule is checked on
// (generator/content/src/polish_cases.json): the two can never count differently.
import { build } from "esbuild";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const cases = JSON.parse(
  readFileSync(join(here, "..", "..", "generator", "content", "src", "polish_cases.json"), "utf8"),
);

let plural;
const temp = mkdtempSync(join(tmpdir(), "plural-"));
before(async () => {
  const built = await build({
    entryPoints: [join(here, "..", "src", "admin", "plural.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    logLevel: "warning",
  });
  const out = join(temp, "plural.mjs");
  writeFileSync(out, built.outputFiles[0].text);
  plural = await import(pathToFileURL(out).href);
});
after(() => rmSync(temp, { recursive: true, force: true }));

test("a number takes the form Polish gives it, as on the server", () => {
  assert.ok(cases.length >= 10);
  for (const [n, said] of cases) assert.equal(plural.count(n, plural.FILES), said);
  assert.equal(plural.count(1, plural.CHANGES), "1 zmiana");
  assert.equal(plural.count(3, plural.CHANGES), "3 zmiany");
  assert.equal(plural.count(25, plural.CHANGES), "25 zmian");
});
