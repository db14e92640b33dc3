// Starts the real sidecar on free loopback ports — the public site on 127.0.0.1, the panel on
// its own origin, localhost (another host: browsers share cookies between the ports of one
// host) — and a headless Chromium that can reach nothing but this machine (booking,
// telephony and analytics hosts are not found: `chromiumFlags`).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect, isDeepStrictEqual } from "node:util";
import { chromium } from "playwright-core";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
// Where cargo built it: CARGO_TARGET_DIR when set (as `make` sees it), else the repository's.
const sidecarBin = join(resolve(repoRoot, process.env.CARGO_TARGET_DIR || "target"), "debug", "sidecar");

export const chromiumFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Only this machine answers: any other host's name is not found, at once (booking widgets,
  // the telephony widget, analytics, a picture from another server). Done by the browser's own
  // resolver instead of a route in every context, which had each request of every page wait on
  // a round trip to node (a sixth of a file's processor time).
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
];

/**
 * How long `until()` and every Playwright action or wait of a page from `openPage()` wait for a
 * state by default: generous, for a machine that is busy (make test-busy, CI beside a build).
 */
export const DEADLINE = 60_000;

/**
 * Reads `probe()` until its value is `expected`, and returns that value: the way a test reads a
 * page's state after an event (a computed style, a box, a scroll position, the focus, a count,
 * a field's value, a file), since the page may not have it yet when the event returns.
 * `expected` is a value (compared as `assert.deepEqual` compares), a RegExp (for a string) or a
 * predicate. After `ms` it fails as the assertion would, with the last value read and `message`.
 */
export async function until(probe, expected, message, ms = DEADLINE) {
  const accepts =
    typeof expected === "function"
      ? expected
      : expected instanceof RegExp
        ? (value) => typeof value === "string" && expected.test(value)
        : (value) => isDeepStrictEqual(value, expected);
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await Promise.resolve().then(probe).catch(notYetIfDropped);
    if (accepts(value)) return value;
    if (Date.now() > deadline) {
      const waited = `${message ?? "the state"} (waited ${ms / 1000} s)`;
      if (typeof expected === "function") assert.fail(`${waited}: the last value read was ${inspect(value)}`);
      if (expected instanceof RegExp) assert.match(String(value), expected, waited);
      assert.deepEqual(value, expected, waited);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A probe's request that lost its connection (a kept-alive one the server closed as it was
 * reused: node's fetch does not send it again) is read as "not yet", and asked again; any other
 * error is the probe's own and fails at once.
 */
function notYetIfDropped(error) {
  const code = error?.cause?.code ?? "";
  const dropped = /^UND_ERR_(SOCKET|CLOSED)$|^(ECONNRESET|EPIPE)$/.test(code);
  if (!dropped) throw error;
  return `the connection was dropped (${code})`;
}

/** Waits until `ready()` is true, failing with `what` after `ms` (`until()` with a truth). */
export async function waitFor(ready, what, ms = DEADLINE) {
  await until(ready, Boolean, `timed out waiting: ${what}`, ms);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(url, child, log) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`sidecar exited early:\n${log.join("")}`);
    try {
      const res = await fetch(url);
      // 503: a production start holding the site back while its facts are example data.
      if (res.ok || res.status === 503) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sidecar did not answer within 30 s:\n${log.join("")}`);
}

/**
 * A copy of the project's sources in a temp dir with `site.yaml` changed by `edit`, for
 * tests that need other content than the real one.
 */
export function siteCopy(edit) {
  const root = mkdtempSync(join(tmpdir(), "harmonia-site-"));
  for (const dir of ["content", "templates", join("islands", "build")]) {
    cpSync(join(repoRoot, dir), join(root, dir), { recursive: true });
  }
  const siteYaml = join(root, "content", "site.yaml");
  writeFileSync(siteYaml, edit(readFileSync(siteYaml, "utf8")));
  return root;
}

/**
 * The environment variable through which run.mjs (`npm test`) hands the files its one sidecar on
 * the real sources: what `startSite()` returned there, as JSON.
 */
export const SHARED_SITE = "HARMONIA_SHARED_SITE";

/**
 * Starts the sidecar (on the real sources, or `root`); returns the public site's base URL,
 * the panel's (`panel`, its own origin) and a stop function. `env` may choose the ports
 * (`PORT`, `ADMIN_PORT`) and the panel's origin (`ADMIN_ORIGIN`). Called with neither, under
 * run.mjs, it returns the sidecar run.mjs started for every file that only reads the site (its
 * `stop()` leaves it running for the others).
 */
export async function startSite(root = repoRoot, env = {}) {
  if (root === repoRoot && Object.keys(env).length === 0 && process.env[SHARED_SITE]) {
    return { ...JSON.parse(process.env[SHARED_SITE]), async stop() {} };
  }
  // A port found free can be taken before the sidecar listens on it (the admin port only after
  // the first build, and the cargo tests beside these open connections from the same range):
  // ports this function chose are chosen again, up to three times.
  const chosen = env.PORT === undefined && env.ADMIN_PORT === undefined;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await launchSite(root, env);
    } catch (e) {
      if (!chosen || attempt === 3 || !/Address already in use/.test(String(e.message))) throw e;
    }
  }
}

async function launchSite(root, env) {
  // Without the image worker beside it the sidecar still runs, but refuses uploads (503) and
  // shows photographs without variants: say so once here rather than in each test that uploads.
  const worker = join(dirname(sidecarBin), "imaging");
  if (!existsSync(worker)) throw new Error(`${worker} is missing: build it with cargo build -p imaging`);
  const port = env.PORT ?? String(await freePort());
  const adminPort = env.ADMIN_PORT ?? String(await freePort());
  const panel = env.ADMIN_ORIGIN ?? `http://localhost:${adminPort}`;
  const work = mkdtempSync(join(tmpdir(), "harmonia-e2e-"));
  const log = [];
  const child = spawn(sidecarBin, [], {
    env: {
      ...process.env,
      PORT: port,
      ADMIN_PORT: adminPort,
      SITE_ROOT: root,
      DIST_DIR: join(work, "dist"),
      DATA_DIR: join(work, "var"),
      // Copies of the site share the repository's encoded images and prerendered islands
      // instead of encoding them again and starting node for each.
      IMAGE_CACHE_DIR: process.env.IMAGE_CACHE_DIR || join(repoRoot, ".cache", "images"),
      SSR_CACHE_DIR: process.env.SSR_CACHE_DIR || join(repoRoot, ".cache", "ssr"),
      RUST_LOG: "warn",
      // The alerts' own test (system.test.mjs) sets its period; elsewhere no alert mail (this
      // machine's disk may be under 10 % free) joins the messages a test counts.
      ALERT_CHECK_SECONDS: "86400",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => log.push(d.toString()));
  child.stderr.on("data", (d) => log.push(d.toString()));
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(base + "/", child, log);
    await waitUntilServing(`http://localhost:${adminPort}/administratormagda`, child, log);
  } catch (e) {
    child.kill("SIGTERM");
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
  await waitForImages(base, log);
  return {
    base,
    panel,
    dataDir: join(work, "var"),
    /** What the sidecar has written to its standard output and error so far. */
    log,
    /** The published build the sidecar serves (a link to its newest folder). */
    distDir: join(work, "dist"),
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
      // A request the sidecar answered after 5 s or more is in its log as a warning: shown
      // here, beside the test that waited for it.
      const slow = log
        .join("")
        .split("\n")
        .filter((line) => line.includes("slow request"));
      if (slow.length) console.error(`the sidecar at ${base} answered slowly:\n${slow.join("\n")}`);
      rmSync(work, { recursive: true, force: true });
      if (root !== repoRoot) rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until the photographs a start showed as they are have their variants (encoded in
 * the background on a fresh cache), so that pages have their final `<picture>`s.
 */
async function waitForImages(base, log) {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const health = await (await fetch(`${base}/api/health`)).json();
    if (health.images === 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`image variants were not ready within 5 minutes:\n${log.join("")}`);
}

/** Signs in on the panel's page `/administratormagda` and waits for its first view. */
export async function signIn(page, panel, email, password) {
  await page.goto(`${panel}/administratormagda`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Hasło").fill(password);
  await page.getByRole("button", { name: "Zaloguj się" }).click();
  await page.getByRole("tab").first().waitFor();
}

/**
 * The browser: CHROMIUM (as `make test` sets it), else Chromium's headless shell when installed
 * (a third less processor time than the desktop browser, the same engine), else Debian's chromium.
 */
export const chromiumPath =
  process.env.CHROMIUM ||
  (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

export async function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath,
    args: chromiumFlags,
  });
}

/**
 * A page in a context of its own, whose requests reach only this machine (chromiumFlags);
 * its console's errors and failed local requests are collected in `page.problems`.
 */
export async function openPage(browser, viewport = { width: 1280, height: 900 }, options = {}) {
  const { askConsent, visualEditor, ...contextOptions } = options;
  const context = await browser.newContext({ viewport, ...contextOptions });
  context.setDefaultTimeout(DEADLINE);
  if (!askConsent) {
    // A visitor who already chose: the banner does not cover what a test clicks.
    await context.addInitScript(() =>
      localStorage.setItem("harmonia-consent", JSON.stringify({ analytics: false, advertising: false, at: 1 })),
    );
  }
  if (!visualEditor) {
    // The panel's section editors open in the Markdown view, which the tests written for it type
    // into; visual.test.mjs opens the visual view, the owner's default. A choice made in the page
    // is kept (set only when none is).
    await context.addInitScript(
      () => localStorage.getItem("harmonia-editor-view") || localStorage.setItem("harmonia-editor-view", "markdown"),
    );
  }
  // Every Content-Security-Policy violation is a problem of the page.
  await context.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
    ),
  );
  const page = await context.newPage();
  page.problems = [];
  page.on("console", (m) => {
    // Another host's request fails by design (chromiumFlags); a local one that fails is a problem.
    if (m.type() === "error" && !/ERR_BLOCKED_BY_CLIENT|ERR_NAME_NOT_RESOLVED/.test(m.text()))
      page.problems.push(m.text());
  });
  page.on("pageerror", (e) => page.problems.push(e.message));
  return page;
}

/** Points at a page's first island, as a visitor reaching for it does, and waits for it to
 *  hydrate: a booking button loads React only then. */
export async function reachFor(page, selector = ".island") {
  const island = page.locator(selector).first();
  await island.hover();
  await island.and(page.locator('[data-hydrated="true"]')).waitFor();
}

/** The buttons (and links drawn as buttons) whose visible name is wider than their own box: a
 *  long word that runs over the border ('Bezpieczeństwo' did, in the panel's views at 390 px). */
export function namesOverBorders(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("button, a.btn")]
      .filter((el) => {
        if (el.getBoundingClientRect().width === 0 || el.closest("[hidden], .visually-hidden, .toasts")) return false;
        const style = getComputedStyle(el);
        const inner = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        // The visible text's extent: a name for screen readers only is 1 px, placed apart.
        let left = Infinity;
        let right = -Infinity;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!node.textContent.trim() || node.parentElement.closest(".visually-hidden, [hidden]")) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const line of range.getClientRects()) {
            left = Math.min(left, line.left);
            right = Math.max(right, line.right);
          }
        }
        return right - left > inner + 1;
      })
      .map((el) => el.textContent.trim().slice(0, 40)),
  );
}

/** The `title:` of a content file's front matter. */
export function frontMatterTitle(relative) {
  const text = readFileSync(join(repoRoot, "content", relative), "utf8");
  const match = text.match(/^title: "(.*)"$/m);
  if (!match) throw new Error(`${relative} has no title`);
  return match[1];
}

export function slugs(folder) {
  return readdirSync(join(repoRoot, "content", folder))
    .filter((f) => f.endsWith(".md"))
    .map((f) => f.replace(/\.md$/, ""));
}

/** A scalar of content/site.yaml (top level, or indented under a section). */
export function siteValue(key) {
  const text = readFileSync(join(repoRoot, "content", "site.yaml"), "utf8");
  const match = text.match(new RegExp(`^\\s*${key}: "(.*)"$`, "m"));
  if (!match) throw new Error(`site.yaml has no ${key}`);
  return match[1];
}

/**
 * The third parties whose scripts the site may load, as the code fixes them
 * (generator/content/src/providers.rs; site.yaml only names a provider and an id): the
 * doctor-listing platform's widget host and profile host, and the telephony widget's script.
 */
export function providers() {
  const text = readFileSync(join(repoRoot, "generator", "content", "src", "providers.rs"), "utf8");
  const value = (key) => {
    const match = text.match(new RegExp(`^\\s+${key}: "(.*)",$`, "m"));
    if (!match) throw new Error(`providers.rs has no ${key}`);
    return match[1];
  };
  return { widgetHost: value("widget_host"), listingHost: value("host"), telephonyScript: value("script") };
}

/** The practice's id at its telephony provider (`telephony.id` of site.yaml). */
export function telephonyId() {
  const text = readFileSync(join(repoRoot, "content", "site.yaml"), "utf8");
  const match = text.match(/^telephony:\n(?:\s+.*\n)*?\s+id: "(.*)"$/m);
  if (!match) throw new Error("site.yaml has no telephony.id");
  return match[1];
}

/**
 * Every page of the public site: the specification's routes (eight pages, eleven services, fifteen
 * articles), /pilna-pomoc, /standardy-ochrony-maloletnich and the terms' previous version, /regulamin-2025. The
 * ninth route, /administratormagda, leads to the panel's own origin.
 */
export function publicRoutes() {
  return [
    "/",
    "/m1",
    "/o-mnie",
    "/uslugi",
    "/cennik",
    "/blog",
    "/regulamin",
    "/regulamin-2025",
    "/polityka-prywatnosci",
    "/pilna-pomoc",
    "/standardy-ochrony-maloletnich",
    ...slugs("services").map((s) => `/uslugi/${s}`),
    ...slugs("blog").map((s) => `/blog/${s}`),
  ];
}

/**
 * The booking model of content/site.yaml (`booking:`): the practice's page, the facility's on
 * the doctor-listing platform, each therapist's page and doctor id, and who takes each service.
 * `target(slug)` is where the service books, as the generator answers it.
 */
export function bookingModel() {
  const text = readFileSync(join(repoRoot, "content", "site.yaml"), "utf8");
  const block = text.slice(text.indexOf("\nbooking:\n") + 1).split(/\n(?=[a-z_]+:)/)[0];
  const value = (key) => block.match(new RegExp(`^\\s+${key}: "(.*)"$`, "m"))?.[1];
  const therapists = {};
  const services = {};
  let section = "";
  let therapist = "";
  for (const line of block.split("\n")) {
    const entry = line.match(/^( +)([a-z_-]+):\s*"?([^"]*)"?$/);
    if (!entry) continue;
    const [, indent, key, val] = entry;
    if (indent.length === 2) section = key;
    else if (section === "therapists" && indent.length === 4) therapists[(therapist = key)] = {};
    else if (section === "therapists" && indent.length === 6) therapists[therapist][key] = val;
    else if (section === "services" && indent.length === 4) services[key] = val;
  }
  const practice = value("practice");
  const target = (slug) => {
    const who = therapists[services[slug]];
    return who ? { url: who.url, doctorId: who.doctor_id ?? null } : { url: practice, doctorId: null };
  };
  return {
    practice,
    facilityUrl: value("facility_url"),
    widgetHost: providers().widgetHost,
    listingHost: providers().listingHost,
    therapists,
    services,
    target,
  };
}
