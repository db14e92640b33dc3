// Every path a visitor takes ends in a call that connects, at 390 and 1280 px: 'Zadzwoń do
// gabinetu' dials even while the telephony provider hangs, and 'Zamów oddzwonienie' says within
// 3 s that its form did not come, with the number; every crisis number in the texts of the
// crisis, youth, standards and article pages is a tel: link; the call control closes on public
// holidays (Christmas 2026, Easter Monday 2027) like at night; a 15-year-old's pages offer
// 116 111 and the standards; every booking button says where it leads before the tap; the
// phone field takes the ways people write a number; and the page stays light (nothing of React
// before the load event, the booking chunk on idle after it, a tap before it pressed at once).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { violations } from "./axe.mjs";
import { launchBrowser, openPage, providers, siteValue, slugs, startSite } from "./harness.mjs";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const WIDTHS = [PHONE, DESKTOP];
/** A Monday morning in Warsaw: the practice is open (site.yaml: Mon–Thu 9–20, Fri 9–16). */
const OPEN = new Date("2026-11-30T10:00:00+01:00");
/** Christmas Day 2026 is a Friday; Easter Monday 2027 is 29 March: both working days' hours. */
const CHRISTMAS = new Date("2026-12-25T12:00:00+01:00");
const EASTER_MONDAY = new Date("2027-03-29T12:00:00+02:00");
/** The crisis lines (content::crisis::list()), as texts may write them. */
const CRISIS =
  /(?<![\d/.@])(?<!\d[ \u00a0])(800[ \u00a0-]?12[ \u00a0-]?12[ \u00a0-]?12|800[ \u00a0-]?120[ \u00a0-]?002|800[ \u00a0-]?70[ \u00a0-]?2222|116[ \u00a0-]?123|116[ \u00a0-]?111|112)(?![\d]|\.[a-z]|[ \u00a0]\d)/g;
const practicePhone = siteValue("phone");
const telephony = providers().telephonyScript;

let site;
let browser;
before(async () => {
  site = await startSite();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

async function pageAt(viewport, moment = OPEN, options = {}) {
  const page = await openPage(browser, viewport, options);
  await page.clock.setFixedTime(moment);
  return page;
}

/**
 * Records whether the next click's default action was prevented by the page, and then
 * prevents it itself (a tel: link would leave the page): a listener on the window, added last,
 * runs after every listener of the page.
 */
function watchDefault(page) {
  return page.evaluate(() => {
    window.__prevented = null;
    window.addEventListener(
      "click",
      (event) => {
        window.__prevented = event.defaultPrevented;
        event.preventDefault();
      },
      { once: true },
    );
  });
}

describe("a call that connects", () => {
  test("with the telephony script hanging, 'Zadzwoń do gabinetu' dials and 'Zamów oddzwonienie' says within 3 s that it did not come, with the number", async () => {
    for (const viewport of WIDTHS) {
      const page = await pageAt(viewport);
      let asked = 0;
      // The provider's script is asked for and never answered.
      await page.context().route(`${new URL(telephony).origin}/**`, () => {
        asked += 1;
      });
      await page.goto(`${site.base}/uslugi`);
      const control = page.getByRole("complementary", { name: "Telefon" });
      const call = control.getByRole("link", { name: /^Zadzwoń do gabinetu/ });
      assert.equal(await call.getAttribute("href"), `tel:${practicePhone.replace(/ /g, "")}`);
      await watchDefault(page);
      await call.click();
      assert.equal(await page.evaluate(() => window.__prevented), false, `${viewport.width}: the tap dials`);
      assert.equal(asked, 0, "calling loads nothing from the provider");

      const callback = control.getByRole("button", { name: "Zamów oddzwonienie" });
      assert.equal(await callback.isVisible(), true);
      const status = control.locator("[data-call-status]");
      await callback.click();
      assert.match(await status.innerText(), /Otwieram formularz oddzwonienia/, "said at once");
      await page.waitForFunction(() => /3 sekund/.test(document.querySelector(".call [data-call-status]").textContent));
      assert.equal(asked, 1, "the callback form was asked for once");
      assert.match(await status.innerText(), /nie wczytał się w ciągu 3 sekund/);
      const number = status.getByRole("link", { name: practicePhone });
      assert.equal(await number.getAttribute("href"), `tel:${practicePhone.replace(/ /g, "")}`);
      assert.equal(await number.isVisible(), true, `${viewport.width}: the number is offered`);
      // A second tap tries again, and says the same if the provider still hangs.
      await callback.click();
      await page.waitForFunction(() => /Otwieram/.test(document.querySelector(".call [data-call-status]").textContent));
      await page.waitForFunction(() => /3 sekund/.test(document.querySelector(".call [data-call-status]").textContent));
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
  });

  test("from the list of numbers, 'Zadzwoń do gabinetu' dials the practice", async () => {
    const page = await pageAt(PHONE, new Date("2026-11-30T21:30:00+01:00"));
    await page.goto(`${site.base}/cennik`);
    await page.getByRole("button", { name: /^Telefony pomocy/ }).click();
    const link = page.locator("#call-panel").getByRole("link", { name: "Zadzwoń do gabinetu" });
    assert.equal(await link.getAttribute("href"), `tel:${practicePhone.replace(/ /g, "")}`);
    await watchDefault(page);
    await link.click();
    assert.equal(await page.evaluate(() => window.__prevented), false);
    await page.context().close();
  });

  test("on Christmas Day 2026 and Easter Monday 2027 at noon the control offers the crisis numbers, as at night", async () => {
    for (const [moment, when] of [
      [CHRISTMAS, "gabinet czynny od pon. 9:00"],
      [EASTER_MONDAY, "gabinet czynny jutro od 9:00"],
    ]) {
      for (const viewport of WIDTHS) {
        const at = `${moment.toISOString()} @${viewport.width}`;
        const page = await pageAt(viewport, moment, { timezoneId: "UTC" });
        await page.goto(`${site.base}/o-mnie`);
        assert.equal(await page.locator("[data-call='practice']").isVisible(), false, at);
        assert.equal(await page.locator("[data-callback]").isVisible(), false, at);
        const help = page.getByRole("button", { name: `Telefony pomocy, ${when}`, exact: true });
        assert.equal(await help.isVisible(), true, at);
        await help.click();
        const panel = page.locator("#call-panel");
        const links = await panel.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
        assert.deepEqual(links.slice(0, 4), ["tel:112", "tel:800702222", "tel:116123", "tel:116111"], at);
        assert.match(
          await panel.innerText(),
          /116\u00a0123\s+telefon zaufania dla dorosłych w kryzysie emocjonalnym, całodobowo/,
        );
        await page.context().close();
      }
    }
    // The working day after is an ordinary one.
    const page = await pageAt(DESKTOP, new Date("2027-03-30T10:00:00+02:00"));
    await page.goto(`${site.base}/o-mnie`);
    assert.equal(await page.getByRole("link", { name: "Zadzwoń do gabinetu, dziś 9:00–20:00" }).isVisible(), true);
    await page.context().close();
  });
});

describe("the new states pass axe", () => {
  test("the callback that did not come, the list on a holiday and the youth pages, at both widths", async () => {
    const found = [];
    for (const viewport of WIDTHS) {
      // axe runs as an injected script: this context bypasses the site's CSP.
      const page = await pageAt(viewport, OPEN, { bypassCSP: true });
      await page.context().route(`${new URL(telephony).origin}/**`, () => undefined);
      await page.goto(`${site.base}/uslugi/wsparcie-dla-mlodziezy`);
      found.push(...(await violations(page, `youth service @${viewport.width}`)));
      await page.getByRole("button", { name: "Zamów oddzwonienie" }).click();
      await page.waitForFunction(() => /3 sekund/.test(document.querySelector(".call [data-call-status]").textContent));
      found.push(...(await violations(page, `callback that did not come @${viewport.width}`)));
      await page.context().close();
      const holiday = await pageAt(viewport, CHRISTMAS, { bypassCSP: true });
      await holiday.goto(`${site.base}/standardy-ochrony-maloletnich`);
      await holiday.getByRole("button", { name: /^Telefony pomocy/ }).click();
      found.push(...(await violations(holiday, `list on Christmas Day @${viewport.width}`)));
      await holiday.context().close();
    }
    assert.deepEqual(found, []);
  });
});

describe("crisis numbers that dial", () => {
  const routes = [
    "/pilna-pomoc",
    "/uslugi/interwencja-kryzysowa",
    "/uslugi/wsparcie-dla-mlodziezy",
    "/standardy-ochrony-maloletnich",
    ...slugs("blog").map((s) => `/blog/${s}`),
  ];

  test("every crisis number in the main text of the crisis, youth, standards and article pages is inside a tel: link that dials it", async () => {
    const bare = [];
    let linked = 0;
    const page = await pageAt(DESKTOP);
    for (const route of routes) {
      await page.goto(site.base + route);
      const found = await page.evaluate((source) => {
        const pattern = new RegExp(source, "g");
        const out = [];
        const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
        // Numbers split over text nodes (a bold part) are read with their neighbours.
        const blocks = new Set();
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          blocks.add(
            n.parentElement.closest("p, li, td, h1, h2, h3, dd, dt, figcaption, blockquote") ?? n.parentElement,
          );
        }
        for (const block of blocks) {
          const text = block.textContent;
          for (const m of text.matchAll(pattern)) {
            // The element holding the number's first character.
            let at = m.index;
            let node = null;
            const inner = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
            for (let t = inner.nextNode(); t; t = inner.nextNode()) {
              if (at < t.textContent.length) {
                node = t;
                break;
              }
              at -= t.textContent.length;
            }
            const link = node?.parentElement.closest("a");
            const dials = link?.getAttribute("href") ?? "";
            out.push({ number: m[0], href: dials, context: text.slice(Math.max(0, m.index - 30), m.index + 20) });
          }
        }
        return out;
      }, CRISIS.source);
      for (const f of found) {
        if (f.href === `tel:${f.number.replace(/\D/g, "")}`) linked += 1;
        else bare.push(`${route}: ${f.number} (${f.href || "no link"}) in "…${f.context}…"`);
      }
    }
    assert.deepEqual(bare, []);
    assert.ok(linked > 40, `the numbers were found (${linked})`);
    await page.context().close();
  });
});

describe("a 15-year-old's path", () => {
  test("youth pages offer 116 111 in the strip, others the adults' 116 123", async () => {
    for (const viewport of WIDTHS) {
      const page = await pageAt(viewport);
      for (const [route, line] of [
        ["/uslugi/wsparcie-dla-mlodziezy", "tel:116111"],
        ["/standardy-ochrony-maloletnich", "tel:116111"],
        ["/uslugi/terapia-par", "tel:116123"],
        ["/", "tel:116123"],
      ]) {
        await page.goto(site.base + route);
        const strip = await page
          .locator(".crisis-bar a[href^='tel:']")
          .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
        assert.deepEqual(strip, ["tel:112", line], `${route} @${viewport.width}`);
        assert.equal(await page.locator(`.crisis-bar a[href="${line}"]`).isVisible(), true);
      }
      await page.context().close();
    }
  });

  test("the youth service page links the standards in its first screen, and their short version says what stays between them and the psychologist", async () => {
    for (const viewport of WIDTHS) {
      const page = await pageAt(viewport);
      await page.goto(`${site.base}/uslugi/wsparcie-dla-mlodziezy`);
      const link = page
        .locator("main .page-hero")
        .getByRole("link", { name: /Co zostaje między Tobą a\spsychologiem/ });
      assert.equal(await link.getAttribute("href"), "/standardy-ochrony-maloletnich");
      const box = await link.boundingBox();
      assert.ok(
        box && box.y + box.height <= viewport.height - 56,
        `${viewport.width}: in the first screen ${JSON.stringify(box)}`,
      );
      await link.click();
      await page.waitForURL(/standardy-ochrony-maloletnich/);
      const short = page.locator("main .callout").first();
      assert.match(await short.innerText(), /Co zostaje między Tobą a\spsychologiem\?/);
      assert.ok((await short.locator('a[href="tel:116111"]').count()) >= 1, "116 111 dials");
      assert.equal(await short.locator('a[href="https://116111.pl"]').count(), 1, "116 111's chat");
      await page.context().close();
    }
  });
});

describe("booking that says where it leads", () => {
  test("every booking button of every page kind names its platform before the tap, at both widths", async () => {
    const routes = ["/", "/o-mnie", "/cennik", "/uslugi/coaching-adhd", "/uslugi/terapia-par", "/blog/terapia-cbt"];
    const silent = [];
    for (const viewport of WIDTHS) {
      const page = await pageAt(viewport);
      for (const route of routes) {
        await page.goto(site.base + route);
        if (viewport === PHONE) await page.getByRole("button", { name: "Otwórz menu" }).click();
        const buttons = await page.locator("a.btn").evaluateAll((as) =>
          as
            .filter((a) => /^Umów/.test(a.textContent.trim()) && a.getClientRects().length > 0)
            .map((a) => {
              const note = document.getElementById(a.getAttribute("aria-describedby") ?? "");
              const shown = note && note.getClientRects().length > 0 && getComputedStyle(note).visibility !== "hidden";
              return { button: a.textContent.trim().slice(0, 30), note: shown ? note.textContent.trim() : null };
            }),
        );
        assert.ok(buttons.length > 0, `${route} @${viewport.width}: booking buttons`);
        for (const b of buttons) {
          if (!b.note || !/Booksy|ZnanyLekarz/.test(b.note))
            silent.push(`${route} @${viewport.width}: ${JSON.stringify(b)}`);
        }
        if (viewport === PHONE) await page.keyboard.press("Escape");
      }
      await page.context().close();
    }
    assert.deepEqual(silent, []);
  });

  test("the phone menu offers 'Kontakt'", async () => {
    const page = await pageAt(PHONE);
    await page.goto(`${site.base}/blog`);
    await page.getByRole("button", { name: "Otwórz menu" }).click();
    const contact = page.locator("#mobile-menu").getByRole("link", { name: "Kontakt", exact: true });
    assert.equal(await contact.getAttribute("href"), "/#contact");
    await contact.click();
    await page.waitForURL(/\/#contact$/);
    assert.equal(await page.locator("#mobile-menu").isVisible(), false);
    await page.context().close();
  });

  // These pages keep the real clock: Playwright's fake one stands in for `performance` too.
  test("a service page fetches its booking chunk on idle after the load event, and a tap before it is pressed at once", async () => {
    const page = await openPage(browser, PHONE);
    let release;
    const held = new Promise((r) => (release = r));
    const chunks = [];
    await page.route("**/assets/islands/**", async (route) => {
      const url = route.request().url();
      if (/BookingButton|\/chunks\//.test(url)) {
        chunks.push(url);
        await held;
      }
      await route.continue();
    });
    await page.goto(`${site.base}/uslugi/terapia-par`, { waitUntil: "load" });
    const loadedAt = await page.evaluate(() => performance.getEntriesByType("navigation")[0].loadEventStart);
    // The chunk is asked for on idle after the load event, and held: a tap comes first.
    await page.waitForFunction(() => document.querySelector(".island")?.dataset.hydrated === "loading");
    const button = page.locator(".island a.btn").first();
    await button.click();
    const island = page.locator(".island").first();
    assert.equal(await island.getAttribute("data-pressed"), "true", "pressed at once");
    assert.equal(await island.getAttribute("aria-busy"), "true");
    assert.ok(chunks.length > 0, "the chunk was asked for");
    const starts = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter((e) => /BookingButton|\/chunks\//.test(e.name))
        .map((e) => e.startTime),
    );
    release();
    await page.getByRole("dialog", { name: "Umów wizytę" }).waitFor();
    assert.equal(await island.getAttribute("data-pressed"), null);
    assert.ok(
      starts.every((t) => t >= loadedAt),
      `nothing of the island before the load event (${loadedAt}): ${starts}`,
    );
    await page.context().close();
  });

  test("without a tap, the booking chunk comes on idle after the load event", async () => {
    const page = await openPage(browser, DESKTOP);
    await page.goto(`${site.base}/uslugi/terapia-par`, { waitUntil: "load" });
    await page.locator('.island[data-hydrated="true"]').first().waitFor();
    const { load, starts } = await page.evaluate(() => ({
      load: performance.getEntriesByType("navigation")[0].loadEventStart,
      starts: performance
        .getEntriesByType("resource")
        .filter((e) => /\/assets\/islands\/(BookingButton|chunks)/.test(e.name))
        .map((e) => e.startTime),
    }));
    assert.ok(starts.length > 0);
    assert.ok(
      starts.every((t) => t >= load),
      `after the load event (${load}): ${starts}`,
    );
    await page.context().close();
  });
});

describe("the contact form", () => {
  const WAYS = ["600100200", "600 100 200", "600-100-200", "+48 600 100 200", "48600100200", "(+48) 600-100-200"];

  async function formPage(viewport) {
    const page = await pageAt(viewport);
    await page.goto(`${site.base}/#contact`);
    await page.locator('[data-island="ContactForm"][data-hydrated="true"]').waitFor();
    return page;
  }

  test("takes the ways people write a number with +48 chosen, and says the SPEC's rule only on leaving the field", async () => {
    for (const viewport of WIDTHS) {
      const page = await formPage(viewport);
      const phone = page.getByLabel("Telefon (opcjonalnie)");
      const error = page.locator("#contact-phone-error");
      await phone.click();
      await phone.pressSequentially("6");
      assert.equal(await error.count(), 0, "no error after the first digit");
      await phone.pressSequentially("0010");
      await page.getByLabel("Wiadomość").click();
      assert.equal(await error.innerText(), "Numer telefonu powinien składać się z 9 cyfr", "on leaving the field");
      assert.equal(await phone.getAttribute("aria-invalid"), "true");
      for (const typed of WAYS) {
        await phone.fill(typed);
        await page.getByLabel("Wiadomość").click();
        assert.equal(await error.count(), 0, `${typed} @${viewport.width}`);
        assert.equal(await phone.inputValue(), typed, "what was typed stays as typed");
      }
      await page.context().close();
    }
  });

  test("sends the number as digits with its code, as the server keeps it", async () => {
    const page = await formPage(DESKTOP);
    const sent = [];
    await page.route("**/api/contact", async (route) => {
      sent.push(JSON.parse(route.request().postData()));
      await route.fulfill({ status: 200, contentType: "application/json", body: '{"ok":true}' });
    });
    for (const typed of WAYS.slice(1)) {
      await page.getByLabel("Imię", { exact: true }).fill("Anna");
      await page.getByLabel("E-mail").fill("anna@example.pl");
      await page.getByLabel("Telefon (opcjonalnie)").fill(typed);
      await page.getByLabel("Wiadomość").fill("Dzień dobry, proszę o telefon.");
      await page.getByRole("button", { name: "Wyślij wiadomość" }).click();
      await page.locator(".contact-form .form-notice-success").waitFor();
    }
    assert.deepEqual(
      sent.map((b) => [b.phone, b.fullPhone]),
      WAYS.slice(1).map(() => ["600100200", "+48600100200"]),
    );
    await page.context().close();
  });

  test("the spam timer starts with the page: its token is asked for at load, before the form is near", async () => {
    const page = await openPage(browser, PHONE);
    const asked = [];
    page.on("request", (r) => r.url().endsWith("/api/contact/token") && asked.push(r.url()));
    await page.goto(`${site.base}/`, { waitUntil: "load" });
    await page.waitForFunction(() =>
      performance.getEntriesByType("resource").some((e) => e.name.endsWith("/api/contact/token")),
    );
    assert.equal(
      await page.locator('[data-island="ContactForm"]').getAttribute("data-hydrated"),
      null,
      "the form is far below",
    );
    assert.equal(asked.length, 1);
    await page.locator("#contact").scrollIntoViewIfNeeded();
    await page.locator('[data-island="ContactForm"][data-hydrated="true"]').waitFor();
    // A token the hydrated form asked for would have been asked for by two frames later.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    assert.equal(asked.length, 1, "the form takes the page's token, not a new one");
    await page.context().close();
  });

  test("the public form's scripts carry nothing of the panel", async () => {
    const page = await pageAt(DESKTOP);
    const bodies = [];
    page.on("response", async (r) => {
      if (r.request().resourceType() === "script" && r.url().startsWith(site.base)) bodies.push(await r.text());
    });
    await page.goto(`${site.base}/#contact`);
    await page.locator('[data-island="ContactForm"][data-hydrated="true"]').waitFor();
    await page.waitForLoadState("networkidle");
    const all = bodies.join("\n");
    assert.match(all, /Numer telefonu powinien/, "the form's rules are there");
    for (const panel of ["Kopia zapasowa", "Zmiana danych gabinetu", "AUDIT", "Panel Administracyjny"]) {
      assert.ok(!all.includes(panel), `no "${panel}" in the public scripts`);
    }
    await page.context().close();
  });
});
