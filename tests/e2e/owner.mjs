// The owner's session in the panel, shared by the browser tests that use it as she does
// (owner.test.mjs, fields.test.mjs, writing.test.mjs): a copy of the site with her account, a browser, her
// signed-in panel at a width, screenshots to look at and axe's verdict.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { violations } from "./axe.mjs";
import { launchBrowser, openPage, signIn, siteCopy, startSite } from "./harness.mjs";

export const ADMIN = "magda@gabinet-harmonia.pl";
export const PASSWORD = "hasło właścicielki do testów";
export const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/**
 * Starts a copy of the site (with `env` besides the administrator's) and a browser before the
 * file's tests and stops them after; screenshots go to $SHOTS (or a temp dir named after `name`).
 */
export function ownerSession(name, env = {}) {
  const shots = process.env.SHOTS ?? join(tmpdir(), `harmonia-${name}-shots`);
  mkdirSync(shots, { recursive: true });
  const session = { root: null, site: null, browser: null };
  before(async () => {
    session.root = siteCopy((yaml) => yaml);
    session.site = await startSite(session.root, { ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: PASSWORD, ...env });
    session.browser = await launchBrowser();
  });
  after(async () => {
    await session.browser?.close();
    await session.site?.stop();
  });
  return Object.assign(session, {
    /** The signed-in panel in a context that lets axe in (it runs as an injected script). */
    async panel(viewport, options = {}) {
      const { site, browser } = session;
      const page = await openPage(browser, viewport, { bypassCSP: true, ...options });
      await signIn(page, site.panel, ADMIN, PASSWORD);
      return page;
    },
    async shot(page, file) {
      await page.screenshot({ path: join(shots, `${file}-${page.viewportSize().width}.png`), fullPage: false });
    },
    async clean(page, label) {
      assert.deepEqual(await violations(page, `${label} at ${page.viewportSize().width} px`), []);
    },
    /** The public page at `route` as visitors get it, non-breaking spaces as spaces. */
    async publicText(route) {
      return (await (await fetch(session.site.base + route)).text()).replace(/\u00a0|&nbsp;/g, " ");
    },
  });
}

/**
 * Opens a therapist's form ('Dodaj terapeutę' or 'Edytuj profil: …', a button of `scope`) and
 * waits for the form to put the focus on its first field, as it does a frame after it opens: a
 * field filled before then has its text typed into the name.
 */
export async function openProfile(scope, button) {
  await scope.getByRole("button", { name: button, exact: true }).click();
  await (scope.page?.() ?? scope).waitForFunction(() => document.activeElement?.id === "profile-name");
}

/** What has the keyboard's focus: its tag, label and text. */
export function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    return { tag: el?.tagName ?? "", label: el?.getAttribute("aria-label") ?? "", text: el?.textContent?.trim() ?? "" };
  });
}

/** Tabs on to 'Zapisz zmiany' (at most `stops` presses), presses it and waits for the save to be published. */
export async function saveByKeyboard(page, stops = 10) {
  for (let i = 0; i < stops && (await focused(page)).text !== "Zapisz zmiany"; i += 1) await page.keyboard.press("Tab");
  assert.equal((await focused(page)).text, "Zapisz zmiany");
  await page.keyboard.press("Enter");
  await page.locator(".save-message", { hasText: "Zapisano i opublikowano" }).waitFor();
}
