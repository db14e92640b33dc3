// The panel within reach on a laptop (1280 px) and a phone (390 px), axe clean in each state:
// the editor starts on the first screen (on a phone the panel's header shrinks to one line),
// the editor is titled with the page's name, the save button stays on screen on long forms,
// pages with a draft are listed first, and pictures are chosen by their thumbnails.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { until } from "./harness.mjs";
import { VIEWPORTS, ownerSession } from "./owner.mjs";

const { panel, shot, clean } = ownerSession("reach");

/** Whether the element is wholly on the screen as it is now (not scrolled to). */
async function onScreen(locator) {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
  });
}

describe("the panel within reach", () => {
  for (const viewport of VIEWPORTS) {
    const width = viewport.width;

    test(`the editor starts on the first screen, titled with the page's name, at ${width} px`, async () => {
      const page = await panel(viewport);
      const editor = page.getByRole("tabpanel");
      const heading = editor.getByRole("heading", { level: 2, name: "Strona główna", exact: true });
      await heading.waitFor();
      assert.ok(await onScreen(heading), "the editor's title is on the first screen");
      assert.ok(await onScreen(page.getByLabel("Nagłówek", { exact: true })), "and its first field");
      const title = await editor.locator(".admin-editor-title").innerText();
      assert.match(
        title,
        /^Tytuł w wyszukiwarce: Psycholog Gdańsk – Gabinet Harmonia/,
        "the search title is said as such",
      );
      const views = page.getByRole("navigation", { name: "Części panelu" });
      const rows = await views.evaluate(
        (nav) => new Set([...nav.children].map((b) => b.getBoundingClientRect().top)).size,
      );
      // Every view is in sight, none off the screen's edge.
      const outside = await views.evaluate(
        (nav) =>
          [...nav.children].filter((b) => {
            const r = b.getBoundingClientRect();
            return r.left < 0 || r.right > window.innerWidth;
          }).length,
      );
      assert.equal(outside, 0, "every view's button is inside the screen");
      if (width === 390) {
        assert.ok(rows <= 4, `on a phone the views take at most four rows, not ${rows}`);
        await page.getByRole("link", { name: "Wybierz inną stronę" }).click();
        await page.getByRole("tab", { name: "Cennik", exact: true }).click();
        await editor.getByRole("heading", { level: 2, name: "Cennik", exact: true }).waitFor();
        await page.waitForFunction(() => document.getElementById("admin-tabpanel").getBoundingClientRect().top < 200);
      } else {
        assert.equal(
          await page.getByRole("link", { name: "Wybierz inną stronę" }).count(),
          0,
          "the list is beside the editor",
        );
      }
      await shot(page, "reach-editor");
      await clean(page, "the editor on the first screen");
      await page.close();
    });

    test(`the save button stays in reach on long forms at ${width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("tabpanel").getByRole("heading", { level: 2, name: "Strona główna" }).waitFor();
      const save = page.getByRole("button", { name: "Zapisz zmiany", exact: true });
      await page.getByLabel("Treść sekcji 1").focus();
      assert.ok(await onScreen(save), "'Zapisz zmiany' is on screen while the first section is written");
      await page.getByRole("button", { name: "Cennik", exact: true }).click();
      const prices = page.getByRole("button", { name: "Zapisz cennik" });
      await prices.waitFor();
      // She scrolls down to the list: its rows scroll in their box, the button stays under it.
      const rows = page.getByRole("list", { name: "Pozycje cennika" });
      await rows.evaluate((list) => list.scrollIntoView({ block: "start" }));
      await rows.evaluate((list) => list.scrollBy(0, list.scrollHeight / 2));
      assert.ok(await onScreen(prices), "'Zapisz cennik' is on screen in the middle of the list");
      await shot(page, "reach-prices");
      await clean(page, "the price list with its save bar");
      await page.close();
    });

    test(`a page with a draft is listed first and opens with its draft at ${width} px`, async () => {
      const page = await panel(viewport);
      const name = width === 390 ? "Regulamin" : "Cennik";
      await page.getByRole("tab", { name, exact: true }).click();
      const box = page.getByLabel("Treść sekcji 1");
      const typed = `Szkic zaczęty przy ${width} px.`;
      await box.fill(typed);
      // Leaving with the edit unsaved: the browser asks, she leaves; the draft stays in this browser.
      page.on("dialog", (dialog) => void dialog.accept());
      await page.reload();
      const list = page.getByRole("region", { name: "Niedokończone zmiany" });
      const link = list.getByRole("link", { name, exact: true });
      await link.waitFor();
      assert.ok(await onScreen(link), "the page with a draft is on the first screen");
      await shot(page, "reach-drafts");
      await clean(page, "the list of pages with a draft");
      await link.click();
      const editor = page.getByRole("tabpanel");
      await editor.getByRole("heading", { level: 2, name, exact: true }).waitFor();
      await editor.getByRole("button", { name: "Przywróć szkic" }).click();
      await until(() => page.getByLabel("Treść sekcji 1").inputValue(), typed, "the draft is back in the editor");
      await page.close();
    });

    test(`pictures are chosen by their thumbnails at ${width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("button", { name: "Zespół", exact: true }).click();
      await page.getByRole("region", { name: "Zespół" }).getByRole("button", { name: "Dodaj terapeutę" }).click();
      const photos = page.getByRole("group", { name: "Zdjęcie" });
      const choice = photos.getByRole("radio", { name: "las.svg", exact: true });
      await choice.check();
      const thumbnail = photos.locator("label").filter({ hasText: "las.svg" }).locator("img");
      await thumbnail.scrollIntoViewIfNeeded();
      await page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await thumbnail.elementHandle());
      assert.ok((await photos.locator("img").count()) >= 2, "every picture has its thumbnail");
      await shot(page, "reach-pictures");
      await clean(page, "the thumbnails of the team's photo");
      // An article's main picture too, from the same thumbnails.
      page.on("dialog", (dialog) => void dialog.accept()); // leaving the new profile unsaved
      await page.getByRole("button", { name: "Strony", exact: true }).click();
      await page.getByRole("tab", { name: "Pięć sposobów na radzenie sobie z lękiem", exact: true }).click();
      const details = page.locator("details.settings-details");
      if ((await details.getAttribute("open")) === null) await details.locator("summary").click();
      const main = page.getByRole("group", { name: "Obraz główny" });
      // No stand-in from another site is offered: the article asks for a picture of its own.
      await main.getByRole("radio").first().waitFor();
      assert.equal(await main.getByRole("radio", { name: "(obraz zastępczy)" }).count(), 0);
      assert.ok((await main.locator("img").count()) >= 2, "the article's picture is chosen by thumbnails");
      await clean(page, "the thumbnails of an article's main picture");
      await page.close();
    });
  }
});
