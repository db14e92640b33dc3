// The page editor as its owner uses it from her phone and her desk (the rest of issue 46), at 390
// and 1280 px, axe clean: every section of a long page named in 'Sekcje tej strony' and reached
// from there, the editing column at the screen's width; no keyboard shortcuts told on a touch
// screen; a save's message never over the save button in any view; the cursor in the field a save
// refused, also in 'Potwierdź, że to Ty' and in 'Dane prawne'; and pictures sent, dropped and
// given their focal point from the picture box of an article; a price's pages as links across its
// row, and 'Usuń wszystkie' red, asking in the panel's own dialog. Screenshots go to $SHOTS.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { until } from "./harness.mjs";
import { PASSWORD, VIEWPORTS, openProfile, ownerSession } from "./owner.mjs";
import { png } from "./pictures.mjs";

const session = ownerSession("handheld");
const { panel, shot, clean, publicText } = session;

const focusedId = (page) => page.evaluate(() => document.activeElement?.id ?? "");

async function openView(page, view) {
  await page
    .getByRole("navigation", { name: "Części panelu" })
    .getByRole("button", { name: view, exact: true })
    .click();
}

async function openTab(page, title) {
  await page.getByRole("tab", { name: title, exact: true }).click();
  await page.getByRole("tabpanel").getByRole("heading", { level: 2, name: title, exact: true }).waitFor();
}

async function openSettings(page) {
  const details = page.locator("details.settings-details");
  if ((await details.getAttribute("open")) === null) await details.locator("summary").click();
}

describe("every section of a long page, named and reached", () => {
  for (const viewport of VIEWPORTS) {
    test(`'Sekcje tej strony' names all eleven and moves the editor to the one chosen at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await openTab(page, "Pilna pomoc");
      const editor = page.getByRole("tabpanel");
      // The sections come once the facts' names have (the editor waits for them).
      await editor.locator("li.editor-section").first().waitFor();
      const count = await editor.locator("li.editor-section").count();
      for (let n = count + 1; n <= 11; n += 1) {
        await editor.getByRole("button", { name: "Dodaj sekcję" }).click();
        await editor.getByLabel(`Treść sekcji ${n}`).fill(`## Krok ${n}: co robić dalej\n\nTekst kroku ${n}.`);
      }
      // On the desk in the visual view, the owner's default: the cursor goes into its text as well.
      if (viewport.width === 1280) await editor.getByRole("button", { name: "Widok wizualny" }).click();
      const nav = editor.getByRole("navigation", { name: "Sekcje tej strony" });
      const summary = nav.locator("summary");
      assert.match(await summary.innerText(), /^Sekcje tej strony: 11/);
      await summary.click();
      const choices = nav.getByRole("button");
      await until(() => choices.count(), 11, "every section has its button");
      const names = await choices.allInnerTexts();
      assert.equal(names[10], "Sekcja 11 · Tekst: Krok 11: co robić dalej");
      names.forEach((name, i) => assert.match(name, new RegExp(`^Sekcja ${i + 1} · `)));
      // Every name in sight and within the screen's width: none hidden off a sideways row.
      const boxes = await choices.evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return { left: r.left, right: r.right, height: r.height };
        }),
      );
      for (const box of boxes) assert.ok(box.left >= 0 && box.right <= viewport.width && box.height >= 44, box);
      await clean(page, "the section navigator open");
      await shot(page, "section-nav");

      const header = await page.evaluate(() => document.querySelector(".site-header").getBoundingClientRect().bottom);
      for (const n of [11, 2]) {
        if ((await nav.locator("details").getAttribute("open")) === null) await summary.click();
        await nav.getByRole("button", { name: new RegExp(`^Sekcja ${n} · `) }).click();
        await until(() => focusedId(page), `section-${n}-content`, `the cursor in section ${n}`);
        await until(
          () => editor.locator(`#section-${n}`).evaluate((el) => el.getBoundingClientRect().top),
          (y) => y >= header && y < viewport.height / 2,
          `section ${n} at the top of the screen, under the header`,
        );
        assert.equal(await nav.locator("details").getAttribute("open"), null, "the list closed");
      }
      await shot(page, "section-nav-chosen");
      await clean(page, "a section chosen");
      const width = await page.evaluate(() => ({
        editor: document.querySelector(".admin-editor").getBoundingClientRect().width,
        text: document.getElementById("section-2-content").getBoundingClientRect().width,
      }));
      if (viewport.width === 390) {
        assert.ok(width.editor >= 370 && width.text >= 340, `the editing column at 390 px: ${JSON.stringify(width)}`);
      }
      await page.close();
    });
  }
});

describe("keyboard shortcuts only where there is a keyboard", () => {
  const told = (page) =>
    page
      .locator("main")
      .innerText()
      .then((text) => text.match(/Ctrl\+[\w+]+|Shift\+Tab/g) ?? []);
  const devices = [
    { viewport: VIEWPORTS[1], touch: true },
    { viewport: VIEWPORTS[0], touch: false },
  ];
  for (const { viewport, touch } of devices) {
    test(`${touch ? "a touch phone hides" : "a desk with a mouse shows"} them at ${viewport.width} px`, async () => {
      const page = await panel(viewport, touch ? { hasTouch: true, isMobile: true } : {});
      const coarse = await page.evaluate(() => matchMedia("(pointer: coarse)").matches);
      assert.equal(coarse, touch, "the device's pointer");
      const editor = page.getByRole("tabpanel");
      await openTab(page, "Pilna pomoc");
      await editor.getByRole("button", { name: "Widok wizualny" }).click();
      await editor.getByRole("textbox", { name: "Treść sekcji 1" }).waitFor();
      const visual = await told(page);
      await editor.getByRole("button", { name: "Widok ze znakami" }).click();
      await editor.locator(".markdown-help > summary").click();
      await editor.getByRole("region", { name: "Znaki formatowania" }).waitFor();
      const signs = await told(page);
      if (touch) {
        assert.deepEqual([...visual, ...signs], [], "no shortcut on a touch screen");
        // What the help says besides the shortcuts is still there.
        await editor.getByRole("button", { name: "Widok wizualny" }).click();
        await editor.getByText("Tekst wygląda tu tak jak na stronie.").waitFor();
      } else {
        assert.ok(visual.includes("Ctrl+B") && visual.includes("Ctrl+K"), `the visual view's: ${visual}`);
        assert.ok(signs.includes("Ctrl+B") && signs.includes("Ctrl+K"), `the help's: ${signs}`);
      }
      await clean(page, `the editor's help ${touch ? "on a touch phone" : "with a mouse"}`);
      await page.close();
    });
  }
});

/** What each view's save needs: how to open it, a change to save and its save button's name. */
const SAVES = [
  {
    view: "page",
    open: (page) => openTab(page, "Strona główna"),
    change: (page, n) => page.getByRole("tabpanel").getByLabel("Nagłówek", { exact: true }).fill(`Twoja droga ${n}`),
    button: "Zapisz zmiany",
  },
  {
    view: "article",
    open: (page) => openTab(page, "Terapia online – czy działa jak w gabinecie?"),
    change: async (page, n) => {
      await openSettings(page);
      await page.getByLabel("Zajawka na karcie artykułu").fill(`Czy terapia przez internet działa? (${n})`);
    },
    button: "Zapisz zmiany",
  },
  {
    view: "prices",
    open: (page) => openView(page, "Cennik"),
    change: (page, n) => page.locator("#price-0-duration").fill(`${45 + (n % 10)} min`),
    button: "Zapisz cennik",
  },
  {
    view: "facts",
    open: (page) => openView(page, "Dane gabinetu"),
    change: (page, n) => page.locator("#fact-registered-city").fill(n % 2 ? "Gdańsk" : "Gdańsk-Oliwa"),
    button: "Zapisz dane gabinetu",
  },
  {
    view: "words",
    open: (page) => openView(page, "Napisy"),
    change: (page) => page.locator(".admin-card .settings").first().waitFor(),
    button: "Zapisz napisy",
  },
  {
    view: "team",
    open: async (page) => {
      await openView(page, "Zespół");
      await openProfile(page, "Edytuj profil: Tomasz Lewandowski");
    },
    change: (page, n) =>
      page
        .getByRole("form", { name: "Profil: Tomasz Lewandowski" })
        .getByLabel("Rola", { exact: true })
        .fill(`Psycholog, psychoterapeuta (${n})`),
    button: "Zapisz zmiany",
  },
];

/** Whether the save's messages (notifications, the line beside the button) leave the button free,
 *  while a notification shows. */
function clearOfMessages(page, name) {
  return page.evaluate((name) => {
    const button = [...document.querySelectorAll("main button")].find((b) => b.textContent.trim() === name);
    const shown = document.querySelectorAll(".toast").length > 0;
    // While the save is under way the button says so ('Zapisywanie…'): not its name yet.
    if (!button) return { shown, covered: -1, clickable: false };
    const r = button.getBoundingClientRect();
    const over = [...document.querySelectorAll(".toast, .save-message")]
      .map((m) => m.getBoundingClientRect())
      .filter((m) => m.height > 0 && m.left < r.right && m.right > r.left && m.top < r.bottom && m.bottom > r.top);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { shown, covered: over.length, clickable: button === hit || button.contains(hit) };
  }, name);
}

/** Closes every notification, as she would with its ×. */
async function closeToasts(page) {
  await page.evaluate(() => document.querySelectorAll(".toast-close").forEach((button) => button.click()));
  await until(() => page.locator(".toast").count(), 0, "the notifications closed");
}

describe("a save's message never covers the save button", () => {
  for (const viewport of VIEWPORTS) {
    test(`in every editing view, wherever the button is, at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      let n = viewport.width;
      for (const { view, open, change, button } of SAVES) {
        await open(page);
        // Where a message is likeliest to lie over it: as high on the screen as the page lets it go
        // (its form scrolled to its end), and where it sticks, at the bottom.
        for (const where of ["start", "end"]) {
          n += 1;
          await change(page, n);
          const save = page.locator("main").getByRole("button", { name: button, exact: true });
          await save.evaluate((el, block) => el.scrollIntoView({ block }), where);
          await save.click();
          await page.locator(".toast").filter({ hasText: "Sukces" }).first().waitFor();
          await page.locator(".save-message").first().waitFor();
          assert.deepEqual(
            await until(
              () => clearOfMessages(page, button),
              (state) => !state.shown || (state.covered === 0 && state.clickable),
              `${view}: the messages clear of '${button}' (${where})`,
            ),
            { shown: true, covered: 0, clickable: true },
            `${view} (${where})`,
          );
          if (view === "team" && where === "start") await shot(page, "save-clear-team");
          // The notifications closed before the next save, so each one is its own.
          await closeToasts(page);
          if (view === "team") await open(page);
        }
      }
      // A refusal's message too: the page's empty headline.
      await openView(page, "Strony");
      await openTab(page, "Strona główna");
      await page.getByRole("tabpanel").getByLabel("Nagłówek", { exact: true }).fill("");
      await page.getByRole("tabpanel").getByRole("button", { name: "Zapisz zmiany" }).click();
      await page.locator(".save-message-error").waitFor();
      // The refused headline has the cursor, at the top: she scrolls back to the button.
      await until(() => focusedId(page), /headline|heading/i, "the cursor in the refused headline");
      await page.getByRole("tabpanel").getByRole("button", { name: "Zapisz zmiany" }).scrollIntoViewIfNeeded();
      const state = await until(
        () => clearOfMessages(page, "Zapisz zmiany"),
        (state) => state.shown,
        "the refusal's notification",
      );
      assert.deepEqual(state, { shown: true, covered: 0, clickable: true }, "the refusal's message");
      await clean(page, "a refused save's messages");
      await page.close();
    });
  }
});

describe("a notification holds still while she presses", () => {
  // Moved between the press and the release (a scroll's event arriving late), it would take the
  // release and her click would be lost: it moves once she lets go.
  test("a scroll during a press moves it only after the release, at 390 px", async () => {
    const page = await panel(VIEWPORTS[1]);
    await openView(page, "Zespół");
    await openProfile(page, "Edytuj profil: Tomasz Lewandowski");
    const form = page.getByRole("form", { name: "Profil: Tomasz Lewandowski" });
    const save = form.getByRole("button", { name: "Zapisz zmiany" });
    const place = () =>
      page.evaluate(() => {
        const box = document.querySelector(".admin-signed-in > .toasts");
        return { shown: (box?.childElementCount ?? 0) > 0, top: box?.style.top ?? "" };
      });
    // A notification lasts about 5 s: on a busy machine it may go before the steps are done,
    // and then they are taken again with the next save's.
    let seen = null;
    for (let n = 1; n <= 3 && !seen; n += 1) {
      await form.getByLabel("Rola", { exact: true }).fill(`Psycholog, psychoterapeuta (wciśnięcie ${n})`);
      await save.click();
      await page.locator(".toast").filter({ hasText: "Sukces" }).first().waitFor();
      // 'Dodaj terapeutę' (a main button) scrolled to where the notification stands: it moves clear.
      await page
        .getByRole("button", { name: "Dodaj terapeutę" })
        .evaluate((b) => window.scrollBy(0, b.getBoundingClientRect().top - 100));
      const moved = await until(place, (p) => !p.shown || p.top !== "", "the notification clear of the button");
      // Pressed on the page's margin, and the view scrolled back to its top while the button is down.
      await page.mouse.move(4, 400);
      await page.mouse.down();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const held = await place();
      await page.mouse.up();
      const after = await until(place, (p) => !p.shown || p.top === "", "back in its own place after the release");
      if (moved.shown && after.shown) seen = { held: held.top === moved.top, after: after.top };
      await page.locator(".toast-close").evaluateAll((buttons) => buttons.forEach((b) => b.click()));
    }
    assert.deepEqual(seen, { held: true, after: "" }, "held where it was during the press, in its place after it");
    await page.close();
  });
});

describe("the cursor goes to the field a save refused", () => {
  for (const viewport of VIEWPORTS) {
    test(`'Dane prawne' refused by the form and by the server at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await openView(page, "Dane gabinetu");
      const save = page.getByRole("button", { name: "Zapisz dane gabinetu" });
      // A wrong NIP, refused as she types: the save puts her in it.
      const nip = page.locator("#fact-nip");
      const right = await nip.inputValue();
      await nip.fill("1234567890");
      await save.click();
      await until(() => focusedId(page), "fact-nip", "the cursor in the NIP");
      await nip.fill(right);
      // Fields only the server refuses, named by it: the cursor in each, not elsewhere.
      for (const id of ["fact-legal-name", "fact-registered-postal", "fact-registered-city"]) {
        const field = page.locator(`#${id}`);
        const before = await field.inputValue();
        await field.fill("");
        await save.click();
        await page.locator(".save-message-error").waitFor();
        await until(() => focusedId(page), id, `the cursor in #${id}`);
        await field.fill(before);
      }
      await clean(page, "a refused legal fact");
      await shot(page, "legal-refused");
      await page.close();
    });

    test(`'Potwierdź, że to Ty' and the app's code after it at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await openView(page, "Bezpieczeństwo");
      await page.getByRole("button", { name: "Włącz logowanie kodem z aplikacji" }).click();
      const dialog = page.getByRole("dialog", { name: "Potwierdź, że to Ty" });
      await dialog.getByLabel("Hasło").fill("nie moje hasło");
      await dialog.getByRole("button", { name: "Potwierdź" }).click();
      await dialog.getByRole("alert").filter({ hasText: "Hasło jest nieprawidłowe." }).waitFor();
      await until(() => focusedId(page), "reauth-password", "the cursor back in the password");
      const selected = await page.evaluate(() => {
        const el = document.activeElement;
        return el.selectionEnd - el.selectionStart === el.value.length;
      });
      assert.ok(selected, "the wrong password selected, to type over");
      await clean(page, "a refused confirmation");
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });
      const code = page.getByLabel("Kod z aplikacji");
      await code.fill("000000");
      await page.getByRole("button", { name: "Włącz", exact: true }).click();
      await page.locator("#totp-error").waitFor();
      await until(() => focusedId(page), "totp-code", "the cursor in the app's code");
      await clean(page, "a refused code after the confirmation");
      await page.close();
    });
  }
});

/** Drops `file` (a name and its bytes) onto `target` as a file dragged from the desktop would be. */
async function dropFile(target, name, bytes) {
  await target.evaluate(
    (el, { name, data }) => {
      const file = new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name, { type: "image/png" });
      const transfer = new DataTransfer();
      transfer.items.add(file);
      for (const type of ["dragenter", "dragover", "drop"]) {
        el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      }
    },
    { name, data: bytes.toString("base64") },
  );
}

describe("pictures from the editor's picture box", () => {
  for (const viewport of VIEWPORTS) {
    test(`sent, dropped and given their focal point at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await openTab(page, "Pięć sposobów na radzenie sobie z lękiem");
      const editor = page.getByRole("tabpanel");
      await openSettings(page);
      const box = editor.getByRole("group", { name: "Obraz główny" });
      const upload = box.locator(".picture-upload");

      // Chosen from the device.
      const sent = `Gabinet o poranku ${viewport.width}`;
      await box.getByLabel("wybierz plik").setInputFiles({
        name: `gabinet-poranek-${viewport.width}.png`,
        mimeType: "image/png",
        buffer: png(320, 200, [190, 210, 230]),
      });
      await box.getByLabel("Tekst alternatywny nowego obrazu").fill(sent);
      await upload.scrollIntoViewIfNeeded();
      await shot(page, "picture-box-chosen");
      await clean(page, "the picture box with a file chosen");
      await box.getByRole("button", { name: "Prześlij i wybierz" }).click();
      await until(() => box.getByRole("radio", { name: sent }).isChecked(), true, "the sent picture chosen");
      assert.equal(await editor.getByLabel("Tekst alternatywny obrazu").inputValue(), sent);

      // Dropped onto the box.
      const dropped = `Fotel przy oknie ${viewport.width}`;
      await dropFile(upload, `fotel-${viewport.width}.png`, png(300, 300, [120, 160, 120]));
      await box.getByText(`Wybrany plik: fotel-${viewport.width}.png`).waitFor();
      await box.getByLabel("Tekst alternatywny nowego obrazu").fill(dropped);
      await box.getByRole("button", { name: "Prześlij i wybierz" }).click();
      await until(() => box.getByRole("radio", { name: dropped }).isChecked(), true, "the dropped picture chosen");
      await editor.getByLabel("Tekst alternatywny obrazu").fill(dropped);

      // Its focal point, by a click on it.
      const picker = editor.getByRole("group", { name: "Punkt ostrości zdjęcia" });
      const image = picker.locator(".focus-image");
      await until(
        () => image.locator("img").evaluate((img) => img.complete && img.naturalWidth > 0 && img.src),
        (src) => typeof src === "string" && src.includes(`fotel-${viewport.width}`),
        "the dropped picture in the focal point's box",
      );
      await image.scrollIntoViewIfNeeded();
      const at = await image.boundingBox();
      await page.mouse.click(at.x + at.width * 0.3, at.y + at.height * 0.2);
      const near = (want) => (value) => Math.abs(Number(value) - want) <= 1;
      await until(() => picker.getByLabel("Poziomo (%)").inputValue(), near(30), "across where the click was");
      await until(() => picker.getByLabel("Pionowo (%)").inputValue(), near(20), "down where the click was");
      const position = `${await picker.getByLabel("Poziomo (%)").inputValue()}% ${await picker.getByLabel("Pionowo (%)").inputValue()}%`;
      await shot(page, "picture-box-focus");
      await clean(page, "the picture box and its focal point");
      await editor.getByRole("button", { name: "Zapisz zmiany" }).click();
      await page.locator(".save-message", { hasText: /^Zapisano/ }).waitFor();

      const route = await editor.getByRole("link", { name: "Zobacz stronę" }).getAttribute("href");
      const html = await publicText(route);
      const hero = new RegExp(`<img[^>]*alt="${dropped}"[^>]*>`).exec(html)?.[0] ?? "";
      assert.match(hero, new RegExp(`fotel-${viewport.width}`), `the article shows the dropped picture: ${hero}`);
      const visitor = await page.context().newPage();
      await visitor.goto(`${session.site.base}${route}`);
      const shown = visitor.locator(`img[alt="${dropped}"]`).first();
      assert.equal(await shown.evaluate((img) => getComputedStyle(img).objectPosition), position);
      await visitor.close();
      await page.close();
    });
  }
});

describe("the smaller things", () => {
  for (const viewport of VIEWPORTS) {
    test(`a price's pages are links across its row, and 'Usuń wszystkie' is red and asks in the panel at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      const asked = [];
      page.on("dialog", (d) => {
        asked.push(d.message());
        void d.dismiss();
      });
      await openView(page, "Cennik");
      const uses = page.locator(".price-uses").first();
      await uses.waitFor();
      const widths = await uses.evaluate((el) => ({
        note: el.getBoundingClientRect().width,
        row: el.closest("fieldset").getBoundingClientRect().width,
      }));
      assert.ok(widths.note >= widths.row * 0.85, `the note spans its row: ${JSON.stringify(widths)}`);
      const link = uses.getByRole("link").first();
      const name = await link.innerText();
      await link.click();
      await page.getByRole("tabpanel").getByRole("heading", { level: 2, name, exact: true }).waitFor();

      await openView(page, "Wiadomości");
      await page.getByLabel("Wiadomości jednej osoby (e-mail)").fill("anna@example.pl");
      const erase = page.getByRole("button", { name: "Usuń wszystkie" });
      assert.equal(await erase.evaluate((el) => getComputedStyle(el).color), "rgb(143, 29, 22)", "red");
      await erase.click();
      const dialog = page.getByRole("dialog", { name: "Usunąć na zawsze?" });
      await clean(page, "the erasure's question");
      await dialog.getByRole("button", { name: "Anuluj" }).click();
      await dialog.waitFor({ state: "detached" });
      assert.deepEqual(asked, [], "no question of the browser's own");
      await page.close();
    });
  }
});
