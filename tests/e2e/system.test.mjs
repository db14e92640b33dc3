// 'Stan systemu' in a real browser: a backup repository that cannot be used raises an alert
// that the panel shows above every view, and the view itself shows the alert, the backups'
// last error, the outbox and the requests counted since the start, in Polish.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launchBrowser, openPage, signIn, siteCopy, startSite } from "./harness.mjs";

const ADMIN = "magda@gabinet-harmonia.pl";
const PASSWORD = "hasło panelu do testów";

function resticInstalled() {
  try {
    execFileSync("restic", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

let site;
let browser;
let scratch;
before(async () => {
  if (!resticInstalled()) return;
  scratch = mkdtempSync(join(tmpdir(), "harmonia-system-"));
  // A file where the repository should be: every backup fails.
  const repository = join(scratch, "repo");
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
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("Stan systemu", { skip: !resticInstalled() && "restic is not installed" }, () => {
  test("a failed backup shows above every view and in 'Stan systemu' with the server's figures", async () => {
    const page = await openPage(browser, [site.panel, site.base]);
    await signIn(page, site.panel, ADMIN, PASSWORD);
    const banner = page.locator(".system-alerts");
    await banner.getByText("Kopia zapasowa nie powiodła się.").waitFor({ timeout: 45_000 });
    await page.getByRole("button", { name: "Wiadomości" }).click();
    assert.equal(await banner.count(), 1, "above the inbox too");

    await banner.getByRole("button", { name: "Zobacz stan systemu" }).click();
    assert.equal(
      await page.getByRole("button", { name: "Stan systemu", exact: true }).getAttribute("aria-pressed"),
      "true",
    );
    assert.equal(await banner.count(), 0, "the view itself lists the alerts");
    const alerts = page.getByRole("region", { name: "Alerty" });
    assert.match(
      await alerts.innerText(),
      /Kopia zapasowa nie powiodła się \(od .+\)\. Ostatnia próba zakończyła się błędem: .*restic init failed/,
    );
    const backups = page.getByRole("region", { name: "Kopie zapasowe" });
    assert.match(await backups.innerText(), /Kopia co\s+1 godz\./);
    assert.match(await backups.innerText(), /Ostatnia udana kopia\s+jeszcze żadnej/);
    assert.match(await backups.innerText(), /Ostatni błąd/);
    const outbox = page.getByRole("region", { name: "Wiadomości z formularza" });
    assert.match(await outbox.innerText(), /Czekają na wysłanie e-mailem\s+0/);
    assert.match(await page.getByRole("region", { name: "Dysk" }).innerText(), /Wolne \d+% \(.+ GB z .+ GB\)\./);
    const requests = page.getByRole("region", { name: "Odwiedziny od uruchomienia serwera" });
    assert.match(await requests.innerText(), /logowanie do panelu: obsłużone\s+\d+/);
    assert.match(
      await page.getByRole("region", { name: "Budowanie strony" }).innerText(),
      /Zbudowano \d+ razy; średnio .+ s, z tego zapisanie gotowych stron .+ s\./,
    );
  });
});
