// A person in distress finds help in one tap, and the call control and the cookie banner, as visitors meet them at 390 and 1280 px: crisis numbers one tap away on every page
// kind, the call control on every route and never over a control, saying whom it calls and
// when (with a fixed clock, in Warsaw time), booking buttons that say where they lead,
// failures that explain themselves, the 404 page's way on, focus rings of at least 3:1 and a
// cookie banner that keeps the navigation and the heroes' buttons clear.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  bookingModel,
  launchBrowser,
  openPage,
  providers,
  publicRoutes,
  repoRoot,
  siteValue,
  slugs,
  startSite,
  until,
} from "./harness.mjs";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const WIDTHS = [PHONE, DESKTOP];
/** Moments in Warsaw: the practice is open Mon–Thu 9–20, Fri 9–16 (site.yaml). */
const MONDAY_MORNING = new Date("2025-03-03T10:00:00+01:00");
const MONDAY_NIGHT = new Date("2025-03-03T21:30:00+01:00");
const FRIDAY_MORNING = new Date("2025-03-07T10:00:00+01:00");
const FRIDAY_EVENING = new Date("2025-03-07T16:30:00+01:00");
const CRISIS = 'a[href="tel:112"], a[href="tel:116123"]';
const CONTROLS = "a, button, input, select, textarea, summary, [tabindex]:not([tabindex='-1'])";

const booking = bookingModel();
const phone = siteValue("phone");
const telephony = providers().telephonyScript;
const teamName = (slug) =>
  readFileSync(join(repoRoot, "content", "team", `${slug}.md`), "utf8").match(/^name: "(.*)"$/m)[1];

let site;
let browser;
// The same site with the operator's analytics tag (ANALYTICS_ID), started for the cookie
// banner's tests: the site as it ships has no banner.
let tagged;
before(async () => {
  site = await startSite();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
  await tagged?.stop();
});

async function taggedSite() {
  tagged ??= await startSite(undefined, { ANALYTICS_ID: "G-7QH2KX4M1B" });
  return tagged;
}

/** A page whose clock stands at `moment` (Playwright's clock: the page's `Date`), of `on`. */
async function pageAt(viewport, moment = MONDAY_MORNING, options = {}, on = site) {
  const page = await openPage(browser, viewport, options);
  await page.clock.setFixedTime(moment);
  return page;
}

/** Whether one of the links `selector` can be tapped now: in the viewport, and on top there. */
function tappable(page, selector) {
  return page.evaluate((sel) => {
    return [...document.querySelectorAll(sel)].some((a) => {
      const r = a.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return false;
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
      const hit = document.elementFromPoint(x, y);
      return !!hit && (hit === a || a.contains(hit));
    });
  }, selector);
}

/**
 * The call control shown now: its box, whether it is on top, and the page's controls it lies
 * over (what is under its box with the control hidden: its own band — the header's strip, a
 * phone's bar — never a link, button or field). With `band`, also what the whole band lies
 * over (at the page's end: nothing, the page makes room for it).
 */
function callCheck(page, band) {
  return page.evaluate(
    ([controls, band]) => {
      const shown = document.querySelector(".call [data-call]:not([hidden])");
      if (!shown) return { shown: false };
      const r = shown.getBoundingClientRect();
      const inView =
        r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const onTop = !!hit && shown.contains(hit);
      const aside = shown.closest(".call");
      const under = (hidden, box) => {
        hidden.style.visibility = "hidden";
        const found = new Set();
        for (let x = box.left + 1; x < box.right; x += 4) {
          for (let y = box.top + 1; y < box.bottom; y += 4) {
            const control = document.elementFromPoint(x, y)?.closest(controls);
            if (control && !aside.contains(control)) found.add(control.outerHTML.slice(0, 120));
          }
        }
        hidden.style.visibility = "";
        return [...found];
      };
      const covered = under(shown, r);
      if (band) covered.push(...under(aside, aside.getBoundingClientRect()));
      return { shown: true, inView, onTop, covered, name: shown.getAttribute("aria-label") };
    },
    [CONTROLS, band],
  );
}

/** WCAG contrast of two "rgb(…)" colours. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c
      .match(/[\d.]+/g)
      .slice(0, 3)
      .map(Number);
    const ch = (v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(bl);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The focused element's ring colour and the colour it is drawn on: what is painted beside the
 * element, where the ring lies (the first opaque background under that point), so a control
 * floating over the dark strip is measured against the strip. `seen` is true for an element
 * measured before (Tab went round the page).
 */
function focusRing(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    window.__ringSeen ??= new WeakSet();
    if (window.__ringSeen.has(el)) return { seen: true };
    window.__ringSeen.add(el);
    const what = el.outerHTML.slice(0, 80);
    // A card's link draws its ring around the whole card.
    const ringed = getComputedStyle(el).outlineStyle === "none" ? el.closest(".card") : el;
    if (!ringed) return { what, ring: null };
    const style = getComputedStyle(ringed);
    const width = parseFloat(style.outlineWidth);
    const away = parseFloat(style.outlineOffset) + width / 2;
    const box = ringed.getBoundingClientRect();
    const y = Math.min(Math.max(box.top + box.height / 2, 0), innerHeight - 1);
    const x = box.left - away >= 0 ? box.left - away : box.right + away;
    let bg = null;
    for (const n of document.elementsFromPoint(x, y)) {
      if (ringed.contains(n)) continue;
      const c = getComputedStyle(n).backgroundColor;
      const alpha = c.startsWith("rgba") ? Number(c.match(/[\d.]+/g)[3]) : 1;
      if (alpha === 1) {
        bg = c;
        break;
      }
    }
    return {
      what,
      footer: !!el.closest(".site-footer"),
      ring: style.outlineStyle !== "none" && width >= 2 ? style.outlineColor : null,
      bg: bg ?? getComputedStyle(document.body).backgroundColor,
    };
  });
}

describe("help in one tap", () => {
  test("from every page kind a crisis number is one tap away at 390 and 1280 px: on screen, or in the opened menu", async () => {
    const kinds = ["/", "/o-mnie", "/uslugi", "/uslugi/terapia-par", "/cennik", "/blog", "/blog/terapia-cbt"];
    const routes = [...kinds, "/regulamin", "/polityka-prywatnosci", "/pilna-pomoc", "/m1", "/nie-ma-takiej-strony"];
    const missing = [];
    for (const viewport of WIDTHS) {
      const page = await pageAt(viewport);
      for (const route of routes) {
        await page.goto(site.base + route);
        if (await tappable(page, CRISIS)) continue;
        const menu = page.getByRole("button", { name: "Otwórz menu" });
        if (await menu.isVisible()) {
          await menu.click();
          const inMenu = await tappable(page, `#mobile-menu :is(${CRISIS})`);
          await page.keyboard.press("Escape");
          if (inMenu) continue;
        }
        missing.push(`${route} @${viewport.width}`);
      }
      await page.context().close();
    }
    assert.deepEqual(missing, []);
  });

  test("the header's strip and the phone menu offer 112 and 116 123 beside the SPEC's navigation", async () => {
    const page = await pageAt(PHONE);
    await page.goto(`${site.base}/blog`);
    const strip = page.locator(".crisis-bar");
    assert.equal(await strip.getByRole("link", { name: "Pilna pomoc" }).getAttribute("href"), "/pilna-pomoc");
    assert.equal(await strip.getByRole("link", { name: /^112/ }).getAttribute("href"), "tel:112");
    assert.equal(await strip.getByRole("link", { name: /^116 123/ }).getAttribute("href"), "tel:116123");
    const nav = page.getByRole("navigation", { name: "Główna nawigacja" });
    assert.deepEqual(
      await nav
        .locator(".nav-links a")
        .allInnerTexts()
        .then((t) => t.map((s) => s.trim())),
      ["O nas", "Usługi", "Cennik", "Blog"],
      "the navigation's links stay as they are",
    );
    await page.getByRole("button", { name: "Otwórz menu" }).click();
    const menu = page.locator("#mobile-menu");
    await until(() => menu.locator('a[href="tel:112"]').isVisible(), true, "112 in the opened menu");
    await until(() => menu.locator('a[href="tel:116123"]').isVisible(), true, "116 123 in the opened menu");
    await page.context().close();
  });

  test("/pilna-pomoc opens with the numbers as tel: links in its first screen, 112 first and largest", async () => {
    for (const viewport of WIDTHS) {
      const page = await pageAt(viewport);
      await page.goto(`${site.base}/pilna-pomoc`);
      const links = await page.locator('main a[href^="tel:"]').evaluateAll((as) =>
        as.map((a) => {
          const r = a.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return {
            href: a.getAttribute("href"),
            size: parseFloat(getComputedStyle(a).fontSize),
            onScreen: r.top >= 0 && r.bottom <= innerHeight && !!hit && a.contains(hit),
          };
        }),
      );
      const first = links.filter((l) => l.onScreen);
      assert.ok(first.length >= (viewport === PHONE ? 3 : 5), `${viewport.width}: ${JSON.stringify(first)}`);
      assert.equal(links[0].href, "tel:112", "the page opens with 112");
      assert.ok(
        links.every((l) => l.size <= links[0].size),
        `112 is the largest: ${JSON.stringify(links)}`,
      );
      await page.context().close();
    }
  });
});

describe("the call control", () => {
  test("is on every route at both widths, at the top and the bottom of the page, and covers no control", async () => {
    const problems = [];
    for (const viewport of WIDTHS) {
      const page = await pageAt(viewport);
      for (const route of [...publicRoutes(), "/nie-ma-takiej-strony"]) {
        await page.goto(site.base + route);
        for (const where of ["top", "bottom"]) {
          if (where === "bottom") {
            await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
            await page.waitForFunction(
              () => Math.ceil(window.scrollY + innerHeight) >= document.documentElement.scrollHeight - 1,
            );
          }
          const c = await callCheck(page, where === "bottom");
          const at = `${route} @${viewport.width} ${where}`;
          if (!c.shown || !c.inView || !c.onTop) problems.push(`${at}: not visible ${JSON.stringify(c)}`);
          else if (c.covered.length) problems.push(`${at}: covers ${c.covered.join(" | ")}`);
        }
      }
      await page.context().close();
    }
    assert.deepEqual(problems, []);
  });

  test("beside the strip's links on narrower wide screens, with its longest label, it covers none of them", async () => {
    const problems = [];
    for (const width of [861, 900, 1000, 1100]) {
      const page = await pageAt({ width, height: 800 }, FRIDAY_EVENING);
      await page.goto(`${site.base}/blog`);
      const c = await callCheck(page, false);
      if (!c.shown || !c.inView || !c.onTop || c.covered.length) problems.push(`${width}: ${JSON.stringify(c)}`);
      await page.context().close();
    }
    assert.deepEqual(problems, []);
  });

  test("says whom it calls and today's hours while the practice is open, in Warsaw time wherever the visitor is", async () => {
    for (const [moment, name] of [
      [MONDAY_MORNING, "Zadzwoń do gabinetu, dziś 9:00–20:00"],
      [FRIDAY_MORNING, "Zadzwoń do gabinetu, dziś 9:00–16:00"],
      // 19:30 in Warsaw in summer is 13:30 in New York and 17:30 UTC: open only by Warsaw's clock.
      [new Date("2025-07-03T19:30:00+02:00"), "Zadzwoń do gabinetu, dziś 9:00–20:00"],
    ]) {
      for (const viewport of WIDTHS) {
        const page = await pageAt(viewport, moment, { timezoneId: "America/New_York" });
        await page.goto(`${site.base}/cennik`);
        const call = page.getByRole("link", { name, exact: true });
        assert.equal(await call.isVisible(), true, `${moment.toISOString()} @${viewport.width}`);
        assert.match(await call.getAttribute("href"), /^tel:\+48/);
        assert.match(await call.innerText(), /Zadzwoń do gabinetu/);
        assert.equal(await page.locator("[data-call='help']").isVisible(), false);
        await page.context().close();
      }
    }
  });

  test("outside the hours, and on /pilna-pomoc, it offers the crisis numbers first", async () => {
    for (const [moment, route, name] of [
      [MONDAY_NIGHT, "/blog", "Telefony pomocy, gabinet czynny jutro od 9:00"],
      [FRIDAY_EVENING, "/", "Telefony pomocy, gabinet czynny od pon. 9:00"],
      // 20:30 in Warsaw in summer, 18:30 UTC: closed by Warsaw's clock.
      [new Date("2025-07-03T20:30:00+02:00"), "/o-mnie", "Telefony pomocy, gabinet czynny jutro od 9:00"],
      [MONDAY_MORNING, "/pilna-pomoc", "Telefony pomocy, gabinet czynny dziś do 20:00"],
    ]) {
      for (const viewport of WIDTHS) {
        const at = `${route} ${moment.toISOString()} @${viewport.width}`;
        const page = await pageAt(viewport, moment, { timezoneId: "UTC" });
        await page.goto(site.base + route);
        const call = page.getByRole("button", { name, exact: true });
        assert.equal(await call.isVisible(), true, at);
        assert.equal(await page.locator("[data-call='practice']").isVisible(), false, at);
        assert.equal(await call.getAttribute("aria-expanded"), "false");
        await call.click();
        await until(() => call.getAttribute("aria-expanded"), "true", `${at}: the list opens`);
        const panel = page.locator("#call-panel");
        await until(() => panel.isVisible(), true, at);
        const links = await panel.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
        assert.equal(links[0], "tel:112", `${at}: ${links}`);
        const practice = links.findIndex((h) => h.startsWith("tel:+48"));
        assert.ok(practice > links.indexOf("tel:116123"), `${at}: the crisis numbers come before the practice`);
        assert.equal(await panel.locator('a[href="tel:112"]').isVisible(), true, at);
        await page.keyboard.press("Escape");
        await until(() => panel.isVisible(), false, `${at}: Escape closes the list`);
        await until(() => call.evaluate((el) => el === document.activeElement), true, `${at}: focus comes back`);
        await page.context().close();
      }
    }
  });

  test("while the practice is open, 'Zamów oddzwonienie' stands beside the call, says at once that its form is coming, and takes nothing from the provider before", async () => {
    const page = await pageAt(PHONE);
    // The provider does not answer for now: nothing but our own feedback can show.
    let release;
    const held = new Promise((r) => (release = r));
    await page.context().route(`${new URL(telephony).origin}/**`, async (route) => {
      await held;
      await route.abort("connectionrefused");
    });
    await page.goto(`${site.base}/uslugi`);
    const callback = page.getByRole("button", { name: "Zamów oddzwonienie" });
    const status = page.locator(".call [data-call-status]");
    assert.equal(await status.innerText(), "");
    assert.equal(await page.locator(`script[src="${telephony}"]`).count(), 0);
    await callback.click();
    // It says at once what happens, and that the provider's form sets no cookie (site.yaml's
    // list says CallPage's does not).
    await until(
      () => status.innerText(),
      "Otwieram formularz oddzwonienia… Formularz nie zapisuje w przeglądarce plików cookies.",
      "the tap is answered at once",
    );
    assert.equal(await status.isVisible(), true);
    assert.equal(await status.getAttribute("role"), "status");
    await page.waitForSelector(`script[src="${telephony}"]`, { state: "attached" });
    await until(() => callback.getAttribute("aria-busy"), "true", "the control shows it is connecting");
    release();
    await page.waitForFunction(() =>
      /nie wczytał/.test(document.querySelector(".call [data-call-status]").textContent),
    );
    assert.match(await status.innerText(), new RegExp(phone.replace(/\+/g, "\\+")));
    await until(() => callback.getAttribute("data-telephony"), "failed", "the next tap dials as a link");
    await page.context().close();
  });
});

describe("failures that explain themselves", () => {
  test("the home page's calendar that cannot load leaves a sentence, the platform's link and the phone, with focus on the sentence", async () => {
    for (const viewport of WIDTHS) {
      const page = await pageAt(viewport);
      await page.goto(`${site.base}/`);
      await page.getByRole("button", { name: "Pokaż kalendarz wolnych terminów" }).click();
      const sentence = page.locator("[data-widget-fallback]");
      await page.waitForFunction(() => document.activeElement?.matches("[data-widget-fallback]"));
      assert.equal(await sentence.isVisible(), true);
      assert.match(await sentence.innerText(), /Kalendarz serwisu ZnanyLekarz się nie wczytał\./);
      const box = page.getByRole("region", { name: "Kalendarz wolnych terminów" });
      const link = box.getByRole("link", { name: /Otwórz kalendarz w\sserwisie ZnanyLekarz/ });
      assert.equal(await link.isVisible(), true);
      assert.equal(await link.getAttribute("href"), booking.facilityUrl);
      const tel = box.locator('a[href^="tel:"]');
      assert.equal(await tel.isVisible(), true);
      // The number is kept on one line by non-breaking spaces (the 'Napisy' text is typeset).
      assert.equal((await tel.innerText()).replace(/\u00a0/g, " "), phone);
      await page.context().close();
    }
  });

  test("a booking dialog whose widget cannot load says so beside the platform's link and the phone, focused", async () => {
    const slug = slugs("services").find((s) => booking.target(s).doctorId);
    const page = await pageAt(PHONE);
    await page.goto(`${site.base}/uslugi/${slug}`);
    await page.locator(".island a.btn").first().click();
    const dialog = page.getByRole("dialog", { name: "Umów wizytę" });
    await page.waitForFunction(() => document.activeElement?.matches("dialog .widget-fallback"));
    const sentence = dialog.locator(".widget-fallback");
    assert.match(await sentence.innerText(), /Kalendarz serwisu ZnanyLekarz się nie wczytał\./);
    const link = dialog.getByRole("link", { name: /Zobacz wolne terminy w serwisie ZnanyLekarz/ });
    assert.equal(await link.getAttribute("href"), booking.target(slug).url);
    assert.equal(await link.isVisible(), true);
    const tel = dialog.locator('a[href^="tel:"]');
    assert.equal(await tel.innerText(), phone);
    assert.equal(await tel.isVisible(), true);
    await page.context().close();
  });

  test("a failed send keeps a focused error in the form, with the next steps and the phone, and the text", async () => {
    for (const failure of ["server", "network"]) {
      const page = await pageAt(DESKTOP);
      await page.route("**/api/contact", (route) =>
        failure === "server"
          ? route.fulfill({ status: 500, contentType: "application/json", body: "{}" })
          : route.abort("connectionreset"),
      );
      await page.goto(`${site.base}/#contact`);
      await page.waitForSelector('[data-island="ContactForm"][data-hydrated="true"]');
      await page.getByLabel("Imię", { exact: true }).fill("Anna");
      await page.getByLabel("E-mail").fill("anna@example.pl");
      await page.getByLabel("Wiadomość").fill("Dzień dobry, proszę o kontakt.");
      await page.getByRole("button", { name: "Wyślij wiadomość" }).click();
      const notice = page.locator(".contact-form .form-notice-error");
      await page.waitForFunction(() => document.activeElement?.matches(".contact-form .form-notice-error"));
      const text = await notice.innerText();
      assert.match(text, /Błąd wysyłania/, failure);
      assert.match(text, /możesz wysłać ją ponownie/, failure);
      assert.equal(await notice.locator('a[href^="tel:"]').innerText(), phone, failure);
      assert.equal(await notice.locator('a[href="/pilna-pomoc"]').count(), 1, failure);
      assert.equal(await page.getByLabel("Wiadomość").inputValue(), "Dzień dobry, proszę o kontakt.", failure);
      assert.equal(await page.getByLabel("Imię", { exact: true }).inputValue(), "Anna", failure);
      if (failure === "server") {
        // It stays when the toast has gone.
        await until(() => page.locator(".toast").count(), 0, "the toast is gone");
        assert.equal(await notice.isVisible(), true, failure);
      }
      await page.context().close();
    }
  });

  test("the 404 page keeps the router's text and offers home, contact and crisis help in Polish", async () => {
    const page = await pageAt(PHONE);
    const response = await page.goto(`${site.base}/nie-ma-takiej-strony`);
    assert.equal(response.status(), 404);
    assert.equal(await page.locator("h1").innerText(), "Unexpected Application Error!");
    assert.equal(await page.locator(".error-text").innerText(), "404 Not Found");
    const main = page.locator("main");
    for (const [name, href] of [
      ["Wróć na stronę główną", "/"],
      ["Napisz do nas albo zadzwoń", "/#contact"],
      ["Pilna pomoc", "/pilna-pomoc"],
    ]) {
      assert.equal(await main.getByRole("link", { name, exact: true }).getAttribute("href"), href, name);
    }
    assert.equal(await main.locator('a[href="tel:116123"]').count(), 1);
    assert.equal(await main.locator('a[href="tel:112"]').count(), 1);
    await page.context().close();
  });
});

describe("booking that says where it leads", () => {
  const note = (url, who) => {
    const platform = url.startsWith(`https://${booking.listingHost}/`) ? "ZnanyLekarz" : "Booksy";
    return `Rezerwacja w serwisie ${platform}, ${who ? `kalendarz: ${teamName(who)}` : "kalendarz gabinetu"}`;
  };
  const therapistOf = (slug) => (booking.services[slug] === "practice" ? null : booking.services[slug]);
  const described = (link) =>
    link.evaluate((a) => {
      const id = a.getAttribute("aria-describedby");
      return id ? document.getElementById(id)?.textContent.replace(/\s+/g, " ").trim() : null;
    });

  test("every service page's buttons, every price row and every therapist's button name the platform and the person", async () => {
    const page = await pageAt(DESKTOP);
    for (const slug of slugs("services")) {
      await page.goto(`${site.base}/uslugi/${slug}`);
      const expected = note(booking.target(slug).url, therapistOf(slug));
      for (const button of await page.locator(".island a.btn").all()) {
        assert.equal(await described(button), expected, slug);
      }
    }
    await page.goto(`${site.base}/cennik`);
    for (const row of await page.locator(".price-row").all()) {
      const href = await row.locator(".price-name a").getAttribute("href");
      const slug = href.startsWith("/uslugi/") ? href.slice("/uslugi/".length) : null;
      const url = slug ? booking.target(slug).url : booking.practice;
      const button = row.getByRole("link", { name: /^Umów wizytę/ });
      if ((await row.locator(".price-amount").innerText()).trim() === "bezpłatnie") {
        // The free phone call dials the practice: nothing is booked, so nothing to name.
        assert.equal(await button.count(), 0, href);
        continue;
      }
      assert.equal(await described(button), note(url, slug && therapistOf(slug)), href);
      assert.match(await button.textContent(), /\(otwiera się w nowej karcie\)$/, "the new tab is announced");
    }
    await page.goto(`${site.base}/o-mnie`);
    for (const [slug, t] of Object.entries(booking.therapists)) {
      const button = page.locator(`#${slug}`).getByRole("link", { name: /^Umów się/ });
      assert.equal(await described(button), note(t.url, slug), slug);
    }
    await page.context().close();
  });

  test("links that open a new tab say so: the navigation's, the social and map links", async () => {
    const page = await pageAt(DESKTOP);
    await page.goto(`${site.base}/`);
    const silent = await page
      .locator('a[target="_blank"]')
      .evaluateAll((as) => as.filter((a) => !/nowej karcie/.test(a.textContent)).map((a) => a.outerHTML.slice(0, 100)));
    assert.deepEqual(silent, []);
    await page.context().close();
  });
});

describe("focus and space", () => {
  test("every focus ring measures at least 3:1 against what it is drawn on, the dark footer and strip included", async () => {
    const weak = [];
    let footer = 0;
    let calls = 0;
    for (const [viewport, route] of [
      [DESKTOP, "/"],
      [PHONE, "/pilna-pomoc"],
      [DESKTOP, "/blog"],
      [DESKTOP, "/m1"],
    ]) {
      const page = await pageAt(viewport, MONDAY_NIGHT);
      await page.goto(site.base + route);
      await page.locator("body").click({ position: { x: 1, y: 300 } });
      for (let i = 0; i < 250; i += 1) {
        await page.keyboard.press("Tab");
        const ring = await focusRing(page);
        if (!ring) continue;
        if (ring.seen) break;
        if (ring.footer) footer += 1;
        if (/call-button/.test(ring.what)) calls += 1;
        const ratio = ring.ring ? contrast(ring.ring, ring.bg) : 0;
        if (ratio < 3)
          weak.push(`${route} @${viewport.width}: ${ratio.toFixed(2)} ${ring.ring} on ${ring.bg} ${ring.what}`);
      }
      await page.context().close();
    }
    assert.ok(footer > 5, `the footer's links were measured (${footer})`);
    assert.equal(calls, 4, "the call control was measured on each page");
    assert.deepEqual(weak, []);
  });

  test("the cookie banner takes at most a quarter of a phone's first screen and keeps the navigation, the heading and the heroes' buttons clear", async () => {
    const overlap = (a, b) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    const tagged = await taggedSite();
    for (const viewport of [PHONE, { width: 768, height: 1024 }, { width: 1024, height: 768 }, DESKTOP]) {
      const page = await pageAt(viewport, MONDAY_MORNING, { askConsent: true }, tagged);
      for (const route of ["/", "/uslugi/terapia-par", "/cennik"]) {
        await page.goto(tagged.base + route);
        const banner = page.getByRole("dialog", { name: "Pliki cookies" });
        await banner.waitFor();
        const box = await banner.boundingBox();
        const at = `${route} @${viewport.width}`;
        if (viewport === PHONE) assert.ok(box.height <= 844 / 4, `${at}: ${box.height} px high`);
        const clear = [
          await page.locator(".site-header").boundingBox(),
          await page.locator(".call [data-call]:not([hidden])").boundingBox(),
          // The heading's words (its box spans the whole width, its text rarely does).
          ...(await page
            .locator("main h1")
            .first()
            .evaluate((h1) => {
              const range = document.createRange();
              range.selectNodeContents(h1);
              return [...range.getClientRects()].map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height }));
            })),
        ];
        for (const other of clear)
          assert.ok(!overlap(box, other), `${at}: the banner lies over ${JSON.stringify(other)}`);
        // A bottom sheet: a hero's button low on a phone's first screen may start under it, and
        // comes clear of it as soon as it is reached (the page is padded, focus scrolls clear).
        for (const button of await page.locator(".hero .actions a, .page-hero-text a.btn").all()) {
          await button.focus();
          const other = await button.boundingBox();
          assert.ok(!overlap(box, other), `${at}: the banner lies over ${JSON.stringify(other)}`);
        }
      }
      await page.context().close();
    }
  });

  test("the cookie banner takes the focus without trapping it, and is gone for good after a choice", async () => {
    const tagged = await taggedSite();
    const page = await pageAt(DESKTOP, MONDAY_MORNING, { askConsent: true }, tagged);
    await page.goto(`${tagged.base}/blog`);
    const banner = page.locator("#consent");
    await banner.waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "consent");
    await page.keyboard.press("Tab");
    await until(() => page.evaluate(() => !!document.activeElement.closest("#consent")), true, "Tab goes into it");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    await until(
      () => page.evaluate(() => !document.activeElement.closest("#consent")),
      true,
      "Shift+Tab leaves the banner",
    );
    await page.getByRole("button", { name: "Odrzucam" }).click();
    await until(() => banner.isVisible(), false, "a choice closes the banner");
    for (const route of ["/cennik", "/blog"]) {
      await page.goto(tagged.base + route);
      // The banner's script is imported after the load, and only when no choice was made: once
      // the network is quiet it would have been shown.
      await page.waitForLoadState("networkidle");
      assert.equal(await banner.isVisible(), false, `${route}: the choice holds`);
    }
    await page.context().close();
  });
});
