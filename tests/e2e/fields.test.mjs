// Every text a visitor reads is editable in the panel (issue 22, item 4), as the owner uses
// it at 1280 and 390 px, axe clean: the home page's headline and a service's button label
// as labelled fields, a refused empty field said beside it. Screenshots go to $SHOTS (or a
// temp dir) to be looked at.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { VIEWPORTS, ownerSession } from "./owner.mjs";

const { panel, shot, clean, publicText } = ownerSession("fields");

async function saved(page) {
  await page.getByText(/Zapisano i opublikowano o/).waitFor();
}

describe("the visible texts of pages and services", () => {
  for (const viewport of VIEWPORTS) {
    test(`the home headline is edited and shown on / at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      const editor = page.getByRole("tabpanel");
      await editor.getByRole("group", { name: "Teksty na stronie" }).waitFor();
      const headline = editor.getByLabel("Nagłówek", { exact: true });
      const shown = /<h1>([^<]*)<\/h1>/.exec(await publicText("/"))?.[1];
      assert.equal(await headline.inputValue(), shown, "the field holds the headline visitors see");
      assert.match(await editor.getByLabel(/^Zachęta do bezpłatnej konsultacji/).inputValue(), /bezpłatnej/);
      const text = `Twoja droga do spokoju (${viewport.width})`;
      await headline.fill(text);
      await headline.scrollIntoViewIfNeeded();
      await shot(page, "home-texts");
      await clean(page, "the home page's texts");
      await editor.getByRole("button", { name: "Zapisz zmiany" }).click();
      await saved(page);
      assert.match(await publicText("/"), new RegExp(`<h1>${text.replace(/[()]/g, "\\$&")}</h1>`));
      await page.close();
    });

    test(`a service's button label is edited, and an empty one refused beside it, at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("tab", { name: "Terapia par", exact: true }).click();
      const editor = page.getByRole("tabpanel");
      const label = editor.getByLabel("Napis na przycisku rezerwacji");
      assert.ok((await publicText("/uslugi/terapia-par")).includes(await label.inputValue()));
      await label.fill("");
      await editor.getByRole("button", { name: "Zapisz zmiany" }).click();
      const problem = editor.locator(".page-texts .field-problem");
      await problem.waitFor();
      assert.equal(await problem.textContent(), "Napis na przycisku rezerwacji: pole nie może być puste.");
      assert.equal(await label.getAttribute("aria-invalid"), "true");
      assert.equal(await page.evaluate(() => document.activeElement?.id), await label.getAttribute("id"));
      await shot(page, "service-texts-refused");
      await clean(page, "a refused service text");
      const text = `Umów się we dwoje ${viewport.width}`;
      await label.fill(text);
      await editor.getByRole("button", { name: "Zapisz zmiany" }).click();
      await saved(page);
      assert.equal(await problem.count(), 0);
      assert.match(await publicText("/uslugi/terapia-par"), new RegExp(text));
      await page.close();
    });
  }
});
