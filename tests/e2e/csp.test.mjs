// The public site runs only the scripts its templates wrote. Every page's
// Content-Security-Policy lists the hashes of the templates' own inline scripts (worked out
// here from the templates' sources) and nothing else inline; a script injected into a page —
// inline, as an event handler or from a foreign host — is blocked by the browser, while the
// template's own inline script and the site's own script files run. Without the operator's
// analytics tag no Google host is allowed, and the statistics' beacon may go to 'self' only.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launchBrowser, openPage, providers, publicRoutes, repoRoot, startSite } from "./harness.mjs";

let site;
let browser;
before(async () => {
  site = await startSite();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

/** The CSP sources of the inline scripts the templates' sources write. */
function templateHashes() {
  const dir = join(repoRoot, "templates");
  const files = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith(".html"));
  const hashes = new Set();
  for (const file of files) {
    const text = readFileSync(join(dir, file), "utf8");
    for (const [, attributes, body] of text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
      if (/\bsrc=|type="application\//.test(attributes)) continue;
      hashes.add(`'sha256-${createHash("sha256").update(body).digest("base64")}'`);
    }
  }
  return hashes;
}

const directive = (csp, name) =>
  csp
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `));

describe("the public site's scripts", () => {
  test("every page's policy lists only the templates' inline scripts and the code's hosts", async () => {
    const expected = templateHashes();
    assert.equal(expected.size, 1, "base.html writes one inline script");
    const { telephonyScript, widgetHost } = providers();
    for (const route of [...publicRoutes(), "/nie-ma-takiej-strony"]) {
      const answer = await fetch(site.base + route);
      const csp = answer.headers.get("content-security-policy");
      assert.ok(csp, `${route}: a policy`);
      const listed = new Set(csp.match(/'sha256-[^']+'/g));
      assert.deepEqual(listed, expected, `${route}: ${csp}`);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|unsafe-hashes/, route);
      assert.equal(directive(csp, "script-src-attr"), "script-src-attr 'none'", route);
      const scripts = directive(csp, "script-src").split(" ").slice(1);
      const hosts = scripts.filter((s) => s.startsWith("https://"));
      // As the site ships there is no analytics tag (ANALYTICS_ID): no Google host at all.
      assert.deepEqual(
        hosts.sort(),
        [new URL(telephonyScript).origin, widgetHost].sort(),
        `${route}: only the hosts the code names`,
      );
      // The site's own statistics send their beacon to the site itself: nothing else to connect to
      // but the widgets a visitor opens.
      assert.deepEqual(
        directive(csp, "connect-src").split(" ").slice(1).sort(),
        ["'self'", new URL(telephonyScript).origin, widgetHost].sort(),
        `${route}: connect-src`,
      );
    }
  });

  test("a script injected into a page is blocked, and the page's own scripts still run", async () => {
    const page = await openPage(browser);
    // As if something had slipped an inline script, two handlers and a foreign script into the
    // page on its way: the body is changed, the answer's headers (its policy) are not.
    await page.route(`${site.base}/o-mnie`, async (route) => {
      const answer = await route.fetch();
      const injected = (await answer.text()).replace(
        "</main>",
        '<script>window.__injected = "inline";</script>' +
          '<img src="/nie-ma.png" alt="" onerror="window.__handler = 1">' +
          '<a id="wstrzykniety" href="#" onclick="window.__click = 1">x</a>' +
          '<script src="http://127.0.0.1:9/obcy.js"></script></main>',
      );
      await route.fulfill({ response: answer, body: injected });
    });
    await page.goto(`${site.base}/o-mnie`, { waitUntil: "load" });
    await page.click("#wstrzykniety");
    const ran = await page.evaluate(() => ({
      inline: window.__injected ?? null,
      handler: window.__handler ?? null,
      click: window.__click ?? null,
    }));
    assert.deepEqual(ran, { inline: null, handler: null, click: null }, "nothing injected ran");
    const violations = page.problems.filter((p) => p.startsWith("CSP violation"));
    assert.ok(
      violations.some((v) => v.includes("script-src-elem") && v.includes("inline")),
      `the inline script was refused: ${page.problems}`,
    );
    assert.ok(
      violations.some((v) => v.includes("script-src-attr")),
      `the handlers were refused: ${page.problems}`,
    );
    // The template's own inline script ran (the page knows it has JavaScript), and so did the
    // site's own script: the phone menu opens.
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains("js")), true);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Otwórz menu" }).click();
    await page.locator('#mobile-menu a[href="tel:112"]').waitFor({ state: "visible" });
    await page.context().close();
  });
});
