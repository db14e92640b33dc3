// 'Stan systemu' in a real browser: a backup repository that cannot be used raises an alert
// that the panel shows above every view, and the view itself shows the alert, the backups, the
// outbox and the requests counted since the start, in Polish. Every alert says what happened,
// what it means and what to do; restic's own words appear only under 'Szczegóły dla
// informatyka' (the banner and the view are scanned for them), with a button that copies
// them. A site without backups is warned of, never "Wszystko działa".
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launchBrowser, openPage, signIn, siteCopy, startSite, until } from "./harness.mjs";

const ADMIN = "magda@gabinet-harmonia.pl";
// Screenshots of the view, to be looked at.
const SHOTS = process.env.SHOTS ?? mkdtempSync(join(tmpdir(), "harmonia-system-shots-"));
const PASSWORD = "hasło panelu do testów";

function resticInstalled() {
  try {
    execFileSync("restic", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The text of `locator` without what is folded under 'Szczegóły dla informatyka'. */
function ownersText(locator) {
  return locator.evaluate((element) => {
    const copy = element.cloneNode(true);
    for (const details of copy.querySelectorAll("details")) details.remove();
    return copy.textContent;
  });
}

/** The owner's text holds none of restic's words, nor the repository's path. */
function inPeoplesWords(text, raw, repository) {
  for (const words of [raw, repository, "restic", "failed", "not a directory", "Fatal"]) {
    assert.ok(!text.includes(words), `${JSON.stringify(words)} in: ${text}`);
  }
}

let site;
let browser;
let scratch;
let repository;
before(async () => {
  browser = await launchBrowser();
  if (!resticInstalled()) return;
  scratch = mkdtempSync(join(tmpdir(), "harmonia-system-"));
  // A file where the repository should be: every backup fails.
  repository = join(scratch, "repo");
  writeFileSync(repository, "zajęte");
  writeFileSync(join(scratch, "backup_password"), "klucz kopii\n");
  site = await startSite(
    siteCopy((yaml) => yaml),
    {
      ADMIN_EMAIL: ADMIN,
      ADMIN_PASSWORD: PASSWORD,
      BACKUP_REPOSITORY: repository,
      BACKUP_PASSWORD_FILE: join(scratch, "backup_password"),
      ALERT_CHECK_SECONDS: "1",
    },
  );
});
after(async () => {
  await browser?.close();
  await site?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("Stan systemu", { skip: !resticInstalled() && "restic is not installed" }, () => {
  test("a failed backup shows above every view and in 'Stan systemu', restic's words only under the details", async () => {
    const page = await openPage(browser, undefined, {
      permissions: ["clipboard-read", "clipboard-write"],
    });
    await signIn(page, site.panel, ADMIN, PASSWORD);
    const banner = page.locator(".system-alerts");
    await banner.getByText("Kopia zapasowa nie powiodła się").waitFor({ timeout: 45_000 });
    await page.getByRole("button", { name: "Wiadomości" }).click();
    assert.equal(await banner.count(), 1, "above the inbox too");
    const raw = (await banner.locator("details pre").first().textContent()).trim();
    assert.match(raw, /restic/, "the details hold restic's words");
    const said = await ownersText(banner);
    inPeoplesWords(said, raw, repository);
    assert.match(said, /Co zrobić:/);
    assert.match(said, /informatyk/);

    await banner.getByRole("button", { name: "Zobacz stan systemu" }).click();
    await until(
      () => page.getByRole("button", { name: "Stan systemu", exact: true }).getAttribute("aria-pressed"),
      "true",
      "'Stan systemu' is the view shown",
    );
    await until(() => banner.count(), 0, "the view itself lists the alerts");
    const alerts = page.getByRole("region", { name: "Alerty" });
    const alertsText = await ownersText(alerts);
    assert.match(alertsText, /Coś przestało działać/);
    assert.match(alertsText, /Kopia zapasowa nie powiodła się \(od .+\)/);
    assert.doesNotMatch(alertsText, /Wszystko działa/);
    inPeoplesWords(alertsText, raw, repository);
    const backups = page.getByRole("region", { name: "Kopie zapasowe" });
    const backupsText = await ownersText(backups);
    assert.match(backupsText, /Kopia co\s*1 godz\./);
    assert.match(backupsText, /Ostatnia udana kopia\s*jeszcze żadnej/);
    assert.match(backupsText, /Ostatnia nieudana próba/);
    inPeoplesWords(backupsText, raw, repository);

    // The details open, and their words go to the clipboard for whoever she asks.
    const details = alerts.locator("details").first();
    await details.getByText("Szczegóły dla informatyka").click();
    await details.getByRole("button", { name: "Kopiuj szczegóły" }).click();
    await details.getByText("Skopiowano.").waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(copied, /restic/);
    await page.screenshot({ path: join(SHOTS, "system-failed-backup.png"), fullPage: true });

    const outbox = page.getByRole("region", { name: "Wiadomości z formularza" });
    assert.match(await outbox.innerText(), /Czekają na wysłanie e-mailem\s+0/);
    assert.match(await page.getByRole("region", { name: "Dysk" }).innerText(), /Wolne \d+% \(.+ GB z .+ GB\)\./);
    const requests = page.getByRole("region", { name: "Odwiedziny od uruchomienia serwera" });
    assert.match(await requests.innerText(), /logowanie do panelu: obsłużone\s+\d+/);
    assert.match(
      await page.getByRole("region", { name: "Budowanie strony" }).innerText(),
      /Zbudowano (1 raz|\d+ razy); średnio .+ s, z tego zapisanie gotowych stron .+ s\./,
    );
    assert.deepEqual(page.problems, []);
  });
});

describe("Stan systemu without backups", () => {
  let plain;
  before(async () => {
    plain = await startSite(
      siteCopy((yaml) => yaml),
      { ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: PASSWORD },
    );
  });
  after(async () => plain?.stop());

  test("backups not set up are a warning saying what it means and what to do, never 'Wszystko działa'", async () => {
    const page = await openPage(browser);
    await signIn(page, plain.panel, ADMIN, PASSWORD);
    await page.getByRole("button", { name: "Stan systemu", exact: true }).click();
    const alerts = page.getByRole("region", { name: "Alerty" });
    await alerts.getByText("Kopie zapasowe nie są włączone").waitFor();
    const text = await ownersText(alerts);
    assert.doesNotMatch(text, /Wszystko działa/);
    assert.match(text, /Strona działa, ale coś wymaga uwagi/);
    assert.match(text, /wiadomości z formularza, historia zmian i obrazy/);
    assert.match(text, /Co zrobić:.*włączenie automatycznych kopii/);
    assert.doesNotMatch(text, /BACKUP_REPOSITORY/, "the setting's name is for the details");
    assert.equal(await page.locator(".system-alerts").count(), 0, "a warning is no red banner");
    await page.screenshot({ path: join(SHOTS, "system-backups-off.png"), fullPage: true });
    assert.deepEqual(page.problems, []);
  });
});
