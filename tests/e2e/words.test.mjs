// The site's own words from the panel, at 1280 and 390 px, axe clean in each state: a heading of
// the home page changed in 'Napisy' is on the public page, a crisis number whose link dials
// another number is refused with the reason, and the SPEC's own words are shown as fixed.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { VIEWPORTS, ownerSession } from "./owner.mjs";

const { panel, shot, clean, publicText } = ownerSession("words");

async function openWords(page) {
  await page.getByRole("button", { name: "Napisy", exact: true }).click();
  await page.getByRole("heading", { name: "Napisy", level: 2 }).waitFor();
}

describe("the site's own words", () => {
  for (const viewport of VIEWPORTS) {
    const width = viewport.width;

    test(`a heading of the home page is changed from the panel at ${width} px`, async () => {
      const page = await panel(viewport);
      await openWords(page);
      const heading = `Jak możemy pomóc (${width} px)`;
      await page.getByLabel("Nagłówek usług").fill(heading);
      const fixed = page.locator(".word-fixed").filter({ hasText: "Przycisk rezerwacji" }).first();
      assert.match(await fixed.innerText(), /Umów wizytę · Ten napis jest stały/);
      assert.equal(await fixed.locator("input, textarea").count(), 0, "a fixed text is no field");
      await shot(page, "words-form");
      await clean(page, "the site's words");
      await page.getByRole("button", { name: "Zapisz napisy" }).click();
      await page
        .getByText(/Zapisano i opublikowano o/)
        .first()
        .waitFor();
      const home = await publicText("/");
      assert.ok(home.includes(`<h2 id="services-title">${heading}</h2>`), "the new heading on the home page");
      await page.close();
    });

    test(`a crisis number that dials another number is refused at ${width} px`, async () => {
      const page = await panel(viewport);
      await openWords(page);
      // The text is written as it looks: its number a link, changed in the link's own dialog.
      const crisis = page.getByRole("textbox", { name: "Numery pomocy w kryzysie" });
      await crisis.getByRole("link", { name: "116 123" }).click();
      await page.keyboard.press("Control+k");
      const dialog = page.getByRole("dialog", { name: "Wstaw link" });
      assert.equal(await dialog.getByLabel("Tekst linku").inputValue(), "116 123");
      await dialog.getByLabel("albo adres spoza serwisu").fill("tel:116132");
      await dialog.getByRole("button", { name: "Wstaw link" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Zapisz napisy" }).click();
      const problem = page.locator("#word-footer_crisis-problem");
      await problem.waitFor();
      assert.match(
        await problem.innerText(),
        /numer „116 123” nie zgadza się z numerem, który wybiera link \(tel:116132\)/,
      );
      assert.equal(await crisis.getAttribute("aria-invalid"), "true");
      assert.ok((await publicText("/")).includes('href="tel:116123"'), "the site keeps the right number");
      await shot(page, "words-refused");
      await clean(page, "a refused crisis number");
      await page.close();
    });
  }
});
