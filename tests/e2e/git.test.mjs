// Editors who commit Markdown (issue 23): the site's content in a clone of a bare repository
// (GIT_REMOTE); an editor's own clone pushes, the forge's signed webhook arrives, and the
// article is on the public site without anyone touching the server; a push with a broken
// front matter is not published and the panel shows it at file:line until the next good
// push; the panel's save reaches the editor's `git pull` with the administrator as author.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launchBrowser, openPage, siteCopy, startSite } from "./harness.mjs";

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

let work;
let editor;
let site;
let browser;
let delivery = 0;
before(async () => {
  work = mkdtempSync(join(tmpdir(), "harmonia-git-"));
  const root = siteCopy((yaml) => yaml);
  const remote = join(work, "remote.git");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
  git(root, "init", "-q", "-b", "main");
  git(root, "add", ".");
  git(root, "commit", "-q", "-m", "Strona");
  git(root, "push", "-q", remote, "HEAD:refs/heads/main");
  editor = join(work, "editor");
  execFileSync("git", ["clone", "-q", remote, editor]);
  site = await startSite(root, {
    ADMIN_EMAIL: ADMIN,
    ADMIN_PASSWORD: PASSWORD,
    GIT_REMOTE: remote,
    GIT_BRANCH: "main",
    GIT_POLL_SECONDS: "0",
    GIT_WEBHOOK_SECRET: SECRET,
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** What GitHub sends after a push: the body signed with the webhook's secret. */
async function webhook() {
  const body = JSON.stringify({ ref: "refs/heads/main" });
  const signature = "sha256=" + createHmac("sha256", SECRET).update(body).digest("hex");
  delivery += 1;
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

async function eventually(what, check) {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `${what} did not happen within 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function panel() {
  const page = await openPage(browser, [site.panel, site.base]);
  page.on("dialog", (d) => d.accept());
  await page.goto(`${site.panel}/administratormagda`);
  await page.getByLabel("E-mail").fill(ADMIN);
  await page.getByLabel("Hasło").fill(PASSWORD);
  await page.getByRole("button", { name: "Zaloguj się" }).click();
  await page.getByRole("tab").first().waitFor();
  return page;
}

describe("editors who commit Markdown", () => {
  test("an editor's push is served without anyone touching the server", async () => {
    const started = Date.now();
    editorPushes("content/blog/spacer-nad-morzem.md", article("Spacer nad morzem"));
    await webhook();
    await eventually("the article is served", async () => (await fetch(`${site.base}/blog/spacer-nad-morzem`)).ok);
    console.log(`git push + webhook -> served by the sidecar: ${Date.now() - started} ms`);
    const html = await (await fetch(`${site.base}/blog`)).text();
    assert.match(html, /Spacer nad morzem/);
  });

  test("a broken push is not published, the panel shows it at file:line, the next good push clears it", async () => {
    editorPushes("content/blog/zepsuty.md", '---\ntitle: "Bez zamknięcia\ndate: 2025-13-45\n---\nTekst.\n');
    await webhook();
    await eventually("the broken commit is reported", async () => {
      const health = await (await fetch(`${site.base}/api/health`)).json();
      return health.git.broken !== null;
    });
    assert.equal((await fetch(`${site.base}/blog/zepsuty`)).status, 404);
    const page = await panel();
    const banner = page.getByRole("alert").filter({ hasText: "nie została opublikowana" });
    await banner.waitFor();
    assert.match(await banner.innerText(), /blog\/zepsuty\.md:\d+/);
    assert.match(await banner.innerText(), /Ewa Redaktorka/);
    editorPushes("content/blog/zepsuty.md", article("Naprawiony artykuł"));
    await webhook();
    await eventually("the fixed article is served", async () => (await fetch(`${site.base}/blog/zepsuty`)).ok);
    await page.reload();
    await page.getByRole("tab").first().waitFor();
    await page.waitForTimeout(500);
    assert.equal(await page.getByRole("alert").filter({ hasText: "nie została opublikowana" }).count(), 0);
    assert.deepEqual(page.problems, []);
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
});
