// `npm test`: every browser test file (or those named: `node run.mjs site.test.mjs`), two at a
// time, with one sidecar on the real sources shared by the files that only read it (they call
// `startSite()` with no arguments: harness.mjs hands them this one instead of starting their
// own); a file that changes content, settings or accounts starts its own, as before.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { SHARED_SITE, startSite } from "./harness.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const named = process.argv.slice(2);
const files = named.length
  ? named
  : readdirSync(here)
      .filter((f) => f.endsWith(".test.mjs"))
      .sort();

// The shared sidecar stands for many visitors at once, all from 127.0.0.1: the statistics'
// limit per address (5 events a second) would refuse their page views as one visitor's and the
// browser would log the 429 as a console error, which the files count. The limit itself is the
// statistics API's test (sidecar/tests/stats_api.rs).
const site = await startSite(undefined, { STATS_EVENTS_PER_SECOND: "1000" });
const child = spawn(process.execPath, ["--test", "--test-reporter=spec", "--test-concurrency=2", ...files], {
  cwd: here,
  stdio: "inherit",
  env: { ...process.env, [SHARED_SITE]: JSON.stringify({ ...site, stop: undefined }) },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
const code = await new Promise((resolve) => child.on("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await site.stop();
process.exit(code);
