// The site's own statistics in a real browser, as the site ships (no analytics tag): a visitor
// reads three pages, taps a booking button and a crisis number and sends a message, and gets no
// cookie, nothing in localStorage and no banner, while nothing leaves for another host before a
// tap; a visitor whose browser sends `DNT: 1` is not counted; 'Statystyki' then shows the
// visit at 1280 and 390 px (axe clean, screenshots to $SHOTS), and no byte under DATA_DIR holds
// the visitor's address or user agent, nor does the log or the CSV export. An address that does
// not exist and a booking calendar that does not load reach 'Statystyki' too.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { violations } from "./axe.mjs";
import { bookingModel, launchBrowser, openPage, signIn, slugs, startSite, waitFor } from "./harness.mjs";

const ADMIN = "magda@gabinet-harmonia.pl";
const PASSWORD = "hasło panelu do testów statystyk";
// The visitor comes through the edge (a trusted proxy) from an address and with a browser that
// a test can look for in every byte the server keeps.
const ADDRESS = "198.51.100.23";
const AGENT =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36 Odwiedzajaca-Testowa/1.0";
const shots = process.env.SHOTS ?? join(tmpdir(), "harmonia-stats-shots");

let site;
let browser;
before(async () => {
  site = await startSite(undefined, {
    ADMIN_EMAIL: ADMIN,
    ADMIN_PASSWORD: PASSWORD,
    TRUSTED_PROXIES: "127.0.0.1",
    CONTACT_MIN_SECONDS: "0",
    // Every request in the log, so that the test can look for the visitor in it too.
    RUST_LOG: "info",
  });
  browser = await launchBrowser();
  mkdirSync(shots, { recursive: true });
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

function visitorPage(viewport, headers = {}) {
  return openPage(browser, viewport, {
    // Nothing chosen or stored beforehand (no consent, no panel editor's view): the site as a
    // first visitor meets it.
    askConsent: true,
    visualEditor: true,
    userAgent: AGENT,
    extraHTTPHeaders: { "X-Forwarded-For": ADDRESS, ...headers },
  });
}

/**
 * The page's beacon of `kind`, settled once the sidecar has answered it: a beacon that has only
 * left may still be on its way when 'Statystyki' reads the counts.
 */
function beacon(page, kind) {
  const answered = page.waitForResponse(
    (r) => r.url().endsWith("/api/event") && r.request().postData()?.includes(`"e":"${kind}"`),
  );
  return answered.then((response) => {
    assert.ok(response.ok(), `the ${kind} beacon was refused: ${response.status()}`);
    return response.request();
  });
}

/** Waits until the page's beacon of its view (sent after the load event) has been counted. */
async function read(page, path) {
  const counted = beacon(page, "view");
  await page.goto(`${site.base}${path}`);
  await counted;
}

function everyFile(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? everyFile(path) : [path];
  });
}

async function openStatistics(viewport) {
  const page = await openPage(browser, viewport, { bypassCSP: true });
  await signIn(page, site.panel, ADMIN, PASSWORD);
  await page.getByRole("button", { name: "Statystyki" }).click();
  await page.getByRole("heading", { name: "Statystyki", level: 2 }).waitFor();
  return page;
}

/** The figure of the summary named `label`. */
async function figure(page, label) {
  const card = page.locator(".stats-summary > div").filter({ has: page.locator("dt", { hasText: label }) });
  return Number((await card.locator("strong").innerText()).replace(/\s/g, ""));
}

describe("statistics without cookies", () => {
  test("a visit is counted as sums, with nothing stored in the browser and nothing sent elsewhere", async () => {
    const page = await visitorPage({ width: 390, height: 844 });
    const elsewhere = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(site.base) && !r.url().startsWith("data:")) elsewhere.push(r.url());
    });
    await read(page, "/");
    await read(page, "/cennik");
    await read(page, "/blog/terapia-cbt");
    assert.deepEqual(elsewhere, [], "no request leaves for another host before a tap");
    // The beacon may go to the site's own origin only: no analytics host is allowed to connect.
    const csp = (await page.request.get(`${site.base}/`)).headers()["content-security-policy"];
    const connect = csp.split(";").find((d) => d.trim().startsWith("connect-src"));
    assert.match(connect, /'self'/);
    assert.doesNotMatch(connect, /google|analytics|plausible|umami|goatcounter/i, connect);
    assert.equal(await page.locator("#consent").count(), 0, "no banner: nothing to consent to");
    assert.equal(await page.locator("[data-consent-open]").count(), 0, "no 'Ustawienia cookies'");

    // A booking button (it opens the platform's page in a new tab) and a crisis number.
    const booked = beacon(page, "book");
    const popup = page.waitForEvent("popup");
    await page.locator(".nav-book").click();
    await booked;
    await (await popup).close();
    await page.evaluate(() =>
      document.addEventListener("click", (e) => e.target.closest?.("a[href^='tel:']") && e.preventDefault()),
    );
    const crisis = beacon(page, "crisis");
    await page.locator(".crisis-bar a[href='tel:116123']").click();
    await crisis;

    // A message from the home page's form.
    await page.goto(`${site.base}/#contact`);
    await page.waitForSelector('[data-island="ContactForm"][data-hydrated="true"]');
    await page.getByLabel("Imię", { exact: true }).fill("Anna Kowalska");
    await page.getByLabel("E-mail").fill("anna@example.pl");
    await page.getByLabel("Wiadomość").fill("Dzień dobry, chciałabym umówić konsultację.");
    await page.locator(".contact-form button[type=submit]").click();
    await page.getByText("Wiadomość wysłana!").first().waitFor();

    assert.deepEqual(await page.context().cookies(), [], "no cookie");
    assert.deepEqual(await page.evaluate(() => Object.keys(localStorage)), [], "nothing in localStorage");
    assert.deepEqual(page.problems, []);
    await page.context().close();

    // Do-Not-Track: read, not counted.
    const private_ = await visitorPage({ width: 1280, height: 900 }, { DNT: "1" });
    await read(private_, "/o-mnie");
    await private_.context().close();

    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const panel = await openStatistics(viewport);
      await waitFor(async () => (await figure(panel, "Wyświetlenia stron")) === 4, "the four pages counted");
      assert.equal(await figure(panel, "Odwiedzający"), 1);
      assert.equal(await figure(panel, "Kliknięcia „Umów wizytę”"), 1);
      assert.equal(await figure(panel, "Kliknięcia numerów pomocy"), 1);
      assert.equal(await figure(panel, "Wysłane wiadomości"), 1);
      const pages = panel.getByRole("region", { name: "Najczęściej czytane strony" });
      assert.match(await pages.innerText(), /Cennik/);
      assert.doesNotMatch(await pages.innerText(), /O nas|\/o-mnie/, "the DNT visit is not there");
      const articles = panel.getByRole("region", { name: "Najczęściej czytane artykuły" });
      assert.match(await articles.innerText(), /\/blog\/terapia-cbt\s+1/);
      const crisisList = panel.getByRole("region", { name: "Kliknięcia numerów pomocy" });
      assert.match(await crisisList.innerText(), /116 123\s+1/);
      const bookings = panel.getByRole("region", { name: "Kliknięcia „Umów wizytę” według kalendarza" });
      assert.match(await bookings.innerText(), /Booksy · gabinet\s+1/);
      const trend = panel.getByRole("region", { name: "Odwiedzający i wyświetlenia stron" });
      assert.equal(await trend.locator("svg[role=img]").count(), 1, "a chart");
      const today = trend.locator("tbody tr").first();
      assert.match(await today.innerText(), /\t1\s+\(wcześniej 0\)\s+4\s+\(wcześniej 0\)/, "the table says the same");
      const wide = await panel.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= viewport.width, `nothing wider than the screen (${wide} px)`);
      await panel.getByRole("button", { name: "Tygodnie" }).click();
      await panel.getByRole("button", { name: "Tygodnie", pressed: true }).waitFor();
      await waitFor(async () => (await trend.locator("tbody tr").count()) === 12, "twelve weeks");
      await panel.getByRole("button", { name: "Dni", exact: true }).click();
      if (viewport.width === 1280) {
        // The CSV: the same counts, for a spreadsheet.
        const download = panel.waitForEvent("download");
        await panel.getByRole("button", { name: "Pobierz CSV" }).click();
        const csv = readFileSync(await (await download).path(), "utf8");
        assert.match(csv, /;wyświetlenie strony;\/cennik;;telefon;;1\r\n/);
        assert.match(csv, /;kliknięcie numeru pomocy;[^;]*;;telefon;116123;1\r\n/);
        assert.equal(csv.includes(ADDRESS) || csv.includes("Odwiedzajaca-Testowa"), false);
      }
      await panel.screenshot({ path: join(shots, `statystyki-${viewport.width}.png`), fullPage: true });
      assert.deepEqual(await violations(panel, `Statystyki ${viewport.width}`), []);
      assert.deepEqual(panel.problems, []);
      await panel.context().close();
    }

    // Every byte the server keeps, and its log: no address, no user agent of the visitor.
    const octets = Buffer.from(ADDRESS.split(".").map(Number));
    const log = site.log.join("");
    assert.match(log, /\/api\/event/, "the log has the beacons' requests");
    for (const trace of [ADDRESS, "Odwiedzajaca-Testowa", "Pixel 8"])
      assert.equal(log.includes(trace), false, `the log holds ${trace}`);
    for (const file of everyFile(site.dataDir)) {
      const bytes = readFileSync(file);
      assert.equal(bytes.indexOf(ADDRESS), -1, `${file} holds the address`);
      assert.equal(bytes.indexOf(octets), -1, `${file} holds the address as bytes`);
      assert.equal(bytes.indexOf("Odwiedzajaca-Testowa"), -1, `${file} holds the user agent`);
      assert.equal(bytes.indexOf("Pixel 8"), -1, `${file} holds the user agent`);
    }
  });

  test("an address that does not exist and a booking calendar that did not load are counted, with the address", async () => {
    // ZnanyLekarz's calendar cannot load here (no external host is reachable).
    const booking = bookingModel();
    const slug = slugs("services").find((s) => booking.target(s).doctorId);
    const page = await visitorPage({ width: 390, height: 844 });
    const event = (kind) => beacon(page, kind);
    const missing = event("404");
    await page.goto(`${site.base}/stara-strona-gabinetu`);
    assert.equal(JSON.parse((await missing).postData()).p, "/stara-strona-gabinetu", "the address asked for");
    await read(page, `/uslugi/${slug}`);
    const failed = event("widget");
    await page.locator(".island a.btn").first().click();
    await page.getByRole("dialog", { name: "Umów wizytę" }).locator(".widget-fallback").waitFor();
    await failed;
    await page.context().close();

    const panel = await openStatistics({ width: 1280, height: 900 });
    const notFound = panel.getByRole("region", { name: "Adresy, których nie ma na stronie" });
    await waitFor(async () => /\/stara-strona-gabinetu\s+1/.test(await notFound.innerText()), "the missing address");
    const widgets = panel.getByRole("region", { name: "Kalendarze, które się nie wczytały" });
    assert.match(await widgets.innerText(), /kalendarz w oknie „Umów wizytę”\s+1/);
    assert.deepEqual(panel.problems, []);
    await panel.context().close();
  });
});
