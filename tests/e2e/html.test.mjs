// Every page of a build through the W3C Nu Html Checker (npm vnu-jar, run by Debian's headless
// JRE): the published pages, the error page and the panel's page. Any error fails the test,
// which prints each one with its file, line and column.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { publicRoutes, repoRoot, startSite } from "./harness.mjs";

const vnu = join(repoRoot, "tests", "e2e", "node_modules", "vnu-jar", "build", "dist", "vnu.jar");

let site;
let work;
before(async () => {
  site = await startSite();
  work = mkdtempSync(join(tmpdir(), "harmonia-vnu-"));
});
after(async () => {
  await site?.stop();
  rmSync(work, { recursive: true, force: true });
});

function htmlFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith(".html"))
    .map((f) => join(dir, f));
}

test("the Nu Html Checker finds no error on any page of the build", async () => {
  const dist = realpathSync(site.distDir);
  const panel = join(work, "administratormagda.html");
  writeFileSync(panel, await (await fetch(`${site.panel}/administratormagda`)).text());
  const files = [...htmlFiles(dist), panel];
  assert.ok(files.length >= publicRoutes().length + 2, `every route, the error page and the panel: ${files.length}`);
  const run = spawnSync("java", ["-jar", vnu, "--errors-only", "--format", "json", ...files], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(run.error, undefined, `java could not run the checker (make test-deps installs it): ${run.error}`);
  const { messages } = JSON.parse(run.stderr || '{"messages": []}');
  const errors = messages
    .filter((m) => m.type === "error" || m.subType === "fatal")
    .map(
      (m) => `${m.url.replace(`file:${dist}/`, "").replace("file:", "")}:${m.lastLine}:${m.firstColumn}: ${m.message}`,
    );
  assert.deepEqual(errors, [], `the checker's errors:\n${errors.join("\n")}`);
  assert.equal(run.status, 0, run.stderr);
});
