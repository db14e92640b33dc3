// Every public route in a real browser, as a visitor uses it.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  frontMatterTitle,
  launchBrowser,
  namesOverBorders,
  openPage,
  reachFor,
  siteValue,
  slugs,
  startSite,
  until,
} from "./harness.mjs";

const pageHeadings = {
  "/m1": "Gabinet Harmonia",
  "/": "Znajdź swoją ścieżkę do harmonii",
  "/o-mnie": "O Nas",
  "/uslugi": "Usługi",
  "/cennik": "Cennik",
  "/blog": "Blog",
  "/regulamin": "Regulamin świadczenia usług psychologicznych",
  "/polityka-prywatnosci": "Polityka Prywatności",
  "/administratormagda": "Panel Administracyjny",
  // Not a route of the specification: the minors' protection standards the law asks for.
  "/standardy-ochrony-maloletnich": "Standardy ochrony małoletnich",
};

function allRoutes() {
  const routes = { ...pageHeadings };
  for (const s of slugs("services")) routes[`/uslugi/${s}`] = frontMatterTitle(`services/${s}.md`);
  for (const a of slugs("blog")) routes[`/blog/${a}`] = frontMatterTitle(`blog/${a}.md`);
  return routes;
}

const pageKinds = [
  "/",
  "/o-mnie",
  "/uslugi",
  "/uslugi/terapia-par",
  "/cennik",
  "/blog",
  "/blog/terapia-cbt",
  "/regulamin",
  "/m1",
];

/**
 * Records the site's scripts a page loads; the function returned waits until every one it asked
 * for has finished (their sizes are read after the response) and gives their URLs and bytes.
 */
function scriptsOf(page) {
  const asked = new Set();
  const finished = [];
  page.on("request", (r) => r.resourceType() === "script" && r.url().startsWith(site.base) && asked.add(r));
  page.on("requestfailed", (r) => asked.delete(r));
  page.on("requestfinished", (r) => {
    if (asked.has(r)) finished.push(r.sizes().then((sizes) => ({ url: r.url(), bytes: sizes.responseBodySize })));
  });
  return async () => {
    await until(
      () => finished.length,
      (n) => n === asked.size,
      "every script asked for has loaded",
    );
    return Promise.all(finished);
  };
}

/** Two animation frames: what an IntersectionObserver saw in the first has been told by the second. */
function twoFrames(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

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

describe("routes", () => {
  test("every route and the minors' standards answer 200 with their heading and no console error", async () => {
    const routes = allRoutes();
    assert.equal(Object.keys(routes).length, 9 + 1 + 11 + 15);
    // /administratormagda leads to the panel's own origin.
    const page = await openPage(browser);
    for (const [route, heading] of Object.entries(routes)) {
      const response = await page.goto(site.base + route);
      assert.equal(response.status(), 200, route);
      assert.equal((await page.locator("h1").first().innerText()).trim(), heading, route);
      assert.equal(await page.getAttribute("html", "lang"), "pl", route);
    }
    assert.deepEqual(page.problems, []);
  });

  test("a trailing slash leads to the same page", async () => {
    const page = await openPage(browser);
    await page.goto(site.base + "/uslugi/");
    assert.equal(new URL(page.url()).pathname, "/uslugi");
    assert.equal(await page.locator("h1").innerText(), "Usługi");
  });

  test("an unknown route answers 404 with the error screen", async () => {
    const page = await openPage(browser);
    const response = await page.goto(site.base + "/nie-ma-takiej-strony");
    assert.equal(response.status(), 404);
    assert.equal(await page.locator("h1").innerText(), "Unexpected Application Error!");
    assert.equal(await page.locator(".error-text").innerText(), "404 Not Found");
    await page.getByRole("link", { name: "Wróć na stronę główną" }).click();
    await page.waitForURL(site.base + "/");
  });
});

describe("navigation", () => {
  test("the top navigation leads to each section and the logo leads home", async () => {
    const page = await openPage(browser);
    await page.goto(site.base + "/");
    const nav = page.getByRole("navigation", { name: "Główna nawigacja" });
    for (const [label, path, heading] of [
      ["O nas", "/o-mnie", "O Nas"],
      ["Usługi", "/uslugi", "Usługi"],
      ["Cennik", "/cennik", "Cennik"],
      ["Blog", "/blog", "Blog"],
    ]) {
      await nav.getByRole("link", { name: label, exact: true }).click();
      await page.waitForURL(site.base + path);
      assert.equal(await page.locator("h1").innerText(), heading);
      assert.equal(await nav.getByRole("link", { name: label, exact: true }).getAttribute("aria-current"), "page");
    }
    await nav.locator("a.logo").click();
    await page.waitForURL(site.base + "/");
  });

  test("the booking button opens the external booking page in a new tab", async () => {
    const page = await openPage(browser);
    await page.goto(site.base + "/blog");
    const book = page.locator(".nav-book");
    const shown = await book.evaluate((el) =>
      [...el.querySelectorAll("span:not(.visually-hidden)")].map((s) => s.textContent).join(" "),
    );
    assert.equal(shown, "Umów wizytę");
    // The new tab is announced: the link's name says so.
    const nav = page.getByRole("navigation", { name: "Główna nawigacja" });
    assert.equal(
      await nav.getByRole("link", { name: "Umów wizytę (otwiera się w nowej karcie)", exact: true }).count(),
      1,
    );
    assert.equal(await book.getAttribute("href"), siteValue("practice"));
    assert.equal(await book.getAttribute("target"), "_blank");
    assert.match(await book.getAttribute("rel"), /noopener/);
  });

  test("a new page starts at the top", async () => {
    const page = await openPage(browser);
    await page.goto(site.base + "/");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.locator("footer").getByRole("link", { name: "Cennik" }).click();
    await page.waitForURL(site.base + "/cennik");
    assert.equal(await page.evaluate(() => window.scrollY), 0);
  });
});

describe("mobile menu", () => {
  async function mobilePage(route = "/") {
    const page = await openPage(browser, {
      width: 390,
      height: 844,
    });
    await page.goto(site.base + route);
    return page;
  }

  test("the booking label sits on two lines and the links hide behind a hamburger", async () => {
    const page = await mobilePage();
    assert.equal(await page.locator(".nav-links").isVisible(), false);
    const [first, second] = await page
      .locator(".nav-book span")
      .evaluateAll((spans) => spans.map((s) => s.getBoundingClientRect().top));
    assert.ok(second > first, "Umów and wizytę are on separate lines");
  });

  test("opens from the hamburger and closes on its close button, with focus kept", async () => {
    const page = await mobilePage();
    const toggle = page.getByRole("button", { name: "Otwórz menu" });
    const menu = page.locator("#mobile-menu");
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    await toggle.click();
    assert.equal(await menu.isVisible(), true);
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    const box = await menu.boundingBox();
    assert.deepEqual([box.width, box.height], [390, 844], "the menu covers the whole screen");
    for (const label of ["O nas", "Usługi", "Cennik", "Blog", "Umów wizytę (otwiera się w nowej karcie)"]) {
      assert.equal(await menu.getByRole("link", { name: label, exact: true }).isVisible(), true, label);
    }
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute("aria-label")), "Zamknij menu");
    await menu.getByRole("button", { name: "Zamknij menu" }).click();
    assert.equal(await menu.isVisible(), false);
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute("aria-label")), "Otwórz menu");
  });

  test("closes on Escape and keeps Tab inside while open", async () => {
    const page = await mobilePage();
    await page.getByRole("button", { name: "Otwórz menu" }).click();
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press("Tab");
      assert.ok(
        await page.evaluate(() => !!document.activeElement.closest("#mobile-menu")),
        `Tab ${i} stays in the menu`,
      );
    }
    await page.keyboard.press("Escape");
    assert.equal(await page.locator("#mobile-menu").isVisible(), false);
  });

  test("closes when a link is tapped, and the link navigates", async () => {
    const page = await mobilePage();
    await page.getByRole("button", { name: "Otwórz menu" }).click();
    await page.locator("#mobile-menu").getByRole("link", { name: "Cennik" }).click();
    await page.waitForURL(site.base + "/cennik");
    assert.equal(await page.locator("#mobile-menu").isVisible(), false);
  });

  test("closes when the booking button is tapped", async () => {
    const page = await mobilePage("/blog");
    await page.getByRole("button", { name: "Otwórz menu" }).click();
    const menu = page.locator("#mobile-menu");
    const popup = page.context().waitForEvent("page");
    await menu.getByRole("link", { name: "Umów wizytę" }).click();
    await (await popup).close();
    assert.equal(await menu.isVisible(), false);
  });
});

describe("footer", () => {
  test("has the four columns, the documents and the copyright from 2025 to the build's year", async () => {
    const page = await openPage(browser);
    await page.goto(site.base + "/o-mnie");
    const footer = page.locator("footer");
    assert.equal(await footer.locator(".footer-col").count(), 4);
    assert.deepEqual(await footer.locator(".footer-col h2").allInnerTexts(), [
      "Gabinet Harmonia",
      "Menu",
      "Kontakt",
      "Dokumenty",
    ]);
    assert.equal(await footer.locator('address a[href^="tel:"]').innerText(), siteValue("phone"));
    assert.equal(await footer.locator('address a[href^="mailto:"]').innerText(), siteValue("email"));
    assert.equal(await footer.locator('address a[href^="https://www.google.com/maps"]').count(), 1);
    assert.equal(await footer.locator(".social a").count(), 2);
    await footer.getByRole("link", { name: "Polityka prywatności" }).click();
    await page.waitForURL(site.base + "/polityka-prywatnosci");
    const year = new Date().getFullYear();
    const copyright = year > 2025 ? `© 2025–${year} Gabinet Harmonia` : "© 2025 Gabinet Harmonia";
    assert.ok((await page.locator("footer").innerText()).includes(copyright), copyright);
    await page.locator("footer").getByRole("link", { name: "Standardy ochrony małoletnich" }).click();
    await page.waitForURL(site.base + "/standardy-ochrony-maloletnich");
    const short = page.locator("aside.callout").first();
    assert.equal(
      await short.locator("h2").innerText(),
      "Wersja dla młodzieży",
      "the short version for minors comes first",
    );
  });
});

describe("weight and layout", () => {
  // 2.5 KB: the page script now also sends the site's own cookie-free count (issue 47) and opens
  // the call control's callback form (issue 44); a page's whole first load stays ≤ 10 KB.
  test("pages without islands load no React and at most 2.5 KB of script, transferred", async () => {
    for (const route of pageKinds.filter((r) => r !== "/" && !r.startsWith("/uslugi/"))) {
      const page = await openPage(browser);
      const loaded = scriptsOf(page);
      await page.goto(site.base + route, { waitUntil: "load" });
      const scripts = await loaded();
      const inline = await page.evaluate(() =>
        [...document.querySelectorAll("script:not([src])")]
          .filter((s) => !s.type || s.type === "module" || s.type === "text/javascript")
          .reduce((n, s) => n + s.textContent.length, 0),
      );
      const total = scripts.reduce((n, s) => n + s.bytes, 0) + inline;
      assert.ok(scripts.length > 0, `${route}: the page script was not seen`);
      assert.ok(total <= 2560, `${route} transfers ${total} bytes of script: ${JSON.stringify(scripts)}`);
      assert.ok(!scripts.some((s) => /chunk|react/i.test(s.url)), `${route} loads React`);
      assert.equal(await page.locator("[data-island]").count(), 0, `${route} has an island`);
      await page.context().close();
    }
  });

  test("no page fetches React before its load event: first loads stay under 10 KB of script at both widths", async () => {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 900 },
    ]) {
      for (const route of pageKinds) {
        const page = await openPage(browser, viewport);
        await page.goto(site.base + route, { waitUntil: "load" });
        await twoFrames(page);
        // What the page fetched before its load event: the first load. What comes after it
        // (a service page's booking chunk on idle) does not hold up the page.
        const { first, react } = await page.evaluate(() => {
          const load = performance.getEntriesByType("navigation")[0].loadEventStart;
          const before = performance.getEntriesByType("resource").filter((e) => e.startTime < load);
          return {
            first: before
              .filter((e) => e.initiatorType === "script" || /\.js$/.test(e.name))
              .reduce((n, e) => n + e.encodedBodySize, 0),
            react: before.filter((e) => e.name.includes("/assets/islands/chunks/")).map((e) => e.name),
          };
        });
        assert.ok(first <= 10 * 1024, `${route} at ${viewport.width} px: ${first} bytes of script on its first load`);
        assert.deepEqual(react, [], `${route} at ${viewport.width} px: React before the load event`);
        const chunks = () =>
          page.evaluate(
            () =>
              performance.getEntriesByType("resource").filter((e) => e.name.includes("/assets/islands/chunks/")).length,
          );
        const contact = page.locator('[data-island="ContactForm"]');
        if ((await contact.count()) > 0) {
          // The contact form hydrates as it nears the viewport, and only then.
          assert.equal(await chunks(), 0, `${route}: React before the form is near`);
          await contact.locator("form").scrollIntoViewIfNeeded();
          await contact.and(page.locator('[data-hydrated="true"]')).waitFor();
          assert.ok((await chunks()) > 0, `${route}: React once the form is near`);
        } else if ((await page.locator('[data-island="BookingButton"]').count()) > 0) {
          // A booking button hydrates when the page is idle after its load, untouched.
          await page.locator('[data-island="BookingButton"][data-hydrated="true"]').first().waitFor();
          assert.ok((await chunks()) > 0, `${route}: React on idle after the load event`);
        }
        await page.context().close();
      }
    }
  });

  test("a page with an island loads React once, as one shared chunk", async () => {
    const page = await openPage(browser);
    const chunks = [];
    page.on("request", (r) => {
      if (r.url().includes("/assets/islands/chunks/")) chunks.push(r.url());
    });
    await page.goto(site.base + "/uslugi/terapia-par");
    await reachFor(page);
    assert.equal(chunks.length, 1, JSON.stringify(chunks));
    await page.context().close();
  });

  test("no page kind scrolls sideways, nor runs a button's name over its border, from 320 px to 1440 px", async () => {
    for (const width of [320, 390, 768, 1024, 1440]) {
      const page = await openPage(browser, { width, height: 800 });
      for (const route of pageKinds) {
        await page.goto(site.base + route);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(scrollWidth <= width, `${route} is ${scrollWidth} px wide at ${width} px`);
        assert.deepEqual(await namesOverBorders(page), [], `${route} at ${width} px`);
      }
      await page.context().close();
    }
  });
});
