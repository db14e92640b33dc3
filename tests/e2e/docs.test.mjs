// The screenshots of the owner's guide (docs/src/owner/): the panel's main views at 1280 px,
// taken on a copy of the site with a real sidecar, as the guide describes them. Each test
// checks that what it photographs is on the screen (a heading, a tab, a dialog), so the book
// never shows a view that no longer exists. The PNGs are build output (.gitignore): `make docs`
// and `make test` take them before the book is built.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launchBrowser, openPage, repoRoot, signIn, siteCopy, startSite } from "./harness.mjs";

const ADMIN = "magda@gabinet-harmonia.pl";
const PASSWORD = "hasło do zrzutów ekranu przewodnika";
const VIEWPORT = { width: 1280, height: 860 };
const IMAGES = join(repoRoot, "docs", "src", "owner", "img");

let site;
let browser;

before(async () => {
  mkdirSync(IMAGES, { recursive: true });
  // A message sent at once counts as genuine here, so the inbox shows an ordinary one.
  site = await startSite(
    siteCopy((yaml) => yaml),
    { ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: PASSWORD, CONTACT_MIN_SECONDS: "0" },
  );
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await site?.stop();
});

async function signedIn(options = {}) {
  const page = await openPage(browser, VIEWPORT, options);
  await signIn(page, site.panel, ADMIN, PASSWORD);
  return page;
}

/** Opens a part of the panel by its button and waits for its heading. */
async function view(page, button, heading = button) {
  await page.getByRole("button", { name: button, exact: true }).click();
  const title = page.getByRole("heading", { name: heading, exact: true, level: 2 });
  await title.waitFor();
  assert.equal(
    await page.getByRole("button", { name: button, exact: true }).getAttribute("aria-pressed"),
    "true",
    `'${button}' is the part shown`,
  );
  return title;
}

/** The view as it settles: notifications closed, transitions finished, the pointer off the buttons. */
async function shot(page, name) {
  for (const close of await page.getByRole("button", { name: "Zamknij powiadomienie" }).all()) {
    // A notification may close by itself meanwhile: then there is nothing to click.
    await close.click({ timeout: 1000 }).catch(() => undefined);
  }
  await page.mouse.move(VIEWPORT.width - 4, 110);
  await page.screenshot({ path: join(IMAGES, `${name}.png`), animations: "disabled" });
}

async function status(page, text) {
  await page.getByRole("status").filter({ hasText: text }).first().waitFor();
}

describe("screenshots of the owner's guide", () => {
  test("the sign-in form", async () => {
    const page = await openPage(browser, VIEWPORT);
    await page.goto(`${site.panel}/administratormagda`);
    await page.getByRole("button", { name: "Zaloguj się" }).waitFor();
    assert.ok(await page.getByLabel("E-mail").isVisible());
    assert.ok(await page.getByRole("button", { name: "Użyj klucza dostępu" }).isVisible());
    assert.ok(await page.getByRole("button", { name: "Nie pamiętasz hasła?" }).isVisible());
    await shot(page, "logowanie");
    await page.context().close();
  });

  test("the pages: tabs, texts on the page and sections", async () => {
    // The guide shows the sections as the owner first sees them: in the visual view.
    const page = await signedIn({ visualEditor: true });
    const home = page.getByRole("tab", { name: "Strona główna" });
    assert.equal(await home.getAttribute("aria-selected"), "true", "the panel opens on the home page");
    await page.getByRole("tabpanel").getByRole("heading", { level: 2 }).first().waitFor();
    await shot(page, "strony");
    const section = page.getByLabel("Treść sekcji 1");
    await section.scrollIntoViewIfNeeded();
    assert.ok(await section.isVisible());
    assert.ok(await page.getByRole("button", { name: "Zapisz zmiany" }).first().isVisible());
    await shot(page, "sekcje");
    await page.context().close();
  });

  test("a save, the history of a page and a draft kept in the browser", async () => {
    const page = await signedIn();
    await page.getByRole("tab", { name: "Regulamin", exact: true }).click();
    const editor = page.getByRole("tabpanel");
    await editor.getByRole("heading", { name: "Regulamin", exact: true }).waitFor();
    const box = page.getByLabel("Treść sekcji 1");
    await box.fill(`${await box.inputValue()}\n\nRegulamin obowiązuje od dnia publikacji na stronie.`);
    await page.getByRole("button", { name: "Zapisz zmiany" }).click();
    await status(page, "Zmiany zostały zapisane.");
    await page.getByRole("button", { name: "Historia zmian" }).click();
    const versions = editor.locator("ol.history > li");
    await versions.nth(1).waitFor();
    assert.match(await versions.nth(0).innerText(), /obecna wersja/);
    await versions
      .nth(1)
      .getByRole("button", { name: /Porównaj z obecną/ })
      .click();
    await versions.nth(1).locator(".word-diff ins").first().waitFor();
    await versions.nth(0).scrollIntoViewIfNeeded();
    await shot(page, "historia");

    await page.getByRole("button", { name: "Historia zmian" }).click();
    await box.fill(`${await box.inputValue()}\n\nZdanie dopisane, ale jeszcze niezapisane.`);
    await page.reload();
    await page.getByRole("tab", { name: "Regulamin", exact: true }).click();
    const offer = page.getByText("Masz niezapisany szkic tej strony");
    await offer.waitFor();
    assert.ok(await page.getByRole("button", { name: "Przywróć szkic" }).isVisible());
    await shot(page, "szkic");
    await page.context().close();
  });

  test("a new article", async () => {
    const page = await signedIn();
    await page.getByRole("button", { name: "Nowy artykuł" }).click();
    const dialog = page.getByRole("dialog", { name: "Nowy artykuł" });
    await dialog.waitFor();
    await dialog.getByLabel("Tytuł artykułu").fill("Jak przygotować się do pierwszej rozmowy?");
    await page.waitForFunction(
      () => document.querySelector("#new-article-slug")?.value === "jak-przygotowac-sie-do-pierwszej-rozmowy",
    );
    await shot(page, "nowy-artykul");
    await page.context().close();
  });

  test("publishing an article in words, and one search for every text", async () => {
    const page = await signedIn();
    await page.getByRole("tab", { name: "Pięć sposobów na radzenie sobie z lękiem", exact: true }).click();
    const editor = page.getByRole("tabpanel");
    await editor.locator(".publish-bar .status").filter({ hasText: "Opublikowany" }).waitFor();
    assert.ok(await editor.getByRole("button", { name: "Wycofaj do szkicu" }).isVisible());
    await shot(page, "publikacja");

    const search = page.getByRole("searchbox", { name: "Szukaj tekstu w całej stronie" });
    await search.fill("telefon zaufania");
    await page.locator(".admin-search-results button").filter({ hasText: "Napisy" }).first().waitFor();
    await shot(page, "szukaj");
    await page.context().close();
  });

  test("the panel on a phone", async () => {
    const page = await openPage(browser, { width: 390, height: 844 });
    await signIn(page, site.panel, ADMIN, PASSWORD);
    await page.getByRole("tabpanel").getByRole("heading", { level: 2, name: "Strona główna" }).waitFor();
    const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    assert.ok(fits, "nothing scrolls sideways");
    await shot(page, "telefon");
    await page.context().close();
  });

  test("the price list", async () => {
    const page = await signedIn();
    await view(page, "Cennik");
    assert.ok(await page.getByRole("button", { name: "Zapisz cennik" }).isVisible());
    await shot(page, "cennik");
    await page.context().close();
  });

  test("the practice's facts", async () => {
    const page = await signedIn();
    await view(page, "Dane gabinetu");
    assert.ok(await page.getByLabel("Ulica i numer").isVisible());
    await shot(page, "dane-gabinetu");
    await page.context().close();
  });

  test("the team", async () => {
    const page = await signedIn();
    await view(page, "Zespół");
    assert.ok(await page.getByRole("button", { name: "Dodaj terapeutę" }).isVisible());
    await shot(page, "zespol");
    await page.context().close();
  });

  test("the pictures", async () => {
    const page = await signedIn();
    await view(page, "Obrazy");
    assert.ok(await page.getByLabel(/^Plik \(JPEG, PNG lub WebP/).isVisible());
    await shot(page, "obrazy");
    await page.context().close();
  });

  test("the inbox with an opened message", async () => {
    const { token } = await (await fetch(`${site.base}/api/contact/token`)).json();
    const answer = await fetch(`${site.base}/api/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        name: "Anna Przykładowa",
        email: "anna.przykladowa@example.pl",
        phone: "500600700",
        countryCode: "+48",
        message: "Dzień dobry, chciałabym zapytać o wolny termin konsultacji w przyszłym tygodniu, najlepiej po 17:00.",
        fullPhone: "+48500600700",
        token,
        website: "",
      }),
    });
    assert.equal(answer.status, 200);
    const page = await signedIn();
    await view(page, "Wiadomości");
    await page.getByRole("button", { name: "Anna Przykładowa" }).click();
    await page.getByRole("heading", { name: "Wiadomość od Anna Przykładowa" }).waitFor();
    await shot(page, "wiadomosci");
    await page.context().close();
  });

  test("the statistics of a few visits", async () => {
    // Six visitors (told apart by their browsers) read a few pages and tap a few buttons.
    const visits = [
      ["/", "google.com", 390],
      ["/cennik", "", 390],
      ["/uslugi/terapia-indywidualna", "google.com", 1280],
      ["/blog/terapia-cbt", "facebook.com", 390],
      ["/o-mnie", "", 1280],
      ["/", "", 820],
    ];
    const beacon = (agent, body) =>
      fetch(`${site.base}/api/event`, {
        method: "POST",
        headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": agent },
        body: JSON.stringify(body),
      });
    for (const [i, [p, r, w]] of visits.entries()) {
      const agent = `Mozilla/5.0 (przegladarka ${i}) Gecko/20100101 Firefox/128.0`;
      assert.equal((await beacon(agent, { e: "view", p, r, w })).status, 204);
      assert.equal((await beacon(agent, { e: "view", p: "/cennik", r: "", w })).status, 204);
      if (i % 2 === 0) await beacon(agent, { e: "book", p: "/cennik", w, l: "Booksy · gabinet" });
    }
    const page = await signedIn();
    await view(page, "Statystyki");
    await page
      .getByRole("region", { name: "Najczęściej czytane strony" })
      .getByText("/cennik", { exact: true })
      .waitFor();
    await shot(page, "statystyki");
    await page.context().close();
  });

  test("security: the authenticator app being set up, the sessions and the audit log", async () => {
    const page = await signedIn();
    await view(page, "Bezpieczeństwo", "Aplikacja uwierzytelniająca");
    await page.getByRole("heading", { name: "Klucze dostępu" }).waitFor();
    await shot(page, "bezpieczenstwo");

    await page.getByRole("button", { name: "Włącz logowanie kodem z aplikacji" }).click();
    const confirm = page.getByRole("dialog", { name: "Potwierdź, że to Ty" });
    await confirm.getByLabel("Hasło").fill(PASSWORD);
    await shot(page, "potwierdz");
    await confirm.getByRole("button", { name: "Potwierdź" }).click();
    const qr = page.getByRole("img", { name: "Kod QR do zeskanowania w aplikacji" });
    await qr.waitFor();
    await qr.scrollIntoViewIfNeeded();
    await shot(page, "aplikacja");

    const sessions = page.getByRole("heading", { name: "Aktywne sesje" });
    await sessions.scrollIntoViewIfNeeded();
    assert.ok(await page.getByText("To urządzenie").isVisible());
    await shot(page, "sesje");
    const audit = page.getByRole("heading", { name: "Dziennik zdarzeń" });
    await audit.scrollIntoViewIfNeeded();
    await page.getByRole("region", { name: "Lista zdarzeń" }).getByRole("row").nth(1).waitFor();
    await shot(page, "dziennik");
    await page.context().close();
  });

  test("git access: making an editor's token asks who you are, saying what the token opens", async () => {
    // A site that hosts its content's repository: a copy that is a git work tree.
    const root = siteCopy((yaml) => yaml);
    for (const args of [
      ["init", "-q", "-b", "main"],
      ["add", "."],
      ["commit", "-q", "-m", "Strona"],
    ]) {
      execFileSync("git", ["-C", root, "-c", "user.name=Magda", "-c", "user.email=magda@example.pl", ...args]);
    }
    const hosted = await startSite(root, { ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: PASSWORD, GIT_HOSTED: "1" });
    after(() => hosted.stop());
    const page = await openPage(browser, VIEWPORT);
    await signIn(page, hosted.panel, ADMIN, PASSWORD);
    await view(page, "Dostęp przez git");
    await page.getByLabel("Czyj to token (np. „Anna, laptop”)").fill("Anna, laptop");
    await page.getByRole("button", { name: "Utwórz token" }).click();
    const confirm = page.getByRole("dialog", { name: "Potwierdź, że to Ty" });
    await confirm.getByText("Chcesz utworzyć token dostępu przez git").waitFor();
    assert.doesNotMatch(await confirm.innerText(), /danych osobowych/);
    await confirm.getByLabel("Hasło").fill(PASSWORD);
    await shot(page, "token-potwierdz");
    await confirm.getByRole("button", { name: "Anuluj" }).click();
    await page.context().close();
  });
});
