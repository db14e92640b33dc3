// What the tests of the panel as its owner uses it share (owner.test.mjs, writing.test.mjs):
// the signed-in panel at a viewport, screenshots to be looked at, and axe's verdict.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { violations } from "./axe.mjs";
import { openPage } from "./harness.mjs";

export const ADMIN = "magda@gabinet-harmonia.pl";
export const PASSWORD = "hasło właścicielki do testów";
export const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** The signed-in panel of `site` in a context that lets axe in (it runs as an injected script). */
export async function ownerPanel(browser, site, viewport) {
  const page = await openPage(browser, [site.panel, site.base], viewport, { bypassCSP: true });
  await page.goto(`${site.panel}/administratormagda`);
  await page.getByLabel("E-mail").fill(ADMIN);
  await page.getByLabel("Hasło").fill(PASSWORD);
  await page.getByRole("button", { name: "Zaloguj się" }).click();
  await page.getByRole("tab").first().waitFor();
  return page;
}

/** Screenshots into `dir` (made if missing), named by what they show and the viewport's width. */
export function screenshots(dir) {
  mkdirSync(dir, { recursive: true });
  return (page, name) =>
    page.screenshot({ path: join(dir, `${name}-${page.viewportSize().width}.png`), fullPage: false });
}

/** axe finds nothing on the page as it is now. */
export async function clean(page, label) {
  assert.deepEqual(await violations(page, `${label} at ${page.viewportSize().width} px`), []);
}
