// Complete routes, as a visitor in crisis and a young person read them at 1280 and 390 px:
// /pilna-pomoc gives 800 12 12 12 and the local help in Gdańsk, every number a tel: link and
// 116 123 with its hours; the minors' standards send a young person's complaint to someone
// other than the psychologist complained about; the contact form asks for the booking request;
// the terms link their previous version. axe-clean, screenshots to look at.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { violations } from "./axe.mjs";
import { launchBrowser, openPage, startSite } from "./harness.mjs";

const shots = process.env.SHOTS ?? join(tmpdir(), "harmonia-routes-shots");
mkdirSync(shots, { recursive: true });

/** Every phone number written in `main`, and whether it stands inside a tel: link. */
function numbersOf(page) {
  return page.evaluate(() => {
    const main = document.querySelector("main");
    const found = [];
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    const number =
      /(?<![\d-])(?:\d{3} \d{2} \d{2} \d{2}|\d{3} \d{2} \d{4}|\d{3} \d{3} \d{3}|\d{3} \d{3}|\d{2} \d{3} \d{2} \d{2}|112)(?![\d-])/g;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.replace(/\u00a0/g, " ").matchAll(number)) {
        const link = node.parentElement.closest("a");
        found.push({
          number: m[0],
          tel: link?.getAttribute("href")?.startsWith("tel:") ? link.getAttribute("href") : null,
        });
      }
    }
    return found;
  });
}

let site;
let browser;
before(async () => {
  site = await startSite();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  describe(`complete routes at ${viewport.width} px`, () => {
    test("/pilna-pomoc: the children's ombudsman's line, local help in Gdańsk, every number a tel: link", async () => {
      const page = await openPage(browser, viewport, { bypassCSP: true });
      await page.goto(`${site.base}/pilna-pomoc`);
      const numbers = await numbersOf(page);
      const bare = numbers.filter((n) => !n.tel);
      assert.deepEqual(bare, [], "every number is a tel: link");
      for (const [number, tel] of [
        ["800 12 12 12", "tel:800121212"],
        ["797 909 112", "tel:+48797909112"],
        ["58 347 89 30", "tel:+48583478930"],
        ["116 123", "tel:116123"],
      ]) {
        assert.ok(
          numbers.some((n) => n.number === number && n.tel === tel),
          `${number} as ${tel} in ${JSON.stringify(numbers)}`,
        );
      }
      const adults = (
        await page
          .getByRole("listitem")
          .filter({ hasText: /116\s123/ })
          .first()
          .innerText()
      ).replace(/\u00a0/g, " ");
      assert.match(adults, /całodobowo/, "116 123 says when it answers");
      const local = (await page.locator("main").innerText()).replace(/\u00a0/g, " ");
      assert.match(local, /Stan na \d{2}\.\d{2}\.\d{4}/);
      assert.match(local, /ul\. Srebrniki 17/);
      assert.match(local, /Dla dzieci i młodzieży/);
      assert.deepEqual(await violations(page, `/pilna-pomoc at ${viewport.width} px`), []);
      await page.screenshot({ path: join(shots, `pilna-pomoc-${viewport.width}.png`), fullPage: true });
      await page.context().close();
    });

    test("the young people's standards: a complaint never reaches the person complained about", async () => {
      const page = await openPage(browser, viewport, { bypassCSP: true });
      await page.goto(`${site.base}/standardy-ochrony-maloletnich`);
      const youth = (await page.locator("aside.callout").first().innerText()).replace(/\u00a0/g, " ");
      assert.match(youth, /gdy chodzi o Tomasza Lewandowskiego – powiedz o tym Magdalenie Wiśniewskiej/);
      assert.match(youth, /gdy chodzi o Magdalenę Wiśniewską – powiedz o tym Tomaszowi Lewandowskiemu/);
      assert.match(youth, /Nie wysyłaj takiej skargi na wspólny adres e-mail/);
      const bare = (await numbersOf(page)).filter((n) => !n.tel && /800 12 12 12/.test(n.number));
      assert.deepEqual(bare, [], "800 12 12 12 is a tel: link everywhere on the page");
      assert.ok((await page.locator('a[href="tel:800121212"]').count()) >= 2);
      assert.deepEqual(await violations(page, `the standards at ${viewport.width} px`), []);
      await page.context().close();
    });

    test("the terms link their previous version, which says until when it applied", async () => {
      const page = await openPage(browser, viewport, { bypassCSP: true });
      await page.goto(`${site.base}/regulamin`);
      await page.getByText("Obowiązuje od 14.12.2026", { exact: true }).waitFor();
      await page
        .locator("main")
        .getByRole("link", { name: /Regulaminu obowiązującego od 26\.02\.2025 do 13\.12\.2026/ })
        .click();
      await page.waitForURL(`${site.base}/regulamin-2025`);
      const archive = (await page.locator("main").innerText()).replace(/\u00a0/g, " ");
      assert.match(archive, /wersja archiwalna[\s\S]*Od 14\.12\.2026 obowiązuje/);
      assert.equal(await page.locator('meta[name="robots"]').getAttribute("content"), "noindex, nofollow");
      assert.deepEqual(await violations(page, `the previous terms at ${viewport.width} px`), []);
      await page.context().close();
    });

    test("the contact form asks for the booking request with a labelled, optional checkbox", async () => {
      const page = await openPage(browser, viewport, { bypassCSP: true });
      await page.goto(`${site.base}/#contact`);
      const box = page.getByRole("checkbox", { name: /żądam, by odbyła się w tym terminie/ });
      await box.waitFor();
      await page.waitForSelector('[data-island="ContactForm"][data-hydrated="true"]');
      assert.equal(await box.isChecked(), false, "not ticked for the visitor");
      await box.check();
      assert.equal(await box.isChecked(), true);
      assert.deepEqual(await violations(page, `the contact form at ${viewport.width} px`), []);
      await page.context().close();
    });
  });
}
