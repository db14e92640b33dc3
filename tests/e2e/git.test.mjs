// Editors who commit Markdown: the site's content in a clone of a bare repository
// (GIT_REMOTE); an editor's own clone pushes, the forge's signed webhook arrives, and the
// article is on the public site without anyone touching the server; a push with a broken
// front matter is not published and the panel shows it at file:line until the next good
// push; the panel's save reaches the editor's `git pull` with the administrator as author;
// while the remote is down saves still publish at once and are pushed when it is back; the
// panel and an editor changing one page at once keep both texts, and the owner picks one.
// The remote is real: a bare repository over smart HTTP (`git http-backend` behind nginx and
// fcgiwrap), and the public site is also served by the nginx edge that PUBLISH_CMD fills.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { skip as noEdge, startEdge } from "./edge.mjs";
import { bareRepository, skip as noGitServer, startGitServer } from "./gitserver.mjs";
import { freePort, launchBrowser, openPage, signIn, siteCopy, startSite, waitFor } from "./harness.mjs";

const ADMIN = "magda@gabinet-harmonia.pl";
const PASSWORD = "hasło panelu do testów";
const SECRET = "sekret-powiadomien-forge";

function git(dir, ...args) {
  return execFileSync(
    "git",
    [
      "-C",
      dir,
      "-c",
      "core.hooksPath=/dev/null",
      "-c",
      "user.name=Ewa Redaktorka",
      "-c",
      "user.email=ewa@example.pl",
      ...args,
    ],
    { encoding: "utf8" },
  ).trim();
}

const skip = noGitServer || noEdge;

let work;
let editor;
let site;
let edge;
let server;
let browser;
let delivery = 0;
before(async () => {
  if (skip) return;
  work = mkdtempSync(join(tmpdir(), "harmonia-git-"));
  const projects = join(work, "projects");
  mkdirSync(projects);
  bareRepository(projects, "site.git");
  server = await startGitServer(work, projects);
  const remote = server.url("site.git");
  const root = siteCopy((yaml) => yaml);
  git(root, "init", "-q", "-b", "main");
  git(root, "add", ".");
  git(root, "commit", "-q", "-m", "Strona");
  git(root, "push", "-q", remote, "HEAD:refs/heads/main");
  editor = join(work, "editor");
  execFileSync("git", ["clone", "-q", remote, editor]);
  const edgeRoot = join(work, "edge");
  const published = join(work, "published.txt");
  const [adminPort, edgePanelPort] = [await freePort(), await freePort()];
  site = await startSite(root, {
    ADMIN_PORT: String(adminPort),
    ADMIN_EMAIL: ADMIN,
    ADMIN_PASSWORD: PASSWORD,
    GIT_REMOTE: remote,
    GIT_BRANCH: "main",
    GIT_POLL_SECONDS: "0",
    GIT_WEBHOOK_SECRET: SECRET,
    PUBLISH_CMD: `rclone sync --config /dev/null "$DIST_DIR/" '${edgeRoot}' && touch '${published}'`,
  });
  await waitFor(() => existsSync(published), "PUBLISH_CMD after the start");
  edge = await startEdge(work, site.base.replace("http://", ""), `127.0.0.1:${adminPort}`, edgePanelPort, edgeRoot);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await edge?.stop();
  await site?.stop();
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function health() {
  return (await (await fetch(`${site.base}/api/health`)).json()).git;
}

async function served(base, route, text) {
  const res = await fetch(`${base}${route}`);
  return res.ok && (!text || (await res.text()).includes(text));
}

/** What GitHub sends after a push: the body signed with the webhook's secret. */
async function webhook() {
  delivery += 1;
  // A forge's body names the pushed commit: each notification's body is its own.
  const body = JSON.stringify({ ref: "refs/heads/main", after: `e2e-${delivery}` });
  const signature = "sha256=" + createHmac("sha256", SECRET).update(body).digest("hex");
  const res = await fetch(`${site.base}/api/git/push`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-GitHub-Event": "push",
      "X-GitHub-Delivery": `e2e-${delivery}`,
      "X-Hub-Signature-256": signature,
    },
    body,
  });
  assert.equal(res.status, 202);
}

function editorPushes(file, text) {
  writeFileSync(join(editor, file), text);
  git(editor, "add", "-A");
  git(editor, "commit", "-q", "-m", `Redakcja: ${file}`);
  git(editor, "pull", "-q", "--rebase", "origin", "main");
  git(editor, "push", "-q", "origin", "HEAD:main");
}

function article(title) {
  return `---
title: "${title}"
description: "Spacer nad morzem w Gdańsku jako prosty sposób na odpoczynek od codziennego napięcia."
excerpt: "Spacer nad morzem pomaga odpocząć."
date: "2025-08-01"
image: "las.svg"
image_alt: "Zielony las"
author: "Magdalena Wiśniewska"
---
Spacer nad morzem to prosty sposób na odpoczynek. Opisujemy, jak zacząć.
`;
}

/**
 * Waits until `check()` holds. A request that fails on the way counts as "not yet": a pooled
 * keep-alive connection that nginx closed a moment before is reused now and then on a busy
 * machine ("other side closed").
 */
async function eventually(what, check) {
  const deadline = Date.now() + 30_000;
  let failed;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      failed = error;
    }
    if (Date.now() > deadline) {
      const state = site ? JSON.stringify(await health()) : "";
      const last = failed ? `; the last request failed: ${failed.cause?.message ?? failed.message}` : "";
      assert.fail(`${what} did not happen within 30 s (the repository as health shows it: ${state}${last})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function panel() {
  const page = await openPage(browser);
  page.on("dialog", (d) => d.accept());
  await signIn(page, site.panel, ADMIN, PASSWORD);
  return page;
}

/** Writes `text` as the first section of the page under the tab `tab` and saves it. */
async function savePage(page, tab, text) {
  await page.getByRole("tab", { name: tab, exact: true }).click();
  await page.getByLabel("Treść sekcji 1").fill(text);
  await page.getByRole("button", { name: "Zapisz zmiany" }).click();
  await page.getByRole("status").filter({ hasText: "Zmiany zostały zapisane." }).first().waitFor();
}

describe("editors who commit Markdown", { skip }, () => {
  test("an editor's push is served without anyone touching the server", async () => {
    const started = Date.now();
    editorPushes("content/blog/spacer-nad-morzem.md", article("Spacer nad morzem"));
    await webhook();
    await eventually("the article is served", async () => (await fetch(`${site.base}/blog/spacer-nad-morzem`)).ok);
    console.log(`git push + webhook -> served by the sidecar: ${Date.now() - started} ms`);
    await eventually("the edge serves it", () => served(edge.base, "/blog/spacer-nad-morzem"));
    console.log(`git push + webhook -> served by the nginx edge: ${Date.now() - started} ms`);
    const html = await (await fetch(`${site.base}/blog`)).text();
    assert.match(html, /Spacer nad morzem/);
  });

  test("a broken push is not published, the panel shows it at file:line, the next good push clears it", async () => {
    editorPushes("content/blog/zepsuty.md", '---\ntitle: "Bez zamknięcia\ndate: 2025-13-45\n---\nTekst.\n');
    await webhook();
    await eventually("the broken commit is reported", async () => {
      const health = await (await fetch(`${site.base}/api/health`)).json();
      return health.git.broken === true;
    });
    assert.equal((await fetch(`${site.base}/blog/zepsuty`)).status, 404);
    const page = await panel();
    const banner = page.getByRole("alert").filter({ hasText: "nie została opublikowana" });
    await banner.waitFor();
    assert.match(await banner.innerText(), /content\/blog\/zepsuty\.md:\d+/);
    assert.match(await banner.innerText(), /Ewa Redaktorka/);
    editorPushes("content/blog/zepsuty.md", article("Naprawiony artykuł"));
    await webhook();
    await eventually("the fixed article is served", async () => (await fetch(`${site.base}/blog/zepsuty`)).ok);
    // The sync clears the report just after it publishes: under load, a moment later.
    await eventually("the broken commit is no longer reported", async () => {
      const health = await (await fetch(`${site.base}/api/health`)).json();
      return health.git.broken === false;
    });
    // The panel reads its alerts after it shows: once the network is quiet, it has.
    await page.reload({ waitUntil: "networkidle" });
    await page.getByRole("tab").first().waitFor();
    assert.equal(await page.getByRole("alert").filter({ hasText: "nie została opublikowana" }).count(), 0);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test("a pushed link to the server's database is refused: nothing served, the panel says why", async () => {
    symlinkSync("../../../var/site.sqlite3", join(editor, "content/images/leak.svg"));
    symlinkSync("/etc/passwd", join(editor, "content/images/passwd.gif"));
    git(editor, "add", "-A");
    git(editor, "commit", "-q", "-m", "Obrazy");
    git(editor, "push", "-q", "origin", "HEAD:main");
    await webhook();
    await eventually("the linking commit is refused", async () => {
      const health = await (await fetch(`${site.base}/api/health`)).json();
      return health.git.broken === true;
    });
    const health = await (await fetch(`${site.base}/api/health`)).text();
    assert.doesNotMatch(health, /leak|passwd|content\//);
    for (const path of ["/images/leak.svg", "/images/passwd.gif"]) {
      const res = await fetch(`${site.base}${path}`);
      assert.equal(res.status, 404, path);
      assert.doesNotMatch(await res.text(), /root:|SQLite/);
    }
    const page = await panel();
    const banner = page.getByRole("alert").filter({ hasText: "nie została opublikowana" });
    await banner.waitFor();
    assert.match(await banner.innerText(), /content\/images\/leak\.svg: to dowiązanie symboliczne/);
    // The editor replaces the links with nothing: the next push clears the report.
    git(editor, "rm", "-q", "content/images/leak.svg", "content/images/passwd.gif");
    git(editor, "commit", "-q", "-m", "Bez dowiązań");
    git(editor, "push", "-q", "origin", "HEAD:main");
    await webhook();
    await eventually("the report is cleared", async () => {
      const health = await (await fetch(`${site.base}/api/health`)).json();
      return health.git.broken === false;
    });
    await page.context().close();
  });

  test("the panel's save reaches the editor's git pull with the administrator as author", async () => {
    const page = await panel();
    await page.getByRole("tab", { name: "Cennik", exact: true }).click();
    await page.getByLabel("Treść sekcji 1").fill("Cennik poprawiony w panelu.");
    await page.getByRole("button", { name: "Zapisz zmiany" }).click();
    await page.getByRole("status").filter({ hasText: "Zmiany zostały zapisane." }).first().waitFor();
    await eventually("the save is pushed", async () => {
      const health = await (await fetch(`${site.base}/api/health`)).json();
      return health.git.unpushed === 0 && health.git.pushedAt !== null;
    });
    git(editor, "pull", "-q", "--rebase", "origin", "main");
    assert.equal(git(editor, "log", "-1", "--format=%an <%ae>"), `Administrator <${ADMIN}>`);
    assert.match(readFileSync(join(editor, "content/pages/cennik.md"), "utf8"), /Cennik poprawiony w panelu\./);
    await page.context().close();
  });
  test("while the remote is down, saves publish at once and are pushed when it is back", async () => {
    await server.stop();
    const page = await panel();
    await savePage(page, "Usługi", "Tekst zapisany, gdy repozytorium nie odpowiadało.");
    assert.ok(await served(site.base, "/uslugi", "gdy repozytorium nie odpowiadało"), "the sidecar serves it at once");
    await eventually("the edge serves it", () => served(edge.base, "/uslugi", "gdy repozytorium nie odpowiadało"));
    await eventually("the failed push is reported", async () => {
      const g = await health();
      return g.unpushed >= 1 && g.failing === true;
    });
    const waiting = page.getByRole("status").filter({ hasText: "Jeszcze nie wysłano do repozytorium" });
    const failing = page.getByRole("alert").filter({ hasText: "Synchronizacja z repozytorium nie działa" });
    await page.reload();
    await waiting.waitFor();
    await failing.waitFor();
    assert.match(await failing.innerText(), /Nie udało się wysłać zmian do repozytorium/);
    await server.start();
    await eventually("the waiting commit is pushed", async () => (await health()).unpushed === 0);
    await eventually("the error is cleared", async () => (await health()).failing === false);
    await page.reload();
    await page.getByRole("tab").first().waitFor();
    assert.equal(await failing.count(), 0, "the panel no longer shows the error");
    git(editor, "pull", "-q", "--rebase", "origin", "main");
    assert.match(readFileSync(join(editor, "content/pages/uslugi.md"), "utf8"), /gdy repozytorium nie odpowiadało/);
    assert.equal(git(editor, "log", "-1", "--format=%an <%ae>"), `Administrator <${ADMIN}>`);
    await page.context().close();
  });

  test("the panel and an editor change one page at once: both texts are kept and the owner picks one", async () => {
    const file = "content/services/terapia-par.md";
    git(editor, "pull", "-q", "--rebase", "origin", "main");
    const original = readFileSync(join(editor, file), "utf8");
    const editorText = original.replace(
      "## Na czym polegają konsultacje dla par?",
      "## Jak wygląda terapia par według redakcji?",
    );
    assert.notEqual(editorText, original);
    editorPushes(file, editorText);
    const page = await panel();
    await savePage(page, "Konsultacje dla par", "Wersja panelowa: terapia par krok po kroku.");
    await webhook();
    const conflict = page
      .getByRole("alert")
      .filter({ hasText: "Ten sam fragment zmieniono w repozytorium i w panelu" });
    await eventually("the conflict is reported", async () => (await health()).conflicts > 0);
    await page.reload();
    await conflict.waitFor();
    const texts = await conflict.innerText();
    assert.match(texts, /Jak wygląda terapia par według redakcji\?/, "the editor's text is shown");
    assert.match(texts, /Wersja panelowa: terapia par krok po kroku\./, "the panel's text is shown");
    // What differs is highlighted on both sides.
    assert.equal(await conflict.locator("mark").filter({ hasText: "według redakcji" }).count(), 1);
    assert.equal(await conflict.locator("mark").filter({ hasText: "Wersja panelowa" }).count(), 1);
    await page.screenshot({ path: join(tmpdir(), "harmonia-git-conflict.png"), fullPage: true });
    // The repository kept the editor's commit: that is what is served until the owner chooses.
    await eventually("the editor's text is served", () => served(site.base, "/uslugi/terapia-par", "według redakcji"));
    await conflict.getByRole("button", { name: "Opublikuj wersję z panelu" }).click();
    await eventually("the panel's text is served", () =>
      served(site.base, "/uslugi/terapia-par", "Wersja panelowa: terapia par krok po kroku."),
    );
    await conflict.waitFor({ state: "detached" });
    await eventually("the choice reaches the editor's git pull", async () => {
      git(editor, "pull", "-q", "--rebase", "origin", "main");
      return readFileSync(join(editor, file), "utf8").includes("Wersja panelowa: terapia par krok po kroku.");
    });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
});
