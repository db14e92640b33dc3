// The visual editor as the owner uses it, axe clean in each state: at 1280 px a section written by
// keyboard alone (a heading, a bold phrase, a list and a link to '/cennik'), saved, public with the
// right elements and plain Markdown in the file, and the Markdown view one click away and
// remembered; at 390 px a text with facts and links shown as it will look (the facts as chips with
// their Polish names), a fact and a picture inserted at the cursor, the toolbar's Polish names.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ADMIN, PASSWORD, focused, ownerSession, saveByKeyboard } from "./owner.mjs";
import { openPage, signIn, until } from "./harness.mjs";

const session = ownerSession("visual");
const { panel, shot, clean, publicText } = session;

/** Whether the focused element shows an outline of at least 2 px. */
function focusShown(page) {
  return page.evaluate(() => {
    const style = getComputedStyle(document.activeElement);
    return style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  });
}

const waitForFocusOn = (page, label) =>
  page.waitForFunction((name) => document.activeElement?.getAttribute("aria-label") === name, label);

describe("the visual editor", () => {
  test("a section with a heading, bold words, a list and a link is written by keyboard alone, saved and public at 1280 px", async () => {
    const page = await panel({ width: 1280, height: 800 }, { visualEditor: true });
    await page.getByRole("tab", { name: "Regulamin", exact: true }).click();
    const editor = page.getByRole("tabpanel");
    await editor.getByRole("heading", { name: "Regulamin", exact: true }).waitFor();
    // The sections come once the facts' names have (the editor waits for them).
    await editor.getByRole("textbox", { name: "Treść sekcji 1" }).waitFor();
    const views = editor.getByRole("group", { name: "Widok edytora" });
    assert.equal(
      await views.getByRole("button", { name: "Widok wizualny" }).getAttribute("aria-pressed"),
      "true",
      "the visual view is the default",
    );
    assert.equal(
      await editor.locator(".editor-sections textarea").count(),
      0,
      "no Markdown text area in the visual view",
    );
    const n = (await editor.getByRole("textbox", { name: /^Treść sekcji/ }).count()) + 1;

    await editor.getByRole("button", { name: "Dodaj sekcję" }).focus();
    await page.keyboard.press("Enter");
    const area = editor.getByRole("textbox", { name: `Treść sekcji ${n}` });
    await area.waitFor();
    assert.equal(await area.getAttribute("contenteditable"), "true");
    assert.equal(await area.getAttribute("aria-multiline"), "true");

    // From the section's type, Tab reaches the toolbar (one stop), then the text.
    await editor.getByLabel(`Typ sekcji ${n}`).focus();
    await page.keyboard.press("Tab");
    assert.deepEqual(await focused(page), { tag: "BUTTON", label: "", text: "Pogrubienie" });
    assert.ok(await focusShown(page), "the focused button shows its focus");
    await page.keyboard.press("Tab");
    assert.equal((await focused(page)).label, `Treść sekcji ${n}`);
    assert.ok(await focusShown(page), "the text shows its focus");

    // A heading by its shortcut, bold by Ctrl+B, a list by its shortcut; Enter on an empty point ends the list.
    await page.keyboard.press("Control+Alt+2");
    await page.keyboard.type("Przygotowanie do wizyty");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Weź ze sobą ");
    await page.keyboard.press("Control+b");
    await page.keyboard.type("listę leków");
    await page.keyboard.press("Control+b");
    await page.keyboard.type(" i dokumenty:");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Control+Shift+8");
    await page.keyboard.type("wyniki badań");
    await page.keyboard.press("Enter");
    await page.keyboard.type("skierowanie");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Szczegóły w cenniku");
    await page.keyboard.press("Control+Shift+ArrowLeft");

    // The link from the toolbar, reached by Shift+Tab and the arrow keys.
    await page.keyboard.press("Shift+Tab");
    const toolbar = editor.getByRole("toolbar", { name: `Formatowanie sekcji ${n}` });
    assert.ok(await toolbar.evaluate((el) => el.contains(document.activeElement)), "Shift+Tab reaches the toolbar");
    await page.keyboard.press("Home");
    for (let i = 0; i < 5; i += 1) await page.keyboard.press("ArrowRight");
    assert.equal((await focused(page)).text, "Link");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Wstaw link" });
    await dialog.waitFor();
    assert.equal(await dialog.getByLabel("Tekst linku").inputValue(), "cenniku", "the selection is the link's text");
    assert.equal(await dialog.locator("input[type=radio]:checked").count(), 0, "no page is chosen for her");
    await page.keyboard.type("cennik");
    await dialog.getByText("Link poprowadzi do: Cennik (/cennik).").waitFor();
    await page.keyboard.press("Enter");
    // Enter's own event writes the link, closes the dialog and gives the focus back: a key
    // pressed at once lands after the link, never on the page behind the dialog.
    assert.equal(await dialog.count(), 0, "the dialog is gone");
    assert.equal((await focused(page)).label, `Treść sekcji ${n}`, "the focus is back in the text");
    await page.keyboard.type(".");
    // Ctrl+K inside the link is about that link: its whole text is offered; Escape leaves it as it is.
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Control+k");
    await dialog.waitFor();
    assert.equal(await dialog.getByLabel("Tekst linku").inputValue(), "cenniku", "the link's whole text");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await waitForFocusOn(page, `Treść sekcji ${n}`);

    // As it will look: the elements the site will show.
    assert.equal(await area.locator("h2").innerText(), "Przygotowanie do wizyty");
    assert.equal(await area.locator("strong").innerText(), "listę leków");
    assert.deepEqual(await area.locator("ul > li").allInnerTexts(), ["wyniki badań", "skierowanie"]);
    assert.equal(await area.locator('a[href="/cennik"]').innerText(), "cenniku");
    assert.equal(await area.locator("text=**").count(), 0, "no Markdown signs in the visual view");
    // In the middle of the screen: nothing under the save bar that stays at its bottom.
    await area.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await shot(page, "visual-section-written");
    await clean(page, "a section written in the visual editor");

    await saveByKeyboard(page);

    const markdown = [
      "## Przygotowanie do wizyty",
      "",
      "Weź ze sobą **listę leków** i dokumenty:",
      "",
      "- wyniki badań",
      "- skierowanie",
      "",
      "Szczegóły w [cenniku](/cennik).",
    ].join("\n");
    const file = readFileSync(join(session.root, "content", "pages", "regulamin.md"), "utf8");
    assert.ok(file.endsWith(`\n${markdown}\n`), `the file keeps plain Markdown:\n${file.slice(-400)}`);
    const html = await publicText("/regulamin");
    assert.match(html, /<h2[^>]*>Przygotowanie do wizyty<\/h2>/, "the heading is public");
    assert.ok(html.includes("<strong>listę leków</strong>"), "the bold words are public");
    assert.match(html, /<ul>\s*<li>wyniki badań<\/li>\s*<li>skierowanie<\/li>\s*<\/ul>/, "the list is public");
    assert.ok(html.includes('<a href="/cennik">cenniku</a>'), "the link is public");

    // The Markdown view is one press away, shows the same text, and this browser remembers it.
    await views.getByRole("button", { name: "Widok ze znakami" }).focus();
    await page.keyboard.press("Enter");
    const source = editor.getByRole("textbox", { name: `Treść sekcji ${n}` });
    assert.equal(await source.evaluate((el) => el.tagName), "TEXTAREA");
    assert.equal(await source.inputValue(), markdown);
    await page.reload();
    await page.getByRole("tab", { name: "Regulamin", exact: true }).click();
    assert.equal(
      await views.getByRole("button", { name: "Widok ze znakami" }).getAttribute("aria-pressed"),
      "true",
      "the choice is kept in this browser",
    );
    assert.equal(await source.evaluate((el) => el.tagName), "TEXTAREA");
    await views.getByRole("button", { name: "Widok wizualny" }).click();
    assert.equal(await source.getAttribute("contenteditable"), "true");
    await page.context().close();
  });

  test("a text with facts and links is shown as it will look, a fact and a picture go in at the cursor, and nothing changes unasked at 390 px", async () => {
    const page = await panel({ width: 390, height: 844 }, { visualEditor: true });
    // The facts' names come late: the text is not shown before them, so a chip never reads
    // '{{ telefon }}' first and then changes under her eyes.
    await page.route("**/api/placeholders", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.getByRole("tab", { name: "Cennik", exact: true }).click();
    const editor = page.getByRole("tabpanel");
    const area = editor.getByRole("textbox", { name: "Treść sekcji 1" });
    await area.waitFor();
    // Facts are chips with their Polish names, not '{{ … }}'; links are links.
    const phone = area.locator('[data-placeholder="telefon"]');
    await phone.first().waitFor();
    assert.equal(await phone.first().innerText(), "[telefon gabinetu]");
    assert.equal(await phone.first().getAttribute("contenteditable"), "false", "a chip is one piece, not text");
    assert.match(await area.locator('[data-placeholder="cena.diagnoza-adhd"]').first().innerText(), /^\[cena: /);
    assert.equal(await area.locator('a[href="/uslugi/diagnoza-adhd"]').innerText(), "diagnozy ADHD u dorosłych");
    assert.doesNotMatch(await area.innerText(), /\{\{|\]\(/, "no Markdown signs");
    assert.equal(await editor.getByText("Masz niezapisane zmiany.").count(), 0, "opening changes nothing");

    // Every button of the toolbar has a Polish name and says its shortcut.
    const toolbar = editor.getByRole("toolbar", { name: "Formatowanie sekcji 1" });
    assert.deepEqual(await toolbar.getByRole("button").allInnerTexts(), [
      "Pogrubienie",
      "Kursywa",
      "Śródtytuł",
      "Lista",
      "Lista numerowana",
      "Link",
      "Wstaw dane",
      "Wstaw obraz",
    ]);
    assert.equal(
      await toolbar.getByRole("button", { name: "Pogrubienie" }).getAttribute("aria-keyshortcuts"),
      "Control+B",
    );
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `nothing wider than the phone (${width} px)`);

    // A fact inserted at the end of the text by keyboard: a chip in the text, '{{ email }}' in the file.
    await area.focus();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" Pisz: ");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Home");
    for (let i = 0; i < 6; i += 1) await page.keyboard.press("ArrowRight");
    assert.equal((await focused(page)).text, "Wstaw dane");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Wstaw dane gabinetu" });
    await dialog.getByRole("button", { name: /\[e-mail gabinetu\]/ }).focus();
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "detached" });
    await waitForFocusOn(page, "Treść sekcji 1");
    await area.locator('[data-placeholder="email"]').waitFor();
    await editor.getByText("Masz niezapisane zmiany.").waitFor();

    // A picture goes in where the cursor is, shown as the picture itself.
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("End");
    assert.equal((await focused(page)).text, "Wstaw obraz");
    await page.keyboard.press("Enter");
    const picker = page.getByRole("dialog", { name: "Wstaw obraz" });
    await picker.getByLabel("Tekst alternatywny").fill("Spokojne morze");
    await picker.getByRole("button", { name: "Wstaw do sekcji" }).click();
    await picker.waitFor({ state: "detached" });
    await waitForFocusOn(page, "Treść sekcji 1");
    const picture = area.locator('img[alt="Spokojne morze"]');
    await picture.waitFor();
    assert.match(await picture.getAttribute("src"), /^\/images\//);
    assert.ok(await picture.evaluate((img) => img.complete && img.naturalWidth > 0), "the picture is shown");
    await area.scrollIntoViewIfNeeded();
    await shot(page, "visual-facts");
    await clean(page, "the visual editor on a phone");

    await editor
      .getByRole("group", { name: "Widok edytora" })
      .getByRole("button", { name: "Widok ze znakami" })
      .click();
    const source = editor.getByRole("textbox", { name: "Treść sekcji 1" });
    assert.match(await source.inputValue(), /Pisz: \{\{ email \}\}!\[Spokojne morze\]\(\/images\/[^)]+\)$/);
    const original = readFileSync(join(session.root, "content", "pages", "cennik.md"), "utf8");
    const first = original.split("\n---\n")[1].split("\n\n")[0];
    assert.ok((await source.inputValue()).startsWith(first), "the rest of the text is as the file has it");
    await page.context().close();
  });

  test("a visual editor that cannot be loaded leaves the texts with their signs, and the panel says so, at 390 px", async () => {
    const page = await openPage(session.browser, { width: 390, height: 844 }, { bypassCSP: true, visualEditor: true });
    // The editor's chunk is fetched as soon as the pages view is (this browser chose the visual view).
    await page.route("**/panel/kitParts.*", (route) => route.abort());
    await signIn(page, session.site.panel, ADMIN, PASSWORD);
    const editor = page.getByRole("tabpanel");
    await editor.getByRole("alert").filter({ hasText: "Widok wizualny się nie wczytał" }).waitFor();
    const source = editor.getByRole("textbox", { name: "Treść sekcji 1" });
    assert.equal(await source.evaluate((el) => el.tagName), "TEXTAREA", "the section is written with its signs");
    assert.equal(
      await editor.getByRole("button", { name: "Widok wizualny" }).getAttribute("aria-pressed"),
      "true",
      "the chosen view is still the visual one, for the next visit",
    );
    await clean(page, "a visual editor that did not load");
    // The site's words with bold and links are written as they will look; without the editor
    // each is a plain field with its signs.
    await page.getByRole("button", { name: "Napisy", exact: true }).click();
    await page.getByRole("heading", { name: "Napisy", level: 2 }).waitFor();
    await page.locator("span.field-label + textarea").first().waitFor();
    assert.equal(await page.locator(".ProseMirror").count(), 0);
    await page.context().close();
  });

  test("in the Markdown view a picture still goes at the end of the section's text, as Markdown", async () => {
    const page = await panel({ width: 1280, height: 800 });
    await page.getByRole("tab", { name: "Cennik", exact: true }).click();
    const editor = page.getByRole("tabpanel");
    const source = editor.getByRole("textbox", { name: "Treść sekcji 1" });
    assert.equal(await source.evaluate((el) => el.tagName), "TEXTAREA", "the tests' browsers chose the Markdown view");
    const before = await source.inputValue();
    await editor
      .getByRole("toolbar", { name: "Formatowanie sekcji 1" })
      .getByRole("button", { name: "Wstaw obraz" })
      .click();
    const picker = page.getByRole("dialog", { name: "Wstaw obraz" });
    await picker.getByLabel("Tekst alternatywny").fill("Las o poranku");
    await picker.getByRole("button", { name: "Wstaw do sekcji" }).click();
    await picker.waitFor({ state: "detached" });
    // Written when the dialog closes; the Markdown view shows it at its next render.
    await until(
      () => source.inputValue(),
      (after) => after.startsWith(`${before}\n\n![Las o poranku](/images/`),
      "the picture's Markdown at the end of the section",
    );
    await page.context().close();
  });
});
