// The panel's writing surface, uploads and price list as the owner uses them, at 1280 and 390 px, axe clean in each state: a section written by keyboard
// alone (bold, a link to '/cennik' through the picker, saved and public), the section type a
// Polish choice, the practice's facts as labelled chips, the Markdown help; an upload that
// shows its progress and the encoding's; the price list as the public '/cennik' lays it out.
// Screenshots go to $SHOTS (or a temp dir) to be looked at.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { openPage, repoRoot, until } from "./harness.mjs";
import { VIEWPORTS, focused, ownerSession, saveByKeyboard } from "./owner.mjs";

const session = ownerSession("writing");
const { panel, shot, clean, publicText } = session;

describe("a writing surface", () => {
  for (const viewport of VIEWPORTS) {
    test(`a section is written by keyboard alone: a bold word, a link to '/cennik' from the picker, saved and public at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("tab", { name: "Regulamin", exact: true }).click();
      const editor = page.getByRole("tabpanel");
      await editor.getByRole("heading", { name: "Regulamin" }).waitFor();
      // The sections come once the facts' names have (the editor waits for them).
      await editor.getByRole("textbox", { name: "Treść sekcji 1" }).waitFor();
      const before = await editor.getByRole("textbox", { name: /^Treść sekcji/ }).count();
      const n = before + 1;

      await editor.getByRole("button", { name: "Dodaj sekcję" }).focus();
      await page.keyboard.press("Enter");
      const area = editor.getByRole("textbox", { name: `Treść sekcji ${n}` });
      await area.waitFor();
      const type = editor.getByLabel(`Typ sekcji ${n}`);
      assert.equal(await type.evaluate((el) => el.tagName), "SELECT", "the type is a choice, not a text field");
      assert.equal(await type.evaluate((el) => el.selectedOptions[0].textContent), "Tekst");
      assert.deepEqual(await type.evaluate((el) => [...el.options].map((o) => o.textContent)), [
        "Tekst",
        "Ramka wyróżniona",
        "Pytania i odpowiedzi",
      ]);

      // From the section's type, Tab reaches the toolbar (one stop), then the text.
      await type.focus();
      await page.keyboard.press("Tab");
      assert.deepEqual(await focused(page), { tag: "BUTTON", label: "", text: "Pogrubienie" });
      await page.keyboard.press("Tab");
      assert.equal((await focused(page)).label, `Treść sekcji ${n}`);
      const word = viewport.width > 600 ? "ważne" : "istotne";
      await page.keyboard.type(`Zobacz ${word}`);
      await page.keyboard.press("Control+Shift+ArrowLeft");
      await page.keyboard.press("Shift+Tab");
      assert.equal((await focused(page)).text, "Pogrubienie");
      await page.keyboard.press("Enter");
      assert.equal((await focused(page)).label, `Treść sekcji ${n}`, "back to writing");
      await page.keyboard.press("End");
      await page.keyboard.type(" informacje w cenniku");
      await page.keyboard.press("Control+Shift+ArrowLeft");
      await page.keyboard.press("Shift+Tab");
      for (let i = 0; i < 3; i += 1) await page.keyboard.press("ArrowRight");
      assert.equal((await focused(page)).text, "Link");
      await page.keyboard.press("Enter");

      const dialog = page.getByRole("dialog", { name: "Wstaw link" });
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel("Tekst linku").inputValue(), "cenniku", "the selection is the link's text");
      assert.equal((await focused(page)).tag, "INPUT", "the focus starts in the search");
      assert.equal(await dialog.locator("input[type=radio]:checked").count(), 0, "no page is chosen for her");
      await page.keyboard.press("Enter");
      await dialog.getByText("Wybierz stronę serwisu albo wpisz adres spoza serwisu.").waitFor();
      await page.keyboard.type("cennik");
      await dialog.getByText("Link poprowadzi do: Cennik (/cennik).").waitFor();
      await shot(page, "link-dialog");
      await clean(page, "the link dialog");
      // The focus stays in the dialog: Tab from its last control comes round to its first.
      for (let i = 0; i < 12; i += 1) {
        await page.keyboard.press("Tab");
        assert.ok(
          await page.evaluate(() => Boolean(document.activeElement?.closest("dialog"))),
          `Tab ${i + 1} stays in the dialog`,
        );
      }
      await dialog.getByLabel("Szukaj strony serwisu").focus();
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });
      await page.waitForFunction(
        (label) => document.activeElement?.getAttribute("aria-label") === label,
        `Treść sekcji ${n}`,
      );
      await page.keyboard.type(".");
      const text = `Zobacz **${word}** informacje w [cenniku](/cennik).`;
      assert.equal(await area.inputValue(), text);

      // Escape closes the dialog and the focus returns to the text, which is unchanged.
      await page.keyboard.press("Control+k");
      await dialog.waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await page.waitForFunction(
        (label) => document.activeElement?.getAttribute("aria-label") === label,
        `Treść sekcji ${n}`,
      );
      assert.equal(await area.inputValue(), text);

      // Ctrl+Z takes back the last toolbar edit as it does typing: the browser's own undo.
      await page.keyboard.press("Control+b");
      assert.equal(await area.inputValue(), `${text}**pogrubiony tekst**`);
      await page.keyboard.press("Control+z");
      assert.equal(await area.inputValue(), text);

      // The text area is as tall as its text: no inner scroll bar.
      // It grows when a ResizeObserver's callback says the text did.
      await until(
        () => area.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight })),
        (sizes) => sizes.scroll <= sizes.client + 1,
        "no inner scrolling",
      );
      assert.doesNotMatch(await area.evaluate((el) => getComputedStyle(el).fontFamily), /mono/i);
      await area.scrollIntoViewIfNeeded();
      await shot(page, "section-written");
      await clean(page, "a section written by keyboard");

      await saveByKeyboard(page, 8);

      const file = readFileSync(join(session.root, "content", "pages", "regulamin.md"), "utf8");
      assert.ok(file.includes(`\n${text}\n`), `the file keeps plain Markdown:\n${file.slice(-300)}`);
      const html = await publicText("/regulamin");
      assert.ok(html.includes(`<strong>${word}</strong>`), "the bold word is public");
      assert.ok(html.includes('<a href="/cennik">cenniku</a>'), "the link to the price list is public");
      await page.context().close();
    });

    test(`the facts a text names are labelled chips, one can be inserted, and the Markdown help is one click away at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("tab", { name: "Interwencja kryzysowa", exact: true }).click();
      const editor = page.getByRole("tabpanel");
      const address = editor.locator(".chip-row", { hasText: "[adres gabinetu]" });
      await address.first().waitFor();
      assert.match(await address.first().innerText(), /Gdańsk/, "the chip shows the address visitors see");
      const chips = address.first().locator("xpath=ancestor::fieldset");
      const area = chips.getByRole("textbox", { name: /^Treść sekcji/ });
      await area.focus();
      await page.keyboard.press("Control+End");
      await chips.getByRole("button", { name: "Wstaw dane", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Wstaw dane gabinetu" });
      await dialog.getByRole("button", { name: /\[telefon gabinetu\]/ }).click();
      await dialog.waitFor({ state: "detached" });
      // The placeholder goes in at the frame after the dialog closes, where the caret was.
      await until(() => area.inputValue(), /\{\{ telefon \}\}$/, "the file gets the placeholder");
      await chips.locator(".chip-row", { hasText: "[telefon gabinetu]" }).waitFor();
      await area.press("End");
      await page.keyboard.type(" {{ ulica }}");
      await chips
        .locator(".chip-unknown", { hasText: "{{ ulica }}" })
        .getByText(/nieznana nazwa danych/)
        .waitFor();
      await editor.getByText("Pomoc: znaki formatowania").click();
      await editor.getByRole("region", { name: "Znaki formatowania" }).getByText("**ważne słowo**").waitFor();
      await chips.locator(".chips").scrollIntoViewIfNeeded();
      await shot(page, "placeholder-chips");
      await clean(page, "chips and the Markdown help");
      await page.context().close();
    });
  }
});

/** A photograph no cache has seen: the site's own, with a comment segment that makes its bytes new. */
function newPhotograph(note) {
  const jpeg = readFileSync(join(repoRoot, "content", "images", "baltyk-poranek.jpg"));
  const text = Buffer.from(`zdjecie testowe ${note} ${Date.now()}`);
  const segment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, text.length + 2]), text]);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

describe("uploads that feel quick", () => {
  for (const viewport of VIEWPORTS) {
    test(`an upload shows the bytes sent, then the variants being made, and the picture is usable at once at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("button", { name: "Obrazy" }).click();
      const pictures = page.getByRole("region", { name: "Obrazy" });
      const photo = newPhotograph(viewport.width);
      const name = `zdjecie-z-telefonu-${viewport.width}`;
      await pictures.getByLabel(/^Plik/).setInputFiles({ name: `${name}.jpg`, mimeType: "image/jpeg", buffer: photo });
      await pictures.getByLabel(/^Tekst alternatywny/).fill("Morze o poranku, zdjęcie z telefonu");
      // A slow connection (about 200 kB/s up), so that the progress of the bytes can be seen.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 20,
        downloadThroughput: -1,
        uploadThroughput: 200 * 1024,
      });
      // Every state the upload's status shows, as it shows it.
      await page.evaluate(() => {
        window.seen = [];
        new MutationObserver(() => {
          const status = document.querySelector(".upload-progress");
          const bar = status?.querySelector("progress");
          const said = status && `${status.textContent}|${bar ? `${bar.value}/${bar.max}` : ""}`;
          if (said && window.seen.at(-1) !== said) window.seen.push(said);
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      await page.getByRole("button", { name: "Prześlij obraz" }).click();
      await page.getByRole("status").filter({ hasText: "Przesyłanie:" }).waitFor();
      const sending = page.getByRole("progressbar", { name: /^Przesyłanie: .* z / });
      assert.equal(await sending.count(), 1, "the bytes' progress is a labelled progress bar");
      await page.waitForFunction(() => Number(document.querySelector(".upload-progress progress")?.value) > 0);
      await shot(page, "upload-sending");
      await clean(page, "an upload on its way");
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      const usable = page.getByRole("status").filter({ hasText: "jest już na stronie i można go użyć" });
      await usable.waitFor({ timeout: 60_000 });
      const file = `${name}.jpg`;
      const served = await fetch(`${session.site.base}/images/${file}`);
      assert.equal(served.status, 200, "the picture is served at once, before its variants");
      assert.equal(Buffer.from(await served.arrayBuffer()).length, photo.length);
      assert.equal(await page.getByRole("progressbar", { name: /Przygotowywanie lżejszych wersji/ }).count(), 1);
      await shot(page, "upload-variants");
      await clean(page, "an upload's variants being made");
      await page
        .getByRole("status")
        .filter({ hasText: `Gotowe: obraz ${file} ma już lżejsze wersje` })
        .waitFor({
          timeout: 120_000,
        });
      const seen = await page.evaluate(() => window.seen);
      const partly = seen.some((said) => {
        const [, sent, total] = /^Przesyłanie: .*\|(\d+)\/(\d+)$/.exec(said) ?? [];
        return Number(sent) > 0 && Number(sent) < Number(total);
      });
      assert.ok(partly, `some of the bytes, on their way, were shown: ${seen.join(" → ")}`);
      assert.ok(
        seen.findIndex((s) => s.startsWith("Przesyłanie")) < seen.findIndex((s) => s.includes("lżejszych wersji")),
        "the bytes first, then the variants",
      );
      await pictures.getByRole("img", { name: "Morze o poranku, zdjęcie z telefonu" }).first().waitFor();
      assert.equal(
        (await fetch(`${session.site.base}/api/health`).then((r) => r.json())).images,
        0,
        "no photograph waits once the panel says it is done",
      );
      await shot(page, "upload-done");
      await page.context().close();
    });
  }
});

/** The rows of the public '/cennik' as visitors read them: name, duration, price. */
async function publicPrices(browserPage) {
  await browserPage.goto(`${session.site.base}/cennik`);
  return browserPage
    .locator(".price-list .price-row")
    .evaluateAll((rows) =>
      rows.map((r) =>
        [".price-name a", ".price-duration", ".price-amount"].map((s) => r.querySelector(s)?.textContent?.trim() ?? ""),
      ),
    );
}

describe("the price list laid out like '/cennik'", () => {
  for (const viewport of VIEWPORTS) {
    test(`'Cennik' shows the rows of '/cennik' in its order, whole, and a removed row comes back with 'Cofnij' at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("button", { name: "Cennik", exact: true }).click();
      const prices = page.getByRole("region", { name: "Cennik" });
      const lines = prices.locator(".price-preview");
      await lines.first().waitFor();
      const shown = await lines.evaluateAll((rows) =>
        rows.map((r) =>
          [".price-name strong", ".price-duration", ".price-amount"].map(
            (s) => r.querySelector(s)?.textContent?.trim() ?? "",
          ),
        ),
      );
      const visitor = await openPage(session.browser, viewport);
      assert.deepEqual(shown, await publicPrices(visitor), "each row's line is the public row, in the public order");
      await visitor.context().close();

      // Nothing is cut: names and notes whole in their fields (they wrap), and on a computer each
      // service's name whole in its choice (a phone's native choice shows the whole list when opened).
      const cut = await prices.evaluate((form, wide) => {
        const found = [];
        for (const field of form.querySelectorAll("input[type=text], textarea")) {
          if (field.scrollWidth > field.clientWidth + 1 || field.scrollHeight > field.clientHeight + 1)
            found.push(field.value);
        }
        const measure = document.createElement("canvas").getContext("2d");
        for (const select of wide ? form.querySelectorAll("select") : []) {
          const style = getComputedStyle(select);
          measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
          const text = select.selectedOptions[0]?.textContent ?? "";
          if (measure.measureText(text).width > room) found.push(text);
        }
        return found;
      }, viewport.width > 600);
      assert.deepEqual(cut, [], "no name, note or service is cut");
      await shot(page, "prices-like-public");
      await clean(page, "the price list laid out like /cennik");

      const names = prices.getByLabel("Nazwa");
      const count = await names.count();
      const third = await names.nth(2).inputValue();
      await prices.getByRole("button", { name: "Usuń pozycję 3" }).click();
      await until(() => names.count(), count - 1, "the row is removed");
      const undo = prices.getByRole("button", { name: /^Cofnij/ });
      await page.waitForFunction(() => document.activeElement?.id === "price-undo");
      await shot(page, "price-row-removed");
      await clean(page, "a removed price row");
      await undo.click();
      await until(() => names.count(), count, "the row comes back");
      await until(() => names.nth(2).inputValue(), third, "the row is back where it was");
      assert.equal(await lines.nth(2).locator("strong").textContent(), third);
      await page.context().close();
    });
  }
});
