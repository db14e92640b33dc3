// `make dev` for editors: a change rebuilds and reloads open tabs; a broken file shows its
// file, line and problem over the page, and the next good save clears it.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { launchBrowser, openPage, siteCopy, startSite } from "./harness.mjs";

let site;
let root;
let browser;
before(async () => {
  root = siteCopy((yaml) => yaml);
  site = await startSite(root, { DEV: "1" });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

test("a broken save shows the error over the page; the next good save reloads and clears it", async () => {
  const page = await openPage(browser);
  // The tab listens once the dev server has answered its event stream.
  const listening = page.waitForResponse((r) => r.url() === `${site.base}/__dev/events`);
  await page.goto(`${site.base}/blog/terapia-cbt`);
  await listening;
  const file = join(root, "content/blog/terapia-cbt.md");
  const original = readFileSync(file, "utf8");
  writeFileSync(file, original.replace("author:", 'autor: "x"\nauthor:'));
  const overlay = page.locator("#dev-overlay");
  await overlay.waitFor();
  assert.match(await overlay.innerText(), /terapia-cbt\.md:\d+: front matter: unknown field `autor`/);
  writeFileSync(file, original.replace("## Ile trwa terapia CBT", "## Ile trwa terapia CBT w praktyce"));
  await page.getByRole("heading", { name: "Ile trwa terapia CBT w praktyce" }).waitFor();
  assert.equal(await overlay.count(), 0);
  await page.context().close();
});
