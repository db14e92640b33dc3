// The panel a practice runs its site from, driven as the administrator would: a
// preview of unsaved text that changes nothing public, a server draft, a new article on
// /blog after 'Zapisz', a scheduled article that appears when its time comes, a notice that
// appears and expires, a price change on /cennik, a deleted article restored, and an
// uploaded picture shown as an article's main image with its text.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launchBrowser, openPage, signIn, siteCopy, startSite, until } from "./harness.mjs";
import { png } from "./pictures.mjs";

const ADMIN = "magda@gabinet-harmonia.pl";
const PASSWORD = "hasło panelu do testów";

let root;
let site;
let browser;
before(async () => {
  root = siteCopy((yaml) => yaml);
  site = await startSite(root, { ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: PASSWORD });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

async function panel() {
  const page = await openPage(browser);
  page.on("dialog", (d) => d.accept());
  await signIn(page, site.panel, ADMIN, PASSWORD);
  return page;
}

async function openTab(page, title) {
  await page.getByRole("tab", { name: title, exact: true }).click();
  await page.getByRole("tabpanel").getByRole("heading", { name: title, exact: true }).waitFor();
}

async function openSettings(page) {
  const details = page.locator("details.settings-details");
  if ((await details.getAttribute("open")) === null) await details.locator("summary").click();
}

async function saved(page, text = "Zmiany zostały zapisane.") {
  await page.getByRole("status").filter({ hasText: text }).first().waitFor();
}

/** A page as served, with the typesetter's no-break spaces read as spaces. */
async function html(route) {
  return (await (await fetch(site.base + route)).text()).replace(/\u00a0|&nbsp;/g, " ");
}

/** Waits, with a generous deadline, for `check` to hold; the moment it holds is the event. */
async function eventually(what, check, within = 60_000) {
  await until(check, true, `${what} within ${Math.round(within / 1000)} s`, within);
}

/** A moment as the content writes it: Warsaw time, `YYYY-MM-DD HH:MM:SS`. */
function warsaw(ms) {
  return new Intl.DateTimeFormat("sv-SE", {
    timeZone: "Europe/Warsaw",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hour12: false,
  }).format(new Date(ms));
}

describe("the panel a practice runs its site from", () => {
  test("a preview shows unsaved text, marked and not indexed, and nothing public changes", async () => {
    const page = await panel();
    await openTab(page, "Regulamin");
    const file = join(root, "content", "pages", "regulamin.md");
    const before = readFileSync(file, "utf8");
    const publicBefore = await html("/regulamin");
    await page.getByLabel("Treść sekcji 1").fill("Tekst widoczny tylko w podglądzie.");
    await openSettings(page);
    await page.getByLabel("Tytuł", { exact: true }).fill("Regulamin z podglądu");
    const opened = page.context().waitForEvent("page");
    await page.getByRole("button", { name: /^Podgląd/ }).click();
    const preview = await opened;
    const problems = [];
    preview.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    await preview.getByText("Tekst widoczny tylko w podglądzie.").waitFor();
    assert.match(await preview.locator(".preview-banner").innerText(), /Podgląd – niezapisane zmiany/);
    assert.ok(await preview.locator(".preview-banner").isVisible());
    assert.equal(await preview.locator('meta[name="robots"]').first().getAttribute("content"), "noindex, nofollow");
    assert.match(await preview.title(), /^Podgląd – niezapisane zmiany \| Regulamin z podglądu/);
    assert.deepEqual(problems, [], "no CSP violation or error in the preview");
    assert.ok(preview.url().startsWith(`${site.panel}/api/preview/`), preview.url());
    // The banner's text comes with the HTML, its style with the stylesheet loaded after it.
    await until(
      () => preview.locator(".preview-banner").evaluate((el) => getComputedStyle(el).position),
      "fixed",
      "the site's stylesheet reaches the sandboxed preview",
    );
    assert.equal(readFileSync(file, "utf8"), before, "the file is unchanged");
    assert.equal(await html("/regulamin"), publicBefore, "the public page is unchanged");
    await preview.close();
    // The same unsaved state kept on the server, seen from a fresh page.
    await page.getByRole("button", { name: "Zapisz jako szkic" }).click();
    await saved(page, "Szkic zapisano na serwerze.");
    const other = await page.context().newPage();
    other.on("dialog", (d) => d.accept());
    await other.goto(`${site.panel}/administratormagda`);
    await other.evaluate(() => localStorage.clear());
    await other.reload();
    await other.getByRole("tab").first().waitFor();
    await openTab(other, "Regulamin");
    await other.getByText("Na serwerze jest szkic tej strony").waitFor();
    await other.getByRole("button", { name: "Wczytaj szkic z serwera" }).click();
    await until(
      () => other.getByLabel("Treść sekcji 1").inputValue(),
      "Tekst widoczny tylko w podglądzie.",
      "the server's draft is in the editor",
    );
    await other.getByRole("button", { name: "Odrzuć szkic z serwera" }).click();
    assert.equal(readFileSync(file, "utf8"), before, "a draft is not a save");
    await page.context().close();
  });

  test("a new article gets a folded address, refuses a taken one, and appears on /blog after 'Zapisz'", async () => {
    const page = await panel();
    await page.getByRole("button", { name: "Nowy artykuł" }).click();
    const dialog = page.getByRole("dialog", { name: "Nowy artykuł" });
    await dialog.getByLabel("Tytuł artykułu").fill("Terapia online");
    await dialog.getByText("Ten adres jest już zajęty").waitFor();
    assert.equal(await dialog.getByRole("button", { name: "Utwórz artykuł" }).isDisabled(), true);
    await dialog.getByLabel("Tytuł artykułu").fill("Jak radzić sobie z lękiem?");
    await page.waitForFunction(
      () => document.querySelector("#new-article-slug")?.value === "jak-radzic-sobie-z-lekiem",
    );
    // Signed by whoever is chosen, not by the team's first.
    const author = dialog.getByLabel("Autor");
    assert.equal(await author.inputValue(), "Magdalena Wiśniewska", "the team's first is proposed");
    await author.selectOption("Tomasz Lewandowski");
    await dialog.getByRole("button", { name: "Utwórz artykuł" }).click();
    await page.getByRole("tabpanel").getByRole("heading", { name: "Jak radzić sobie z lękiem?" }).waitFor();
    assert.equal(await page.getByLabel("Autor", { exact: true }).inputValue(), "Tomasz Lewandowski");
    // A new article is a draft, said at the top of its editor.
    const state = page.getByRole("tabpanel").locator(".publish-bar .status");
    assert.equal(await state.innerText(), "Szkic");
    assert.ok(!(await html("/blog")).includes("/blog/jak-radzic-sobie-z-lekiem"), "not public yet");
    await page
      .getByLabel("Opis dla wyszukiwarek")
      .fill("Pięć sprawdzonych sposobów na lęk na co dzień: oddech, ruch, sen, rozmowa i praca z myślami.");
    await page.getByLabel("Zajawka na karcie artykułu").fill("Lęk da się oswoić. Oto od czego zacząć.");
    await page.getByLabel("Treść sekcji 1").fill("## Od czego zacząć?\n\nNajpierw zauważ, co dzieje się z oddechem.");
    // 'Opublikuj teraz' saves the edit and publishes it in one press.
    await page.getByRole("button", { name: "Opublikuj teraz" }).click();
    await saved(page);
    await page
      .locator(".save-message")
      .filter({ hasText: /^Zapisano i opublikowano o \d{2}:\d{2}\.$/ })
      .waitFor();
    const blog = await html("/blog");
    assert.ok(blog.includes('href="/blog/jak-radzic-sobie-z-lekiem"'), "listed on /blog");
    assert.ok(blog.includes("Jak radzić sobie z lękiem?"));
    const article = await html("/blog/jak-radzic-sobie-z-lekiem");
    assert.ok(article.includes("Najpierw zauważ, co dzieje się z oddechem."));
    assert.ok(article.includes("</time> · Tomasz Lewandowski</p>"), "signed by the chosen author");
    await state.filter({ hasText: /^Opublikowany$/ }).waitFor();
    await page.context().close();
  });

  test("a deleted article leaves /blog and comes back from 'Usunięte artykuły'", async () => {
    const page = await panel();
    await openTab(page, "Jak radzić sobie z lękiem?");
    await page.getByRole("button", { name: "Usuń artykuł" }).click();
    await saved(page, "Artykuł usunięty.");
    assert.ok(!(await html("/blog")).includes("/blog/jak-radzic-sobie-z-lekiem"));
    await page.getByRole("tab", { name: "Jak radzić sobie z lękiem?" }).waitFor({ state: "detached" });
    await page.getByText("Usunięte artykuły (1)").click();
    await page.getByRole("button", { name: "Przywróć artykuł Jak radzić sobie z lękiem?" }).click();
    await saved(page, "Przywrócono artykuł");
    assert.ok((await html("/blog")).includes("/blog/jak-radzic-sobie-z-lekiem"));
    await page.context().close();
  });

  test("a scheduled article appears on /blog when its time comes, not before", async () => {
    const page = await panel();
    await page.getByRole("button", { name: "Nowy artykuł" }).click();
    await page.getByLabel("Tytuł artykułu").fill("Wpis na później");
    await page.waitForFunction(() => document.querySelector("#new-article-slug")?.value === "wpis-na-pozniej");
    await page.getByRole("button", { name: "Utwórz artykuł" }).click();
    await page.getByRole("tabpanel").getByRole("heading", { name: "Wpis na później" }).waitFor();
    await page.getByLabel("Treść sekcji 1").fill("Ten tekst ukaże się sam.");
    // The picker is a phone's own, to the minute: the first full minute at least 15 s away.
    const at = Math.ceil((Date.now() + 15_000) / 60_000) * 60_000;
    await page.getByRole("button", { name: "Zaplanuj…" }).click();
    const dialog = page.getByRole("dialog", { name: "Zaplanuj publikację" });
    await dialog.getByLabel("Dzień i godzina (czas polski)").fill(warsaw(at).slice(0, 16).replace(" ", "T"));
    await dialog.getByRole("button", { name: "Zaplanuj", exact: true }).click();
    // Said in people's dates, not the file's.
    await saved(page);
    await page.getByText(/Zaplanowano na \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} \(czas polski\)/).waitFor();
    const state = page.getByRole("tabpanel").locator(".publish-bar .status");
    await state.filter({ hasText: /^Zaplanowany na \d{1,2}\.\d{2}, \d{2}:\d{2}$/ }).waitFor();
    assert.ok(!(await html("/blog")).includes("/blog/wpis-na-pozniej"), "not before its time");
    await eventually(
      "the scheduled article on /blog",
      async () => (await html("/blog")).includes('href="/blog/wpis-na-pozniej"'),
      Math.max(0, at - Date.now()) + 60_000,
    );
    assert.ok(Date.now() >= Math.floor(at / 1000) * 1000, "not a second before its time");
    assert.ok((await html("/blog/wpis-na-pozniej")).includes("Ten tekst ukaże się sam."));
    await page.context().close();
  });

  test("'Dane gabinetu' says which facts of site.yaml are still example data", async () => {
    const page = await panel();
    await page.getByRole("button", { name: "Dane gabinetu", exact: true }).click();
    await page.getByRole("heading", { name: "Dane gabinetu" }).waitFor();
    const banner = page.getByRole("note", {
      name: "Dane przykładowe – serwer produkcyjny nie opublikuje z nimi strony",
    });
    const text = await banner.innerText();
    for (const fact of [
      "nazwa gabinetu",
      "pełna nazwa przedsiębiorcy",
      "NIP",
      "REGON",
      "adres siedziby",
      "telefon",
      "e-mail",
      "strony rezerwacji",
      "identyfikator widżetu telefonicznego (telephony)",
    ]) {
      assert.ok(text.includes(fact), `${fact}: ${text}`);
    }
    assert.match(text, /CEIDG/);
    assert.match(
      text,
      /panel nie zmienia – zmienia je informatyk lub redaktor\./,
      "says who changes what the panel does not edit",
    );
    // What she confirms below, apart from what only the operator or an editor changes.
    const lists = banner.getByRole("list");
    assert.equal(await lists.count(), 2);
    const below = await lists.nth(0).getByRole("listitem").allInnerTexts();
    assert.ok(below.includes("NIP") && below.includes("telefon"), below.join(", "));
    assert.deepEqual(await lists.nth(1).getByRole("listitem").allInnerTexts(), [
      "nazwa gabinetu",
      "adres strony (site_url)",
      "identyfikator widżetu telefonicznego (telephony)",
    ]);
    assert.doesNotMatch(text, /yaml/i, "in her words, not the file's name");
    // The analytics tag is the operator's setting (ANALYTICS_ID), no fact of the practice's.
    assert.doesNotMatch(text, /statystyk/, "the analytics id is not the practice's fact");
    await page.context().close();
  });

  test("a notice appears on every page inside its moments and disappears by itself", async () => {
    const page = await panel();
    await page.getByRole("button", { name: "Dane gabinetu", exact: true }).click();
    await page.getByRole("heading", { name: "Dane gabinetu" }).waitFor();
    await page.getByLabel(/Pokazuj komunikat/).check();
    const from = Date.now() + 4000;
    const until = from + 8000;
    await page.getByLabel("Treść komunikatu").fill("Gabinet nieczynny 24.12–1.01");
    await page.getByLabel("Od", { exact: true }).last().fill(warsaw(from));
    await page.getByLabel("Do", { exact: true }).last().fill(warsaw(until));
    await page.getByRole("button", { name: "Zapisz dane gabinetu" }).click();
    await saved(page);
    await eventually("the notice appearing", async () => (await html("/")).includes("Gabinet nieczynny 24.12–1.01"));
    assert.ok(Date.now() >= Math.floor(from / 1000) * 1000, "not before its start");
    assert.ok((await html("/cennik")).includes("Gabinet nieczynny 24.12–1.01"), "on every page");
    const visitor = await openPage(browser);
    await visitor.goto(`${site.base}/o-mnie`);
    assert.equal(
      await visitor.getByRole("note", { name: "Komunikat gabinetu" }).innerText(),
      "Gabinet nieczynny 24.12–1.01",
    );
    await visitor.context().close();
    await eventually("the notice going", async () => !(await html("/")).includes("Gabinet nieczynny"));
    assert.ok(Date.now() >= Math.floor(until / 1000) * 1000, "not before its end");
    await page.context().close();
  });

  test("a price change and a new row show on /cennik; a wrong row is refused in Polish", async () => {
    const page = await panel();
    await page.getByRole("button", { name: "Cennik", exact: true }).click();
    await page.getByRole("heading", { name: "Cennik" }).waitFor();
    await page.locator("#price-1-price").fill("215");
    const rows = await page.locator(".price-edit").count();
    await page.getByRole("button", { name: "Dodaj pozycję" }).click();
    const last = await until(() => page.locator(".price-edit").count(), rows + 1, "a new row");
    await page.locator(`#price-${last - 1}-name`).fill("Warsztat uważności");
    await page.locator(`#price-${last - 1}-duration`).fill("90 min");
    await page.locator(`#price-${last - 1}-link`).selectOption("/uslugi/psychoedukacja");
    await page.getByRole("button", { name: /^W górę\W+pozycja 2$/ }).click();
    await page.getByRole("button", { name: "Zapisz cennik" }).click();
    await saved(page);
    const prices = await html("/cennik");
    assert.ok(prices.includes("215 zł"), "the new price");
    assert.ok(prices.includes("Warsztat uważności"));
    assert.ok(
      prices.indexOf("Konsultacja psychologiczna") < prices.indexOf("Bezpłatna rozmowa telefoniczna"),
      "reordered",
    );
    await page.locator("#price-0-duration").fill("");
    await page.getByRole("button", { name: "Zapisz cennik" }).click();
    await page.getByRole("alert").filter({ hasText: "Pozycja 1, czas trwania: pole nie może być puste." }).waitFor();
    await page.context().close();
  });

  test("an uploaded picture becomes an article's main image with its text; other files are refused", async () => {
    const page = await panel();
    await page.getByRole("button", { name: "Obrazy" }).click();
    await page.getByRole("heading", { name: "Obrazy" }).waitFor();
    await page
      .getByLabel(/^Plik/)
      .setInputFiles({ name: "tekst.png", mimeType: "image/png", buffer: Buffer.from("to nie obraz") });
    await page.getByLabel("Tekst alternatywny (co przedstawia obraz)").fill("Nic");
    await page.getByRole("button", { name: "Prześlij obraz" }).click();
    await page.getByRole("alert").filter({ hasText: "nie jest obrazem JPEG, PNG ani WebP" }).waitFor();
    // A few hundred bytes whose header declares ten billion pixels: refused, nothing kept.
    await page
      .getByLabel(/^Plik/)
      .setInputFiles({ name: "bomba.png", mimeType: "image/png", buffer: png(8, 8, [0, 0, 0], [100000, 100000]) });
    await page.getByRole("button", { name: "Prześlij obraz" }).click();
    await page.getByRole("alert").filter({ hasText: "100000 × 100000 pikseli" }).waitFor();
    assert.equal(await page.getByText("bomba.png").count(), 0);
    await page
      .getByLabel(/^Plik/)
      .setInputFiles({ name: "Gabinet w słońcu.png", mimeType: "image/png", buffer: png(320, 180, [222, 184, 120]) });
    await page.getByLabel("Tekst alternatywny (co przedstawia obraz)").fill("Gabinet w popołudniowym słońcu");
    await page.getByRole("button", { name: "Prześlij obraz" }).click();
    await saved(page, "Przesłano obraz gabinet-w-sloncu.png.");
    await page.getByRole("button", { name: "Strony" }).click();
    await openTab(page, "Terapia online – czy działa jak w gabinecie?");
    await openSettings(page);
    await page
      .getByRole("group", { name: "Obraz główny" })
      .getByRole("radio", { name: "Gabinet w popołudniowym słońcu" })
      .check();
    await page.getByRole("button", { name: /Użyj tekstu podanego przy przesłaniu/ }).click();
    await until(
      () => page.getByLabel("Tekst alternatywny obrazu").inputValue(),
      "Gabinet w popołudniowym słońcu",
      "the upload's text is the picture's",
    );
    await page.getByRole("button", { name: "Zapisz zmiany" }).click();
    await saved(page);
    const visitor = await openPage(browser);
    await visitor.goto(`${site.base}/blog/terapia-online`);
    const hero = visitor.locator("article img").first();
    assert.equal(await hero.getAttribute("alt"), "Gabinet w popołudniowym słońcu");
    const source = (await hero.getAttribute("src")) + " " + ((await hero.getAttribute("srcset")) ?? "");
    assert.match(source, /gabinet-w-sloncu/);
    await visitor.waitForFunction(() => document.querySelector("article img")?.naturalWidth > 0);
    assert.deepEqual(visitor.problems, []);
    await visitor.context().close();
    // A picture an article shows cannot be deleted; the panel says which article.
    await page.getByRole("button", { name: "Obrazy" }).click();
    await page.getByRole("button", { name: "Usuń obraz gabinet-w-sloncu.png" }).click();
    await page.getByRole("alert").filter({ hasText: "pokazują go: Terapia online" }).waitFor();
    await page.context().close();
  });
});
