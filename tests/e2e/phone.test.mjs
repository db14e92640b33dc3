// The panel as its owner runs it from her phone and her desk (issue 46), at 390 and 1280 px:
// every view fits the screen with nothing scrolling sideways and every button within reach,
// says nothing in the words of programmers, and the first field of a page is on the first
// screen; an article is published, scheduled and withdrawn with buttons that say so; and one
// search finds any text she can edit and opens its field. Screenshots go to $SHOTS.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { namesOverBorders } from "./harness.mjs";
import { VIEWPORTS, ownerSession } from "./owner.mjs";

const session = ownerSession("phone");
const { panel, shot, clean, publicText } = session;

/** The words of programmers her screens must not show (whole words, any case), and HTTP codes. */
const FORBIDDEN = [/\bapi\b/i, /\bdist\b/i, /GIT_/, /BACKUP_/, /markdown/i, /\bya?ml\b/i, /\.ya?ml\b/i];
const CODES =
  /\b(200|201|204|301|302|303|304|307|308|400|401|403|404|405|409|413|415|422|429|500|502|503)\b(?!\s*(zł|min|znak))/;

const VIEWS = [
  "Strony",
  "Zespół",
  "Cennik",
  "Dane gabinetu",
  "Napisy",
  "Obrazy",
  "Wiadomości",
  "Bezpieczeństwo",
  "Stan systemu",
];

/** What of the screen is wider than it, or outside it: elements and buttons by their text. */
function overflow(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide =
      document.documentElement.scrollWidth > width ? [`page ${document.documentElement.scrollWidth} px`] : [];
    const out = [...document.querySelectorAll("main button, main a, main input, main select, main textarea")]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || el.closest("[hidden], .visually-hidden, .toasts")) return false;
        return r.left < -1 || r.right > width + 1;
      })
      .map((el) => `${el.tagName} ${(el.textContent || el.getAttribute("aria-label") || el.id).trim().slice(0, 40)}`);
    return [...wide, ...out];
  });
}

async function open(page, view) {
  await page
    .getByRole("navigation", { name: "Części panelu" })
    .getByRole("button", { name: view, exact: true })
    .click();
  // Every 'Ładowanie…' gone (the view's code, then its data), not only the first status.
  await page.waitForFunction(
    () => ![...document.querySelectorAll("main [role=status]")].some((el) => el.textContent.startsWith("Ładowanie")),
  );
  await page.waitForLoadState("networkidle");
}

describe("every view on a phone and a desk", () => {
  for (const viewport of VIEWPORTS) {
    test(`fits, keeps its buttons in reach and speaks her words at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      for (const view of VIEWS) {
        await open(page, view);
        assert.deepEqual(await overflow(page), [], `${view} at ${viewport.width} px`);
        assert.deepEqual(await namesOverBorders(page), [], `${view} at ${viewport.width} px`);
        const text = await page.locator("main").innerText();
        for (const word of [...FORBIDDEN, CODES]) {
          const found = text.match(word);
          assert.equal(
            found,
            null,
            `${view} at ${viewport.width} px says „${found?.[0]}”: …${text.slice(Math.max(0, (found?.index ?? 0) - 60), (found?.index ?? 0) + 40)}…`,
          );
        }
        await shot(page, `view-${view.replace(/\s+/g, "-").toLowerCase()}`);
      }
      await page.close();
    });

    test(`a page's name and first field are on the first screen at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      const editor = page.getByRole("tabpanel");
      await editor.getByRole("heading", { level: 2, name: "Strona główna" }).waitFor();
      const first = await editor.evaluate((panel) => {
        const field = panel.querySelector("input:not([type=hidden]), textarea, select, [contenteditable=true]");
        const name = panel.querySelector("h2").getBoundingClientRect();
        return {
          top: field.getBoundingClientRect().top,
          bottom: field.getBoundingClientRect().bottom,
          name: name.bottom,
        };
      });
      if (viewport.width === 1280) assert.ok(first.top < 300, `the first field starts at ${first.top} px`);
      assert.ok(
        first.name < viewport.height && first.bottom < viewport.height,
        `name ${first.name}, field ${first.bottom}`,
      );
      await shot(page, "first-screen");
      await page.close();
    });
  }
});

describe("publishing in words", () => {
  for (const viewport of VIEWPORTS) {
    test(`an article is published now, withdrawn and scheduled at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      page.on("dialog", (d) => d.accept());
      const title = `Jak wracać do równowagi po ${viewport.width} px`;
      await page.getByRole("button", { name: "Nowy artykuł" }).click();
      await page.getByLabel("Tytuł artykułu").fill(title);
      await page.getByRole("button", { name: "Utwórz artykuł" }).click();
      const editor = page.getByRole("tabpanel");
      await editor.getByRole("heading", { level: 2, name: title }).waitFor();
      const state = editor.locator(".publish-bar .status");
      assert.equal(await state.innerText(), "Szkic");
      // Without a picture it asks for one, and offers the site's own drawing.
      await editor.getByRole("button", { name: "Użyj rysunku strony" }).click();
      assert.equal(await editor.locator(".no-picture").count(), 0);
      await clean(page, "a draft article with its publishing buttons");
      await shot(page, "publish-draft");

      // What every article needs: its text, a description for search engines and its picture's text.
      await editor
        .getByLabel("Treść sekcji 1")
        .fill("Kilka sposobów, które pomagają wrócić do spokoju po trudnym dniu.");
      const details = page.locator("details.settings-details");
      if ((await details.getAttribute("open")) === null) await details.locator("summary").click();
      await editor
        .getByLabel("Opis dla wyszukiwarek")
        .fill(
          "Jak wracać do równowagi po trudnym dniu: kilka prostych sposobów, które poleca psycholog z Gdańska, na spokojny wieczór i sen.",
        );
      await editor.getByLabel("Zajawka na karcie artykułu").fill("Proste sposoby na spokojny wieczór.");
      await editor.getByLabel("Tekst alternatywny obrazu").fill("Rysunek: spokojny krajobraz");
      await editor.getByRole("button", { name: "Opublikuj teraz" }).click();
      await page.waitForFunction(() => document.querySelector(".save-message")?.textContent);
      assert.match(await page.locator(".save-message").innerText(), /opublikowano/, "the save went through");
      await state.filter({ hasText: "Opublikowany" }).waitFor();
      const href = await editor.getByRole("link", { name: "Zobacz stronę" }).getAttribute("href");
      assert.ok((await publicText(href)).includes(title), `${href} is on the site`);

      await editor.getByRole("button", { name: "Wycofaj do szkicu" }).click();
      await state.filter({ hasText: "Szkic" }).waitFor();
      assert.equal((await fetch(session.site.base + href)).status, 404);

      await editor.getByRole("button", { name: "Zaplanuj…" }).click();
      const dialog = page.getByRole("dialog", { name: "Zaplanuj publikację" });
      await clean(page, "the schedule's date and time picker");
      await shot(page, "publish-schedule");
      const box = await dialog.getByLabel("Dzień i godzina (czas polski)").boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, "the picker fits the screen");
      await dialog.getByLabel("Dzień i godzina (czas polski)").fill("2030-12-03T10:00");
      await dialog.getByRole("button", { name: "Zaplanuj" }).click();
      await state.filter({ hasText: "Zaplanowany na 3.12.2030, 10:00" }).waitFor();
      assert.equal((await fetch(session.site.base + href)).status, 404, "not before its time");
      await clean(page, "a scheduled article");
      await page.close();
    });
  }
});

describe("one search for everything she can edit", () => {
  const cases = [
    ["w atmosferze spokoju", "Dane gabinetu → Stopka → Opis gabinetu", "fact-description"],
    ["telefon zaufania dla dorosłych", "Napisy", "word-footer_crisis"],
    ["podpowiemy, od jakiej formy", "→ Uwaga", "price-0-note"],
  ];
  for (const viewport of VIEWPORTS) {
    test(`a footer text, a 'Napisy' text and a price note open at their field at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("tabpanel").getByRole("heading", { level: 2 }).waitFor();
      const search = page.getByRole("searchbox", { name: "Szukaj tekstu w całej stronie" });
      for (const [text, where, field] of cases) {
        await search.fill(text);
        const result = page.locator(".admin-search-results button").filter({ hasText: where }).first();
        await result.waitFor();
        await page.evaluate(() => window.scrollTo(0, 0));
        await clean(page, "the search's results");
        await result.click();
        await page
          .waitForFunction((id) => document.activeElement?.id === id, field, { timeout: 15_000 })
          .catch(async (e) => {
            const at = await page.evaluate(() => [location.hash, document.activeElement?.outerHTML.slice(0, 160)]);
            throw new Error(`${field} is not focused: ${at.join(" ")}`, { cause: e });
          });
        assert.deepEqual(await overflow(page), []);
      }
      await shot(page, "search-opened");
      await page.close();
    });
  }
});
