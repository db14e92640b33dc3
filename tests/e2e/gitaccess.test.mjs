// 'Dostęp przez git' with the site hosting its content's repository (GIT_HOSTED=1), at 1280
// and 390 px, axe clean: the owner makes an editor's token (confirming who she is), sees it
// once, a real git client reaches the repository with it, and once she revokes it the same
// client is refused.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { violations } from "./axe.mjs";
import { launchBrowser, openPage, signIn, siteCopy, startSite } from "./harness.mjs";

const ADMIN = "magda@gabinet-harmonia.pl";
const PASSWORD = "hasło właścicielki do testów git";
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

function git(dir, ...args) {
  return execFileSync("git", ["-C", dir, "-c", "user.name=Magda", "-c", "user.email=magda@example.pl", ...args], {
    encoding: "utf8",
  });
}

/** Whether a git client with `token` may read the hosted repository. */
function reaches(panel, token) {
  const url = new URL("/git/tresc.git", panel);
  url.username = "redaktorka";
  url.password = token;
  const listed = spawnSync("git", ["ls-remote", url.href, "refs/heads/main"], {
    encoding: "utf8",
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
  });
  return listed.status === 0 && /refs\/heads\/main/.test(listed.stdout);
}

describe("editors' access to the hosted repository", () => {
  let site, browser;
  before(async () => {
    const root = siteCopy((yaml) => yaml);
    git(root, "init", "-q", "-b", "main");
    git(root, "add", ".");
    git(root, "commit", "-q", "-m", "Strona");
    site = await startSite(root, { ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: PASSWORD, GIT_HOSTED: "1" });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await site?.stop();
  });

  for (const viewport of VIEWPORTS) {
    const width = viewport.width;
    test(`a token is made, shown once and revoked at ${width} px`, async () => {
      const page = await openPage(browser, [site.panel, site.base], viewport, { bypassCSP: true });
      await signIn(page, site.panel, ADMIN, PASSWORD);
      await page.getByRole("button", { name: "Dostęp przez git", exact: true }).click();
      await page.getByRole("heading", { name: "Dostęp przez git", level: 2 }).waitFor();
      assert.match(await page.locator(".admin-card").first().innerText(), /\/git\/tresc\.git/);
      const name = `Anna, laptop (${width} px)`;
      await page.getByLabel("Czyj to token").fill(name);
      await page.getByRole("button", { name: "Utwórz token" }).click();
      const confirm = page.getByRole("dialog", { name: "Potwierdź, że to Ty" });
      await confirm.getByLabel("Hasło").fill(PASSWORD);
      await confirm.getByRole("button", { name: "Potwierdź" }).click();
      const shown = page.locator("code.git-token");
      await shown.waitFor();
      const token = (await shown.innerText()).trim();
      assert.match(token, /^[0-9a-f]{64}$/);
      assert.deepEqual(await violations(page, `a new token at ${width} px`), []);
      assert.ok(reaches(site.panel, token), "git reads the repository with the new token");

      await page.getByRole("button", { name: "Zapisałam token, ukryj go" }).click();
      await page.getByRole("button", { name: "Strony", exact: true }).click();
      await page.getByRole("button", { name: "Dostęp przez git", exact: true }).click();
      const row = page.locator(".passkey-list li").filter({ hasText: name });
      await row.waitFor();
      assert.match(await row.innerText(), /użyty/);
      assert.ok(!(await page.content()).includes(token), "the token is never shown again");

      page.once("dialog", (d) => d.accept());
      await row.getByRole("button", { name: `Unieważnij token ${name}` }).click();
      await row.waitFor({ state: "detached" });
      assert.ok(!reaches(site.panel, token), "a revoked token is refused");
      assert.deepEqual(await violations(page, `tokens after a revocation at ${width} px`), []);
      // The one refusal is the server asking her to confirm who she is before the token.
      assert.deepEqual(
        page.problems.filter((p) => !p.includes("status of 401")),
        [],
      );
      await page.close();
    });
  }
});
