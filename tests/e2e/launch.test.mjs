// Going live, as the owner meets it at 1280 and 390 px: a production server (PUBLIC_ORIGIN with
// https://) shows visitors 'Strona w przygotowaniu' while the practice's facts are example data;
// the panel's first screen lists them with what else going live needs, leads to 'Dane gabinetu',
// and the save that confirms the last fact publishes the site. axe-clean, screenshots to look at.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { violations } from "./axe.mjs";
import { launchBrowser, openPage, signIn, siteCopy, startSite, waitFor } from "./harness.mjs";

const ADMIN = "magda@gabinet-harmonia.pl";
const PASSWORD = "hasło właścicielki do testów";
const shots = process.env.SHOTS ?? join(tmpdir(), "harmonia-launch-shots");
mkdirSync(shots, { recursive: true });

/** The facts only site.yaml sets are the practice's own in this copy: the panel confirms the rest. */
const panelFactsOnly = (yaml) =>
  yaml.replace(
    /^example_data: \[.*\]$/m,
    "example_data: [legal_name, nip, regon, registered_address, address, phone, email, social, booking]",
  );

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  describe(`going live at ${viewport.width} px`, () => {
    let site;
    let browser;
    before(async () => {
      site = await startSite(siteCopy(panelFactsOnly), {
        ADMIN_EMAIL: ADMIN,
        ADMIN_PASSWORD: PASSWORD,
        PUBLIC_ORIGIN: "https://gabinet.example.pl",
      });
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await site?.stop();
    });

    test("visitors wait, the owner confirms the facts from the first screen, and the site goes live", async () => {
      const held = await fetch(`${site.base}/`);
      assert.equal(held.status, 503);
      const text = await held.text();
      assert.match(text, /Strona w przygotowaniu/);
      assert.ok(!text.includes("Grunwaldzka") && !text.includes("5842738192"), "no example fact reaches visitors");

      const page = await openPage(browser, viewport, { bypassCSP: true });
      await signIn(page, site.panel, ADMIN, PASSWORD);
      const list = page.getByTestId("launch-checklist");
      await list.getByRole("heading", { name: "Przed publikacją strony" }).waitFor();
      await list.getByRole("alert").filter({ hasText: "Strona nie jest opublikowana" }).waitFor();
      // On the first screen the steps are folded under one line, the way to the facts beside it:
      // the page tabs come right after, not a phone's several screens down.
      assert.equal(await list.locator(".launch-steps").isVisible(), false, "the steps start folded");
      assert.ok(await list.getByRole("button", { name: "Przejdź do danych gabinetu" }).isVisible());
      const top = (await list.boundingBox())?.y ?? 0;
      const tabs = (await page.locator(".admin-side").getByRole("tab").first().boundingBox())?.y ?? Infinity;
      await page.screenshot({ path: join(shots, `launch-folded-${viewport.width}.png`) });
      assert.ok(tabs - top < viewport.height, `the page tabs ${tabs - top} px under the list's top`);
      await list.getByText(/^Lista kroków \(zostało: 5 zadań\)$/).click();
      const steps = await list.innerText();
      for (const expected of [
        /Dane gabinetu potwierdzone: do zrobienia/,
        /NIP/,
        /telefon/,
        /Poczta wychodząca: do zrobienia/,
        /Kopie zapasowe: do zrobienia/,
        /Drugi składnik logowania: do zrobienia/,
        /Szyfrowane połączenie \(HTTPS\): do zrobienia/,
      ]) {
        assert.match(steps, expected);
      }
      // The facts she confirms come first; the folded details for whoever helps her after them,
      // so the list never reads as the inside of 'Szczegóły dla informatyka'.
      const facts = list.locator(".launch-todo").filter({ hasText: "Dane gabinetu potwierdzone" });
      const order = await facts.evaluate((step) => [...step.children].map((el) => el.tagName.toLowerCase()));
      assert.ok(order.includes("details") && order.indexOf("ul") < order.indexOf("details"), order.join(" "));
      assert.deepEqual(await violations(page, `the go-live checklist at ${viewport.width} px`), []);
      await page.screenshot({ path: join(shots, `launch-held-${viewport.width}.png`) });

      await list.getByRole("button", { name: "Przejdź do danych gabinetu" }).click();
      await page.getByRole("heading", { name: "Dane gabinetu" }).waitFor();
      const confirmations = page.getByRole("checkbox", { name: /^Potwierdzam:/ });
      assert.equal(await confirmations.count(), 9);
      for (const box of (await confirmations.all()).slice(1)) await box.check();
      await page.getByRole("button", { name: "Zapisz dane gabinetu" }).click();
      await page.locator(".save-message", { hasText: "nie jest jeszcze opublikowana" }).waitFor();
      assert.equal((await fetch(`${site.base}/`)).status, 503, "one fact left: still held");

      await confirmations.first().check();
      await page.getByRole("button", { name: "Zapisz dane gabinetu" }).click();
      await page.locator(".save-message", { hasText: "Zapisano i opublikowano" }).waitFor();
      await waitFor(async () => (await fetch(`${site.base}/`)).status === 200, "the site goes live");
      const home = await (await fetch(`${site.base}/`)).text();
      assert.match(home, /<h1/);

      await page.getByRole("button", { name: "Strony" }).click();
      await list.getByRole("heading", { name: "Przed publikacją strony" }).waitFor();
      await list.getByText(/^Lista kroków/).click();
      const after = await list.innerText();
      assert.match(after, /Dane gabinetu potwierdzone: gotowe/);
      assert.match(after, /Strona jest opublikowana/);
      assert.equal(await list.getByRole("alert").count(), 0);
      await page.getByRole("button", { name: "Stan systemu" }).click();
      await page
        .getByTestId("launch-checklist")
        .getByText("Poczta wychodząca: do zrobienia", { exact: false })
        .waitFor();
      await page.screenshot({ path: join(shots, `launch-live-${viewport.width}.png`) });
      await page.context().close();
    });
  });
}
