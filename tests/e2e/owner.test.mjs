// The panel as its owner uses it, at 1280 and 390 px, axe clean in each state:
// the history takes back the first save, compares and previews any version and undoes a
// restore, for a page and for the price list. Screenshots go to $SHOTS (or a temp dir)
// to be looked at.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { openPage, until } from "./harness.mjs";
import { ADMIN, PASSWORD, VIEWPORTS, ownerSession } from "./owner.mjs";

// With an analytics tag (ANALYTICS_ID), so that the cookie banner's tests have a banner: the site
// as it ships has none.
const session = ownerSession("owner", { ANALYTICS_ID: "G-7QH2KX4M1B" });
const { panel, shot, clean, publicText } = session;

async function status(page, text) {
  await page.getByRole("status").filter({ hasText: text }).first().waitFor();
}

/** Waits until the toasts are gone: what a test says outlives them is read after that. */
async function toastsGone(page) {
  await until(() => page.locator(".toast").count(), 0, "the toasts are gone");
}

describe("history that undoes anything", () => {
  const pages = { 1280: ["Regulamin", "/regulamin"], 390: ["Polityka Prywatności", "/polityka-prywatnosci"] };
  for (const viewport of VIEWPORTS) {
    test(`the first save of a page is taken back and the taking back undone at ${viewport.width} px`, async () => {
      const [title, route] = pages[viewport.width];
      const page = await panel(viewport);
      await page.getByRole("tab", { name: title, exact: true }).click();
      const editor = page.getByRole("tabpanel");
      await editor.getByRole("heading", { name: title, exact: true }).waitFor();
      const box = page.getByLabel("Treść sekcji 1");
      const original = await box.inputValue();
      const typed = `Nowy wstęp zapisany przy ${viewport.width} px.`;
      await box.fill(typed);
      await page.getByRole("button", { name: "Zapisz zmiany" }).click();
      await status(page, "Zmiany zostały zapisane.");
      assert.ok((await publicText(route)).includes(typed));

      await page.getByRole("button", { name: "Historia zmian" }).click();
      const versions = editor.locator("ol.history > li");
      await versions.nth(1).waitFor();
      await until(() => versions.count(), 2, "the save and the version before it");
      assert.match(await versions.nth(0).innerText(), /obecna wersja/);
      // Each version says what it changed, in the words of the form, never as a file's keys.
      assert.match(await versions.nth(0).innerText(), / · Treść( \(akapit \d+\))? · /);
      const before = versions.nth(1);
      assert.match(await before.innerText(), /^Wersja sprzed pierwszej zmiany w panelu/);

      await before.getByRole("button", { name: /Porównaj z obecną/ }).click();
      await before.locator(".word-diff ins").first().waitFor();
      assert.ok((await before.locator(".word-diff ins").allInnerTexts()).join("").includes("Nowy wstęp"));
      assert.ok((await before.locator(".word-diff del").count()) > 0, "what the save took away is shown");
      assert.deepEqual(
        await before.locator(".word-diff-label").allInnerTexts(),
        ["Treść"],
        "only what differs, by its label",
      );
      await before.locator(".word-diff").scrollIntoViewIfNeeded();
      await shot(page, "history-compare");
      await clean(page, "history with a comparison");

      const [preview] = await Promise.all([
        page.context().waitForEvent("page"),
        before.getByRole("link", { name: /Podgląd/ }).click(),
      ]);
      await preview.waitForLoadState();
      const shown = await preview.locator("main").innerText();
      assert.ok(!shown.includes(typed), "the preview shows the version before the save");
      await shot(preview, "history-preview");
      await preview.close();

      await before.getByRole("button", { name: /Przywróć tę wersję/ }).click();
      await status(page, "Przywrócono wybraną wersję.");
      await page.getByRole("button", { name: "Cofnij przywrócenie" }).waitFor();
      // The list is read again after the restore: wait for its new first entry.
      await page.waitForFunction(() =>
        document.querySelector("ol.history > li")?.textContent?.includes("Przywrócono wersję"),
      );
      assert.match(
        await versions.nth(0).innerText(),
        / · Przywrócono wersję sprzed zmiany z \d\d\.\d\d\.\d{4} \d\d:\d\d · /,
      );
      // The panel loads a restored text just after its notice.
      await until(() => box.inputValue(), original, "the editor shows the text before the first save");
      assert.ok(!(await publicText(route)).includes(typed), "the site is back to its first text");
      await shot(page, "history-restored");
      await clean(page, "history after a restore");

      await page.getByRole("button", { name: "Cofnij przywrócenie" }).click();
      await status(page, "Cofnięto przywrócenie.");
      await page.getByRole("button", { name: "Cofnij przywrócenie" }).waitFor({ state: "hidden" });
      await page.waitForFunction(() =>
        document.querySelector("ol.history > li")?.textContent?.includes("Cofnięto przywrócenie"),
      );
      await until(() => box.inputValue(), typed, "undoing the restore brings the saved text back");
      assert.ok((await publicText(route)).includes(typed));
      await page.context().close();
    });
  }

  test("the price list has a history: a changed price is compared and taken back", async () => {
    for (const viewport of VIEWPORTS) {
      const page = await panel(viewport);
      await page.getByRole("button", { name: "Cennik", exact: true }).click();
      await page.getByRole("heading", { name: "Cennik" }).waitFor();
      const price = page.getByLabel("Cena (zł, 0 = bezpłatnie)").nth(1);
      const before = await price.inputValue();
      const changed = String(Number(before) + viewport.width / 10);
      await price.fill(changed);
      await page.getByRole("button", { name: "Zapisz cennik" }).click();
      await status(page, "Zmiany zostały zapisane.");
      assert.ok((await publicText("/cennik")).includes(`${changed} zł`));
      await page.getByRole("button", { name: "Historia zmian" }).click();
      const newest = page.locator("ol.history > li").first();
      await newest.waitFor();
      assert.match(await newest.innerText(), new RegExp(` · Konsultacja psychologiczna ${before} → ${changed} zł · `));
      const older = page.locator("ol.history > li").nth(1);
      await older.getByRole("button", { name: /Porównaj z obecną/ }).click();
      await older.locator(".word-diff ins", { hasText: changed }).waitFor();
      await older.locator(".word-diff del", { hasText: before }).waitFor();
      assert.deepEqual(await older.locator(".word-diff-label").allInnerTexts(), ["Konsultacja psychologiczna"]);
      await older.scrollIntoViewIfNeeded();
      await shot(page, "prices-history");
      await clean(page, "price list history");
      await older.getByRole("button", { name: /Przywróć tę wersję/ }).click();
      await status(page, "Przywrócono wybraną wersję.");
      await until(() => price.inputValue(), before, "the form shows the restored price");
      assert.ok(!(await publicText("/cennik")).includes(`${changed} zł`));
      await page.context().close();
    }
  });
});

describe("never lose typing", () => {
  for (const viewport of VIEWPORTS) {
    test(`the price list keeps a draft across views and reloads at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      const asked = [];
      page.on("dialog", (d) => {
        asked.push(d.message());
        void (asked.length === 1 ? d.dismiss() : d.accept());
      });
      await page.getByRole("button", { name: "Cennik", exact: true }).click();
      const name = page.getByLabel("Nazwa").first();
      const typed = `Konsultacja wstępna (${viewport.width})`;
      await name.fill(typed);
      await page.getByRole("button", { name: "Dane gabinetu", exact: true }).click();
      assert.equal(asked.length, 1, "asks before leaving the form");
      assert.match(asked[0], /niezapisane zmiany/);
      assert.equal(await name.inputValue(), typed, "staying keeps the edit");
      await page.getByRole("button", { name: "Dane gabinetu", exact: true }).click();
      await page.getByRole("heading", { name: "Dane gabinetu" }).waitFor();
      await page.getByRole("button", { name: "Cennik", exact: true }).click();
      await page.getByText("Masz niezapisany szkic cennika").waitFor();
      await shot(page, "prices-draft");
      await clean(page, "price list with a draft offered");
      await page.getByRole("button", { name: "Przywróć szkic" }).click();
      await until(() => name.inputValue(), typed, "the draft comes back");
      await page.reload();
      await page.getByRole("button", { name: "Cennik", exact: true }).click();
      await page.getByRole("button", { name: "Odrzuć szkic" }).click();
      await until(
        () => name.inputValue(),
        (value) => value !== typed,
        "a discarded draft is gone",
      );
      await page.reload();
      await page.getByRole("button", { name: "Cennik", exact: true }).click();
      await page.getByRole("heading", { name: "Cennik" }).waitFor();
      await until(() => page.getByText("Masz niezapisany szkic cennika").count(), 0, "no draft is offered");
      await page.context().close();
    });

    test(`an expired session keeps the facts and signs in again in place at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("button", { name: "Dane gabinetu", exact: true }).click();
      const street = page.getByLabel("Ulica i numer");
      const typed = `ul. Grunwaldzka ${viewport.width}`;
      await street.fill(typed);
      await page.context().clearCookies();
      await page.getByRole("button", { name: "Zapisz dane gabinetu" }).click();
      const dialog = page.getByRole("dialog", { name: "Zaloguj się ponownie" });
      await dialog.waitFor();
      await until(
        () => dialog.evaluate((d) => d.contains(document.activeElement)),
        true,
        "focus moves into the dialog",
      );
      await page.locator(".save-message", { hasText: "Sesja wygasła" }).waitFor();
      await shot(page, "session-expired");
      await clean(page, "sign in again");
      await dialog.getByLabel("E-mail").fill(ADMIN);
      await dialog.getByLabel("Hasło").fill(PASSWORD);
      await dialog.getByRole("button", { name: "Zaloguj się" }).click();
      await dialog.waitFor({ state: "hidden" });
      await until(() => street.inputValue(), typed, "the edit is still there");
      await page.getByRole("button", { name: "Zapisz dane gabinetu" }).click();
      await page.locator(".save-message", { hasText: "Zapisano i opublikowano" }).waitFor();
      assert.ok((await publicText("/kontakt")).includes(typed) || (await publicText("/")).includes(typed));
      await shot(page, "facts-saved");
      await page.context().close();
    });
  }
});

describe("messages where the problem is", () => {
  for (const viewport of VIEWPORTS) {
    test(`a refused price row is shown, marked and focused, and the message stays at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("button", { name: "Cennik", exact: true }).click();
      await page.getByLabel("Czas trwania").nth(2).fill("");
      await page.getByRole("button", { name: "Zapisz cennik" }).click();
      const lasting = page.locator(".save-message", { hasText: "Pozycja 3, czas trwania" });
      await lasting.waitFor();
      const row = page.locator("li.price-edit").nth(2);
      await row.locator(".field-problem", { hasText: "Pozycja 3, czas trwania" }).waitFor();
      assert.match(await row.getAttribute("class"), /has-problem/);
      // The row is marked, then its field focused and scrolled into view.
      await until(
        () => page.evaluate(() => document.activeElement?.id),
        "price-2-duration",
        "the named field has the focus",
      );
      await until(
        () => page.locator("#price-2-duration").boundingBox(),
        (box) => box && box.y >= 0 && box.y + box.height <= viewport.height,
        "and is in view",
      );
      await until(() => page.locator("#price-2-duration").getAttribute("aria-invalid"), "true", "and marked invalid");
      await shot(page, "price-problem");
      await clean(page, "a refused price row");
      await toastsGone(page);
      assert.ok(await lasting.isVisible(), "the message beside the button outlives the toast");
      await page.context().close();
    });

    test(`two editors of one page choose between both texts side by side at ${viewport.width} px`, async () => {
      // Pages whose first section no style rule needs (the crisis page's numbers must stay).
      const title = viewport.width === 1280 ? "Usługi" : "Blog";
      const route = viewport.width === 1280 ? "/uslugi" : "/blog";
      const mine = await panel(viewport);
      const other = await panel(viewport);
      for (const page of [mine, other]) {
        await page.getByRole("tab", { name: title, exact: true }).click();
        await page.getByRole("tabpanel").getByRole("heading", { name: title, exact: true }).waitFor();
      }
      await other.getByLabel("Treść sekcji 1").fill("Tekst zapisany przez drugą osobę.");
      await other.getByRole("button", { name: "Zapisz zmiany" }).click();
      await status(other, "Zmiany zostały zapisane.");
      await mine.getByLabel("Treść sekcji 1").fill("Mój tekst, pisany równolegle.");
      await mine.getByRole("button", { name: "Zapisz zmiany" }).click();
      const conflict = mine.getByRole("region", { name: "Wersja zapisana w międzyczasie" });
      await conflict.getByText("Tekst zapisany przez drugą osobę.").waitFor();
      await mine
        .getByRole("region", { name: "Twoja wersja (niezapisana)" })
        .getByText("Mój tekst, pisany równolegle.")
        .waitFor();
      await mine.getByRole("heading", { name: "Ktoś zapisał tę stronę w międzyczasie" }).scrollIntoViewIfNeeded();
      await shot(mine, "conflict");
      await clean(mine, "two versions side by side");
      if (viewport.width === 1280) {
        await mine.getByRole("button", { name: "Zapisz moją wersję" }).click();
        await status(mine, "Zmiany zostały zapisane.");
        assert.ok((await publicText(route)).includes("Mój tekst, pisany równolegle."));
      } else {
        await mine.getByRole("button", { name: "Weź wersję zapisaną w międzyczasie" }).click();
        await until(
          () => mine.getByLabel("Treść sekcji 1").inputValue(),
          "Tekst zapisany przez drugą osobę.",
          "the editor takes the version saved meanwhile",
        );
        assert.ok((await publicText(route)).includes("Tekst zapisany przez drugą osobę."));
      }
      await mine.getByRole("heading", { name: "Ktoś zapisał tę stronę w międzyczasie" }).waitFor({ state: "hidden" });
      await mine.context().close();
      await other.context().close();
    });
  }
});

describe("visitor details", () => {
  const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  /**
   * Whether the call control shown ('Zadzwoń do gabinetu', or 'Telefony pomocy' outside the
   * hours) lies over any link, button or field of the page now: what is painted right under it
   * is its own band (a phone's bar at the bottom, the header's strip on a wide screen), which
   * the page makes room for, and never a control.
   */
  const callCovers = (page) =>
    page.evaluate(() => {
      const call = document.querySelector(".call [data-call]:not([hidden])");
      if (!call) return "no call control";
      const r = call.getBoundingClientRect();
      const points = [
        [r.left + r.width / 2, r.top + r.height / 2],
        [r.left + 2, r.top + 2],
        [r.right - 2, r.top + 2],
        [r.left + 2, r.bottom - 2],
        [r.right - 2, r.bottom - 2],
      ];
      for (const [x, y] of points) {
        const under = document.elementsFromPoint(x, y).find((el) => !call.contains(el));
        const control = under?.closest(".call")
          ? null
          : under?.closest("a, button, input, select, textarea, label, summary");
        if (control)
          return `${control.tagName} ${control.textContent.trim().slice(0, 40)} at ${Math.round(window.scrollY)}`;
      }
      return null;
    });

  for (const viewport of VIEWPORTS) {
    test(`the cookie banner takes the focus and covers neither the hero's buttons nor focus at ${viewport.width} px`, async () => {
      const page = await openPage(session.browser, viewport, { askConsent: true, bypassCSP: true });
      await page.goto(`${session.site.base}/`);
      const banner = page.getByRole("dialog", { name: "Pliki cookies" });
      await banner.waitFor();
      await page.waitForFunction(() => document.activeElement?.id === "consent");
      await page.keyboard.press("Tab");
      await until(
        () => banner.evaluate((b) => b.contains(document.activeElement)),
        true,
        "Tab stays in the banner first",
      );
      const box = await banner.boundingBox();
      const actions = await page.locator(".hero .actions a").all();
      assert.equal(actions.length, 2, "'Umów wizytę' and 'Napisz do nas'");
      for (const action of actions) {
        await action.focus();
        const at = await action.boundingBox();
        assert.ok(!overlap(box, at), `${await action.innerText()} is not under the banner`);
      }
      // A bottom sheet (above a phone's call bar, at the bottom right of a wide screen): the page
      // is padded by its height and focus scrolls clear of it.
      const room = () =>
        page.evaluate(() => ({
          scroll: parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom),
          bottom: parseFloat(getComputedStyle(document.body).paddingBottom),
          bar: document.querySelector(".call").getBoundingClientRect(),
        }));
      // The room is made once the banner's height is measured (a ResizeObserver's callback).
      await until(room, (open) => open.bottom >= box.height, "the page is padded by the banner's height");
      await until(room, (open) => open.scroll >= box.height, "focus scrolls clear of the banner");
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, "banner");
      await clean(page, "the cookie banner");
      await banner.getByRole("button", { name: "Odrzucam" }).click();
      // What stays is only the room of a phone's call bar.
      await until(
        room,
        (closed) => closed.bottom === (viewport.width <= 860 ? Math.round(closed.bar.height) : 0),
        "the banner's room is given back",
      );
      await page.context().close();
    });

    test(`the contact form keeps its thanks and 'Zadzwoń' never covers a control at ${viewport.width} px`, async () => {
      const page = await openPage(session.browser, viewport, { bypassCSP: true });
      await page.goto(`${session.site.base}/#contact`);
      await page.waitForSelector('[data-island="ContactForm"][data-hydrated="true"]');
      await page.getByLabel("Imię", { exact: true }).fill("Anna Kowalska");
      await page.getByLabel("E-mail").fill("anna@example.pl");
      await page.getByLabel("Wiadomość").fill("Dzień dobry, chciałabym umówić konsultację.");
      await page.locator(".contact-form button[type=submit]").click();
      await page.getByRole("status").filter({ hasText: "Wiadomość wysłana!" }).waitFor();
      const thanks = page.locator(".contact-form .form-notice-success");
      await thanks.waitFor();
      await until(() => thanks.evaluate((p) => p === document.activeElement), true, "the thanks take the focus");
      await shot(page, "contact-sent");
      await clean(page, "the contact form after sending");
      await toastsGone(page);
      assert.ok(await thanks.isVisible(), "the thanks outlive the toast");
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      const covered = [];
      let shown = 0;
      for (let y = 0; y < height; y += 97) {
        await page.evaluate((to) => window.scrollTo(0, to), y);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const found = await callCovers(page);
        if (found) covered.push(found);
        if (await page.locator(".call [data-call]:not([hidden])").isVisible()) shown += 1;
      }
      assert.deepEqual(covered, [], "'Zadzwoń' covers no control at any scroll position");
      assert.ok(shown > height / 97 / 3, `and is there where it covers only text (${shown} positions)`);
      await page.locator(".contact-form button[type=submit]").scrollIntoViewIfNeeded();
      await shot(page, "contact-call");
      await page.context().close();
    });
  }
});

describe("dates, prices and names as people use them", () => {
  for (const viewport of VIEWPORTS) {
    test(`the panel opens on 'Strona główna', and a phone shows the editor of a tapped page at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      const home = page.getByRole("tab", { name: "Strona główna" });
      assert.equal(await home.getAttribute("aria-selected"), "true", "the panel opens on the home page");
      assert.equal(await page.getByRole("tab", { name: "Konsultacje dla par", exact: true }).count(), 1, "short names");
      assert.equal(await page.getByRole("tab", { name: "Panel Administracyjny" }).count(), 0, "the panel's own page");
      assert.equal(await page.getByRole("tab", { name: "Wejście z reklam (/m1)" }).count(), 1, "/m1 said what it is");
      await page.getByRole("tab", { name: "Pilna pomoc", exact: true }).click();
      const editor = page.getByRole("tabpanel");
      await editor.getByRole("heading", { name: "Pilna pomoc", exact: true }).waitFor();
      // The panel scrolls to the editor on the next frame.
      await until(
        () => editor.boundingBox(),
        (box) => box.y < viewport.height,
        "the editor is in view after a tap",
      );
      await shot(page, "tabs");
      await clean(page, "the panel on its first page");
      await page.context().close();
    });

    test(`a notice's dates are typed as DD.MM.RRRR or picked, and a removed price row comes back at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      page.on("dialog", (d) => d.accept());
      await page.getByRole("button", { name: "Dane gabinetu", exact: true }).click();
      await page.getByLabel(/Pokazuj komunikat/).check();
      await page.getByLabel("Treść komunikatu").fill(`Przerwa świąteczna (${viewport.width}).`);
      const year = new Date().getFullYear() + 1;
      await page.locator("#notice-from").fill(`1.1.${year - 1}`);
      await page.getByLabel("Do: wybierz z kalendarza").fill(`${year}-12-27`);
      await until(() => page.locator("#notice-until").inputValue(), `27.12.${year}`, "the picked day, as typed");
      await shot(page, "notice-dates");
      await clean(page, "dates of the notice");
      await page.getByRole("button", { name: "Zapisz dane gabinetu" }).click();
      await page.locator(".save-message", { hasText: "Zapisano i opublikowano" }).waitFor();
      assert.ok((await publicText("/")).includes(`Przerwa świąteczna (${viewport.width}).`), "the notice is shown now");

      await page.getByRole("button", { name: "Cennik", exact: true }).click();
      const names = page.getByLabel("Nazwa");
      await names.first().waitFor();
      const count = await names.count();
      const second = await names.nth(1).inputValue();
      const shown = await names.nth(1).evaluate((input) => input.scrollWidth <= input.clientWidth);
      assert.ok(shown, `the whole name '${second}' fits its field`);
      await page.getByRole("button", { name: "Usuń pozycję 2" }).click();
      await until(() => names.count(), count - 1, "the row is removed");
      await page.getByText(`Usunięto pozycję 2: „${second}”`).waitFor();
      await page.waitForFunction(() => document.activeElement?.id === "price-undo");
      await shot(page, "price-removed");
      await clean(page, "a removed price row");
      await page.getByRole("button", { name: "Cofnij usunięcie" }).click();
      await until(() => names.count(), count, "the row comes back");
      await until(() => names.nth(1).inputValue(), second, "the row is back where it was");
      await page.context().close();
    });
  }
});
