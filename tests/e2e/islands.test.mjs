// Islands and widgets in a real browser: the booking dialog in both modes, working links
// without JavaScript, third-party widgets loaded only when a visitor asks, with their hosts
// unreachable, /m1 analytics (the tag's and the site's own statistics') and the image fallback.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  bookingModel,
  launchBrowser,
  openPage,
  providers,
  reachFor,
  siteValue,
  slugs,
  startSite,
  telephonyId,
  until,
  waitFor,
} from "./harness.mjs";

const booking = bookingModel();
const booksyServices = slugs("services").filter((s) => !booking.target(s).doctorId);
const widgetServices = slugs("services").filter((s) => booking.target(s).doctorId);

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

async function servicePage(base, slug, options) {
  const page = await openPage(browser, { width: 1280, height: 900 }, options);
  await page.goto(`${base}/uslugi/${slug}`);
  await reachFor(page);
  return page;
}

function hydrationWarnings(page) {
  return page.problems.filter((p) => /hydrat|did not match/i.test(p));
}

/** Answers the doctor-listing platform's scripts with an empty script, and records each request. */
async function stubWidgetHost(page) {
  const asked = [];
  await page.context().route(`${booking.widgetHost}/**`, (route) => {
    asked.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "application/javascript", body: "" });
  });
  return asked;
}

describe("booking dialog of a service booked on Booksy", () => {
  test("the model has services of both kinds", () => {
    assert.ok(booksyServices.length > 0 && widgetServices.length > 0, JSON.stringify(booking.services));
  });

  test("both buttons open it with the Booksy button to the service's page, and it closes on Zamknij, Escape and the backdrop", async () => {
    for (const slug of booksyServices) {
      const page = await servicePage(site.base, slug);
      const triggers = page.locator(".island a.btn");
      assert.equal(await triggers.count(), 2, slug);
      for (let i = 0; i < 2; i += 1) {
        const trigger = triggers.nth(i);
        await trigger.scrollIntoViewIfNeeded();
        const dialog = page.getByRole("dialog", { name: "Umów wizytę" });
        for (const close of ["button", "Escape", "backdrop"]) {
          await trigger.click();
          await dialog.waitFor({ state: "visible" });
          assert.ok((await dialog.boundingBox()).width <= 600, `${slug}: at most 600 px wide`);
          assert.equal(
            await dialog.getByText("Kliknij poniższy przycisk, aby umówić wizytę przez Booksy:").isVisible(),
            true,
          );
          const booksy = dialog.getByRole("link", {
            name: "Umów wizytę przez Booksy",
          });
          assert.equal(await booksy.getAttribute("href"), booking.target(slug).url, slug);
          assert.equal(await booksy.getAttribute("target"), "_blank");
          if (close === "button") await dialog.getByRole("button", { name: "Zamknij" }).click();
          if (close === "Escape") await page.keyboard.press("Escape");
          if (close === "backdrop") await page.mouse.click(5, 450);
          await dialog.waitFor({ state: "hidden" });
          await until(
            () => trigger.evaluate((el) => el === document.activeElement),
            true,
            `${slug}: focus returns after ${close}`,
          );
        }
      }
      assert.deepEqual(hydrationWarnings(page), [], slug);
      assert.deepEqual(page.problems, [], slug);
      await page.context().close();
    }
  });

  test("keyboard focus stays inside the open dialog", async () => {
    const page = await servicePage(site.base, booksyServices[0]);
    await page.locator(".island a.btn").first().click();
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press("Tab");
      const inside = await page.evaluate(
        () =>
          !document.activeElement ||
          document.activeElement === document.body ||
          !!document.activeElement.closest("dialog"),
      );
      assert.ok(inside, `Tab ${i} leaves the dialog`);
    }
    await page.context().close();
  });

  test("a click before hydration still opens the dialog", async () => {
    const page = await openPage(browser);
    // The island's code arrives only after the click.
    let release;
    const released = new Promise((r) => (release = r));
    await page.route("**/assets/islands/BookingButton.*", async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${site.base}/uslugi/diagnoza-adhd`);
    await page.locator(".island a.btn").first().click();
    release();
    await page.getByRole("dialog", { name: "Umów wizytę" }).waitFor({ state: "visible" });
    assert.equal(new URL(page.url()).pathname, "/uslugi/diagnoza-adhd");
    await page.context().close();
  });

  test("a click while the island's chunk is still loading is held and given to it once", async () => {
    const page = await openPage(browser);
    let release;
    const released = new Promise((r) => (release = r));
    await page.route("**/assets/islands/BookingButton.*", async (route) => {
      await released;
      await route.continue();
    });
    await page.addInitScript(() => {
      window.clicks = 0;
      document.addEventListener("click", () => (window.clicks += 1));
    });
    await page.goto(`${site.base}/uslugi/diagnoza-adhd`);
    await page.locator(".island a.btn").first().hover();
    await page.waitForSelector('.island[data-hydrated="loading"]');
    await page.locator(".island a.btn").first().click();
    // Fifty turns of the event loop while the import is pending: the click is held, never repeated.
    await page.evaluate(async () => {
      for (let i = 0; i < 50; i += 1) await new Promise((r) => setTimeout(r, 0));
    });
    assert.equal(await page.evaluate(() => window.clicks), 1);
    release();
    await page.getByRole("dialog", { name: "Umów wizytę" }).waitFor({ state: "visible" });
    assert.equal(await page.evaluate(() => window.clicks), 2, "given to the island exactly once");
    await page.context().close();
  });

  test("when the island's chunk cannot load, a click follows the link as it would without JavaScript", async () => {
    const slug = booksyServices[0];
    const url = booking.target(slug).url;
    const page = await openPage(browser);
    await page.route("**/assets/islands/BookingButton.*", (route) => route.abort("blockedbyclient"));
    await page
      .context()
      .route(`${url}*`, (route) =>
        route.fulfill({ status: 200, contentType: "text/html", body: "<title>Booksy</title>" }),
      );
    await page.goto(`${site.base}/uslugi/${slug}`);
    const popup = page.context().waitForEvent("page");
    await page.locator(".island a.btn").first().click();
    const booked = await popup;
    await booked.waitForURL(url);
    await until(
      () => page.locator(".island").first().getAttribute("data-hydrated"),
      "failed",
      "the island says it failed",
    );
    assert.equal(new URL(page.url()).pathname, `/uslugi/${slug}`, "the page itself stays");
    const second = page.context().waitForEvent("page");
    await page.locator(".island a.btn").nth(1).click();
    await (await second).waitForURL(url);
    await page.context().close();
  });
});

describe("booking dialog of a service booked on the doctor-listing platform", () => {
  test("embeds the widget for the service's doctor and requests its script only when it opens", async () => {
    for (const slug of widgetServices) {
      const { url, doctorId } = booking.target(slug);
      const page = await openPage(browser, { width: 1280, height: 900 });
      const asked = await stubWidgetHost(page);
      await page.goto(`${site.base}/uslugi/${slug}`);
      await reachFor(page);
      assert.deepEqual(asked, [], `${slug}: nothing is requested from the platform before the dialog opens`);
      assert.equal(await page.locator("#zl-widget-s").count(), 0);
      await page.locator(".island a.btn").first().click();
      const dialog = page.getByRole("dialog", { name: "Umów wizytę" });
      const widget = dialog.getByRole("region", {
        name: "Widget umówienia wizyty lekarskiej",
      });
      await widget.waitFor();
      assert.equal(await widget.getAttribute("title"), "Widget umówienia wizyty lekarskiej");
      const anchor = widget.locator("a.zl-url");
      assert.equal(await anchor.getAttribute("href"), url, slug);
      assert.equal(await anchor.getAttribute("data-zlw-doctor"), doctorId, slug);
      assert.equal(await anchor.getAttribute("data-zlw-type"), "big_with_calendar");
      assert.equal(await anchor.getAttribute("data-zlw-opinion"), "false");
      assert.equal(await anchor.getAttribute("data-zlw-hide-branding"), "true");
      await page.waitForFunction(() => document.getElementById("zl-widget-s"));
      // Once the network is quiet, a second request would have been made.
      await page.waitForLoadState("networkidle");
      assert.deepEqual(asked, [`${booking.widgetHost}/js/widget.js`], `${slug}: the widget's script, once`);
      await dialog.getByRole("button", { name: "Zamknij" }).click();
      await page.locator(".island a.btn").last().click();
      await widget.waitFor();
      assert.equal(await page.locator("#zl-widget-s").count(), 1, "the script is re-inserted, not duplicated");
      assert.deepEqual(hydrationWarnings(page), [], slug);
      assert.deepEqual(page.problems, [], slug);
      await page.context().close();
    }
  });

  test("reinitialises a widget that has already loaded", async () => {
    const page = await openPage(browser);
    await page.addInitScript(() => {
      window.__widgetInits = 0;
      window.ZLWidget = { init: () => (window.__widgetInits += 1) };
    });
    await page.goto(`${site.base}/uslugi/${widgetServices[0]}`);
    const trigger = page.locator(".island a.btn").first();
    await trigger.click();
    await page.getByRole("button", { name: "Zamknij" }).click();
    await trigger.click();
    await until(() => page.evaluate(() => window.__widgetInits), 1, "the loaded widget is initialised again");
    await page.context().close();
  });
});

describe("without JavaScript", () => {
  test("both service buttons are working links to the service's booking page", async () => {
    const page = await openPage(browser, { width: 1280, height: 900 }, { javaScriptEnabled: false });
    for (const slug of [booksyServices[0], widgetServices[0]]) {
      await page.goto(`${site.base}/uslugi/${slug}`);
      const links = page.locator(".island a.btn");
      assert.equal(await links.count(), 2);
      for (const link of await links.all()) {
        assert.equal(await link.getAttribute("href"), booking.target(slug).url, slug);
        assert.equal(await link.isVisible(), true);
      }
      assert.equal(await page.locator("dialog").first().isVisible(), false);
    }
    await page.goto(`${site.base}/`);
    assert.equal(await page.getByRole("button", { name: "Pokaż kalendarz wolnych terminów" }).count(), 0);
    const calendar = page.getByRole("link", { name: /Otwórz kalendarz w\sserwisie ZnanyLekarz/ });
    assert.equal(await calendar.getAttribute("href"), booking.facilityUrl, "the calendar is a link to the facility");
    await page.context().close();
  });
});

describe("third-party widgets", () => {
  test("the home page's calendar and certificate badge load on a click, never before, and break nothing when unreachable", async () => {
    const scripts = [
      `${booking.widgetHost}/js/widget.js`,
      `${booking.widgetHost}/js/facility-widget.js`,
      `${booking.widgetHost}/js/certificate.js`,
    ];
    const page = await openPage(browser, {
      width: 390,
      height: 844,
    });
    const asked = [];
    page.on("request", (r) => r.url().startsWith(booking.widgetHost) && asked.push(r.url()));
    // Once the page is loaded and the network quiet, whatever it loads by itself it has asked for.
    await page.goto(`${site.base}/`, { waitUntil: "networkidle" });
    assert.deepEqual(asked, [], "nothing goes to the platform before a visitor asks");
    assert.equal(await page.locator(`script[src^="${booking.widgetHost}"]`).count(), 0);
    assert.equal(
      await page.locator(".calendar-widget a.zl-facility-url").getAttribute("data-zlw-facility"),
      siteValue("facility_id"),
    );
    const show = page.getByRole("button", { name: "Pokaż kalendarz wolnych terminów" });
    await show.click();
    for (const src of scripts) {
      await page.waitForSelector(`script[src="${src}"]`, { state: "attached" });
      assert.equal(await page.locator(`script[src="${src}"]`).count(), 1, src);
    }
    assert.deepEqual([...asked].sort(), [...scripts].sort(), "the click asks for the three scripts, once each");
    await until(() => show.isVisible(), false, "the button goes once it did its work");
    // The platform is unreachable here: a sentence says so and takes the focus.
    await page.waitForFunction(() => document.activeElement?.matches("[data-widget-fallback]"));
    assert.match(await page.locator("[data-widget-fallback]").innerText(), /się nie wczytał/);
    await page.getByRole("button", { name: "Otwórz menu" }).click();
    await until(() => page.locator("#mobile-menu").isVisible(), true, "the page still works");
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test("the telephony widget loads on the first click of 'Zamów oddzwonienie' and on no page before it", async () => {
    const telephony = providers().telephonyScript;
    const host = new URL(telephony).host;
    // While the practice is open the control is 'Zadzwoń do gabinetu' and 'Zamów oddzwonienie'
    // (see visitor.test.mjs for the hours): a Monday morning in Warsaw.
    const open = new Date("2025-03-03T10:00:00+01:00");
    for (const route of ["/", "/o-mnie", "/uslugi/coaching-adhd", "/cennik", "/blog/terapia-online", "/m1"]) {
      const page = await openPage(browser);
      await page.clock.setFixedTime(open);
      const asked = [];
      page.on("request", (r) => r.url().includes(host) && asked.push(r.url()));
      await page.goto(site.base + route, { waitUntil: "networkidle" });
      assert.deepEqual(asked, [], `${route}: nothing goes to the telephony provider before a click`);
      assert.equal(await page.locator(`script[src="${telephony}"]`).count(), 0, route);
      // The floating facade; pages also have plain 'Zadzwoń' links (the free call on /cennik, in articles).
      const control = page.getByRole("complementary", { name: "Telefon" });
      const call = control.getByRole("link", { name: /Zadzwoń/ });
      assert.match(await call.getAttribute("href"), /^tel:\+48/, `${route}: it dials`);
      assert.equal(await control.getByRole("button", { name: "Zamów oddzwonienie" }).isVisible(), true, route);
      await page.context().close();
    }
    const page = await openPage(browser);
    await page.clock.setFixedTime(open);
    const asked = [];
    page.on("request", (r) => r.url().includes(host) && asked.push(r.url()));
    await page.goto(`${site.base}/`, { waitUntil: "load" });
    await page
      .getByRole("complementary", { name: "Telefon" })
      .getByRole("button", { name: "Zamów oddzwonienie" })
      .click();
    await page.waitForSelector(`script[src="${telephony}"]`, { state: "attached" });
    // The request's event can reach this process after the element is in the page.
    await until(() => asked, [telephony], "the first click loads the widget");
    assert.equal(await page.evaluate(() => window.__cp.id), telephonyId());
    await page.waitForFunction(() => document.querySelector("[data-callback]").dataset.telephony === "failed");
    await page.context().close();
  });
});

describe("/m1 analytics", () => {
  test("records both events on /m1", async () => {
    const page = await openPage(browser);
    await page.addInitScript(() => {
      window.gtag = (...args) => {
        const log = JSON.parse(sessionStorage.getItem("events") ?? "[]");
        log.push(args);
        sessionStorage.setItem("events", JSON.stringify(log));
      };
    });
    await page.goto(`${site.base}/m1`);
    await page.getByRole("link", { name: "Przejdź do strony głównej" }).click();
    await page.waitForURL(`${site.base}/`);
    const events = await page.evaluate(() => JSON.parse(sessionStorage.getItem("events") ?? "[]"));
    assert.equal(events.length, 2);
    assert.deepEqual(events[0].slice(0, 2), ["event", "page_view"]);
    assert.deepEqual(events[1], [
      "event",
      "click",
      {
        event_category: "Navigation",
        event_label: "Przejście do strony głównej",
      },
    ]);
    await page.context().close();
  });

  test("without an analytics function, sends both events through the site's own statistics and fails nothing", async () => {
    const page = await openPage(browser);
    const beacon = (event) =>
      page.waitForRequest((r) => r.url() === `${site.base}/api/event` && JSON.parse(r.postData() ?? "{}").e === event);
    const viewed = beacon("view");
    await page.goto(`${site.base}/m1`);
    assert.equal(JSON.parse((await viewed).postData()).p, "/m1", "the view, after the page loaded");
    const clicked = beacon("m1");
    await page.getByRole("link", { name: "Przejdź do strony głównej" }).click();
    assert.equal(JSON.parse((await clicked).postData()).p, "/m1");
    await page.waitForURL(`${site.base}/`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
});

describe("images", () => {
  test("a broken image is retried once with a fallback image of the site itself, never more", async () => {
    const page = await openPage(browser);
    const fallbacks = /\/images\/(gabinet-fotele\.jpg|notes-herbata\.jpg|baltyk-poranek\.jpg|morze\.svg)$/;
    // The article's picture fails, and so does whichever fallback is tried: one try only.
    await page.route("**/images/las.svg", (route) => route.fulfill({ status: 404, body: "" }));
    await page.route(fallbacks, (route) => route.fulfill({ status: 404, body: "" }));
    const fallbackRequests = [];
    const foreign = [];
    page.on("request", (r) => {
      if (fallbacks.test(new URL(r.url()).pathname)) fallbackRequests.push(r.url());
      if (!r.url().startsWith(site.base)) foreign.push(r.url());
    });
    const fallbackFailed = page.waitForResponse((r) => fallbacks.test(new URL(r.url()).pathname));
    await page.goto(`${site.base}/blog/terapia-cbt`, { waitUntil: "load" });
    const hero = page.locator("img.article-hero");
    await page.waitForFunction(() => document.querySelector("img.article-hero").dataset.fallback === "true");
    assert.match(new URL(await hero.getAttribute("src"), site.base).pathname, fallbacks);
    await fallbackFailed;
    // The fallback has failed too: the picture is done and broken, and nothing tries again.
    await page.waitForFunction(() => {
      const img = document.querySelector("img.article-hero");
      return img.complete && img.naturalWidth === 0;
    });
    await waitFor(async () => fallbackRequests.length > 0, "the fallback is asked for");
    assert.equal(fallbackRequests.length, 1, "the failing fallback is not retried");
    assert.deepEqual(foreign, [], "no picture comes from another server");
    await page.context().close();
  });

  test("every image has its size, and images below the fold load lazily", async () => {
    const page = await openPage(browser);
    for (const route of ["/", "/uslugi", "/blog", "/o-mnie", "/blog/terapia-cbt"]) {
      await page.goto(site.base + route);
      const images = await page.locator("main img").evaluateAll((imgs) =>
        imgs.map((img) => ({
          w: img.getAttribute("width"),
          h: img.getAttribute("height"),
          lazy: img.loading === "lazy",
          top: img.getBoundingClientRect().top,
        })),
      );
      for (const img of images) {
        assert.ok(img.w && img.h, `${route}: an image has no width or height`);
        if (img.top > 1200) assert.ok(img.lazy, `${route}: an image far below the fold is not lazy`);
      }
    }
    await page.context().close();
  });
});
