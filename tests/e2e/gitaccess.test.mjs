// 'Dostęp przez git' with the site hosting its content's repository (GIT_HOSTED=1), at 1280
// and 390 px, axe clean: the owner makes an editor's token (confirming who she is), sees it
// once, a real git client reaches the repository with it, and once she revokes it the same
// client is refused. An editor's push through the nginx edge's panel address (deploy/nginx.conf)
// is live on the sidecar and on the edge that PUBLISH_CMD fills; a broken one is refused in
// the push's own output.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { violations } from "./axe.mjs";
import { skip as noEdge, startEdge } from "./edge.mjs";
import { freePort, launchBrowser, openPage, signIn, siteCopy, startSite, waitFor } from "./harness.mjs";

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

async function served(base, route, text) {
  // A kept-alive connection the server closed meanwhile (its idle timeout, sooner on a busy
  // machine) fails the request that reused it: once more on a new one.
  const res = await fetch(`${base}${route}`).catch(() => fetch(`${base}${route}`));
  return res.ok && (await res.text()).includes(text);
}

/** `git push` in `dir`: whether it was taken, and all git said. */
function push(dir) {
  const pushed = spawnSync("git", ["-C", dir, "push", "origin", "HEAD:main"], {
    encoding: "utf8",
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
  });
  return { taken: pushed.status === 0, said: pushed.stdout + pushed.stderr };
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
  let site, browser, edge, work;
  before(async () => {
    work = mkdtempSync(join(tmpdir(), "harmonia-hosted-"));
    const root = siteCopy((yaml) => yaml);
    git(root, "init", "-q", "-b", "main");
    git(root, "add", ".");
    git(root, "commit", "-q", "-m", "Strona");
    const edgeRoot = join(work, "edge");
    const published = join(work, "published.txt");
    const [adminPort, edgePanelPort] = [await freePort(), await freePort()];
    site = await startSite(root, {
      ADMIN_PORT: String(adminPort),
      ADMIN_EMAIL: ADMIN,
      ADMIN_PASSWORD: PASSWORD,
      GIT_HOSTED: "1",
      GIT_POLL_SECONDS: "0",
      PUBLISH_CMD: `rclone sync --config /dev/null "$DIST_DIR/" '${edgeRoot}' && touch '${published}'`,
    });
    browser = await launchBrowser();
    if (noEdge) return;
    await waitFor(() => existsSync(published), "PUBLISH_CMD after the start");
    edge = await startEdge(work, site.base.replace("http://", ""), `127.0.0.1:${adminPort}`, edgePanelPort, edgeRoot);
  });
  after(async () => {
    await browser?.close();
    await edge?.stop();
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const viewport of VIEWPORTS) {
    const width = viewport.width;
    test(`a token is made, shown once and revoked at ${width} px`, async () => {
      const page = await openPage(browser, viewport, { bypassCSP: true });
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
      // The token and the address wrap: nothing is wider than the screen.
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      assert.ok(fits, `the view fits ${width} px`);
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

  test("an editor's push through the edge is live on the sidecar and the edge", { skip: noEdge }, async () => {
    const page = await openPage(browser, VIEWPORTS[0]);
    await signIn(page, site.panel, ADMIN, PASSWORD);
    const made = await page.evaluate(async (password) => {
      const headers = { "Content-Type": "application/json" };
      await fetch("/api/auth/reauth", { method: "POST", headers, body: JSON.stringify({ password }) });
      const res = await fetch("/api/git/tokens", { method: "POST", headers, body: JSON.stringify({ name: "Ewa" }) });
      return res.json();
    }, PASSWORD);
    await page.close();
    const url = new URL("/git/tresc.git", edge.panel);
    url.username = "ewa";
    url.password = made.token;
    const clone = join(work, "ewa");
    execFileSync("git", ["clone", "-q", url.href, clone]);
    const article = readFileSync(join(clone, "content/blog/terapia-cbt.md"), "utf8")
      .replace(/^title: .*$/m, 'title: "Spacer nad morzem"')
      .replace("featured: true", "featured: false");
    writeFileSync(join(clone, "content/blog/spacer-nad-morzem.md"), article + "\nTekst wysłany przez krawędź.\n");
    git(clone, "add", "-A");
    git(clone, "commit", "-q", "-m", "Spacer nad morzem");
    const good = push(clone);
    assert.ok(good.taken, good.said);
    assert.match(good.said, /remote: Zmiany sprawdzone i opublikowane: strona już je pokazuje\./);
    // Said only once it is so: the sidecar serves it when the push returns.
    assert.ok(await served(site.base, "/blog/spacer-nad-morzem", "Tekst wysłany przez krawędź"));
    await waitFor(
      () => served(edge.base, "/blog/spacer-nad-morzem", "Tekst wysłany przez krawędź"),
      "the edge serves it",
    );

    writeFileSync(
      join(clone, "content/blog/spacer-nad-morzem.md"),
      article + "\n## Dlaczego spacer pomaga\n\nTekst.\n",
    );
    git(clone, "commit", "-q", "-am", "Zepsuty nagłówek");
    const broken = push(clone);
    assert.ok(!broken.taken, broken.said);
    assert.match(broken.said, /remote: {3}content\/blog\/spacer-nad-morzem\.md:\d+: .*znakiem zapytania/);
    assert.ok(!(await served(site.base, "/blog/spacer-nad-morzem", "Dlaczego spacer")), "nothing changed");
  });
});
