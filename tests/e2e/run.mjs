// `npm test`: every browser test file (or those named: `node run.mjs site.test.mjs`), three at a
// time (E2E_CONCURRENCY), the longest first, with one sidecar on the real sources shared by the files that only
// read it (they call `startSite()` with no arguments: harness.mjs hands them this one instead of
// starting their own); a file that changes content, settings or accounts starts its own.
import { readdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { run } from "node:test";
import { spec } from "node:test/reporters";
import { fileURLToPath } from "node:url";
import { SHARED_SITE, startSite } from "./harness.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const named = process.argv.slice(2);
// The files that take longest (30 s or more alone, measured 2026-11-29), longest first: started
// first, they end beside the short ones instead of leaving one core alone at the end of the run.
const LONGEST = [
  "owner.test.mjs",
  "a11y.test.mjs",
  "handheld.test.mjs",
  "panel.test.mjs",
  "fields.test.mjs",
  "paths.test.mjs",
  "security.test.mjs",
  "writing.test.mjs",
  "visitor.test.mjs",
  "phone.test.mjs",
];
const rank = (f) => (LONGEST.includes(f) ? LONGEST.indexOf(f) : LONGEST.length);
const files = named.length
  ? named
  : readdirSync(here)
      .filter((f) => f.endsWith(".test.mjs"))
      .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

// The shared sidecar stands for many visitors at once, all from 127.0.0.1: the statistics'
// limit per address (5 events a second) would refuse their page views as one visitor's and the
// browser would log the 429 as a console error, which the files count. The limit itself is the
// statistics API's test (sidecar/tests/stats_api.rs). For the same reason its connections are
// not capped at one client's 64 (one port of a browser stage had 48 open at once, 2026-11-30):
// the cap has its own test (sidecar/tests/process.rs).
const site = await startSite(undefined, { STATS_EVENTS_PER_SECOND: "1000", CONNECTIONS_PER_CLIENT: "4096" });
process.env[SHARED_SITE] = JSON.stringify({ ...site, stop: undefined });
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    await site.stop();
    process.exit(1);
  });
}
process.chdir(here);
// node:test's run() keeps the order given (`node --test` sorts the files by name).
let failed = false;
// Three files at a time: with Chromium's headless shell, two left the machine idle a quarter of
// the time (a test waits on its page, its server or a clock between steps); three kept it 91%
// busy and ended the stage 11% sooner (497 s at two, 445 and 440 s at three, 2026-11-29).
const concurrency = Number(process.env.E2E_CONCURRENCY || 3);
const stream = run({ files: files.map((f) => resolve(here, f)), concurrency });
stream.on("test:fail", () => (failed = true));
await pipeline(stream.compose(spec), process.stdout);
await site.stop();
process.exit(failed ? 1 : 0);
