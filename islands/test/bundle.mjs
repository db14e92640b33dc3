// The panel's modules are TypeScript: each test has esbuild bundle the one it tests for Node,
// then imports it. Removed after the test file.
import { build } from "esbuild";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

export const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
const temp = mkdtempSync(join(tmpdir(), "islands-test-"));
after(() => rmSync(temp, { recursive: true, force: true }));

let made = 0;
/** The module at `path` under src/, bundled for Node and imported. */
export async function load(path) {
  const built = await build({
    entryPoints: [join(src, path)],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    logLevel: "warning",
    define: { PANEL_APP: '"/assets/islands/panel/test.js"' },
  });
  const out = join(temp, `module-${(made += 1)}.mjs`);
  writeFileSync(out, built.outputFiles[0].text);
  return import(pathToFileURL(out).href);
}
