// What search engines, auditors and the law ask of every page: head tags, structured data,
// sitemap, feed, security headers without CSP violations, and the cookie consent banner.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { frontMatterTitle, launchBrowser, openPage, publicRoutes, siteValue, startSite, until } from "./harness.mjs";

const siteUrl = siteValue("site_url");
let site;
let browser;
let routes;
before(async () => {
  site = await startSite();
  browser = await launchBrowser();
  routes = publicRoutes();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

/** The nodes of a page's one JSON-LD graph. */
function jsonLd(html) {
  const scripts = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)];
  assert.ok(scripts.length <= 1, "one graph per page");
  if (!scripts.length) return [];
  const graph = JSON.parse(scripts[0][1]);
  assert.equal(graph["@context"], "https://schema.org");
  return graph["@graph"];
}

/** The visible trail's steps: `[name, href]`, the page itself with no link. */
function visibleTrail(html) {
  const nav = html.match(/<nav class="trail" aria-label="Ścieżka">(.*?)<\/nav>/s)?.[1];
  if (!nav) return null;
  return [
    ...nav.matchAll(/<li>(?:<a href="([^"]+)">([^<]+)<\/a>|<span aria-current="page">([^<]+)<\/span>)<\/li>/g),
  ].map((m) => [
    (m[2] ?? m[3])
      .replace(/&#x27;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&"),
    m[1] ?? null,
  ]);
}

const head = (html, pattern) => html.match(pattern)?.[1];

describe("the admin panel's frame", () => {
  test("is on its own origin, requests no other host and its policy names none", async () => {
    const moved = await fetch(site.base + "/administratormagda", { redirect: "manual" });
    assert.equal(moved.status, 302, "the public site holds no panel");
    assert.equal(moved.headers.get("location"), `${site.panel}/administratormagda`);
    assert.equal(new URL(site.panel).hostname === new URL(site.base).hostname, false, "another host");
    const answer = await fetch(site.panel + "/administratormagda");
    const csp = answer.headers.get("content-security-policy");
    assert.match(csp, /script-src 'self'(;| 'sha256)/);
    assert.match(csp, /connect-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /https?:\/\//, "no third-party host in the panel's policy");
    const html = await answer.text();
    assert.match(html, /<meta name="robots" content="noindex, nofollow">/);
    assert.doesNotMatch(html, /site\.[0-9a-f]+\.js/, "no site script: no consent, widgets or analytics");
    const page = await openPage(browser);
    const elsewhere = [];
    page.on("request", (r) => !r.url().startsWith(site.panel) && elsewhere.push(r.url()));
    // Once the network is quiet, whatever the page loads by itself it has asked for.
    await page.goto(site.panel + "/administratormagda", { waitUntil: "networkidle" });
    await page.getByLabel("E-mail").waitFor();
    assert.deepEqual(elsewhere, []);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
});

describe("search", () => {
  test("every page has a description, an absolute canonical, link previews, a favicon and the feed", async () => {
    const descriptions = new Set();
    for (const route of routes) {
      const html = await (await fetch(site.base + route)).text();
      const description = head(html, /<meta name="description" content="([^"]+)">/);
      assert.ok(description && description.length >= 50, `${route}: description`);
      descriptions.add(description);
      assert.equal(head(html, /<link rel="canonical" href="([^"]+)">/), siteUrl + route, route);
      assert.match(
        head(html, /<meta property="og:image" content="([^"]+)">/),
        /^https:\/\/.+\.(png|jpe?g|webp)/,
        route,
      );
      assert.ok(head(html, /<meta property="og:image:alt" content="([^"]+)">/), `${route}: og:image:alt`);
      assert.equal(head(html, /<meta name="twitter:card" content="([^"]+)">/), "summary_large_image", route);
      assert.ok(html.includes('<link rel="icon" href="/favicon.svg"'), route);
      assert.ok(html.includes('<link rel="alternate" type="application/atom+xml"'), route);
    }
    assert.equal(descriptions.size, routes.length, "every description is different");
    const missing = await (await fetch(site.base + "/nie-ma-takiej")).text();
    assert.ok(missing.includes("Unexpected Application Error!"));
    assert.equal(
      head(missing, /<link rel="canonical" href="([^"]+)">/),
      undefined,
      "the error page names no canonical",
    );
  });

  test("structured data describes the practice, the therapists, the articles, the prices and the path", async () => {
    const business = jsonLd(await (await fetch(site.base + "/")).text()).find((b) => b["@type"] === "MedicalBusiness");
    for (const key of ["name", "telephone", "email", "url", "image", "priceRange", "openingHoursSpecification"]) {
      assert.ok(business[key], `MedicalBusiness.${key}`);
    }
    assert.equal(business.address.addressLocality, "Gdańsk");
    assert.equal(business.address.addressRegion, "pomorskie");
    assert.equal(business.address.addressCountry, "PL");
    assert.equal(business.geo["@type"], "GeoCoordinates");
    assert.ok(
      Math.abs(business.geo.latitude - 54.4) < 0.2 && Math.abs(business.geo.longitude - 18.6) < 0.2,
      "in Gdańsk",
    );
    const website = jsonLd(await (await fetch(site.base + "/")).text()).find((b) => b["@type"] === "WebSite");
    assert.equal(website.url, `${siteUrl}/`);
    assert.equal(website.publisher["@id"], business["@id"], "the site is the practice's, described beside it");
    const about = jsonLd(await (await fetch(site.base + "/o-mnie")).text());
    const people = about.filter((b) => b["@type"] === "Person");
    assert.equal(people.length, 2);
    for (const p of people) assert.ok(p.jobTitle && p.worksFor["@id"] === business["@id"], p.name);
    const prices = jsonLd(await (await fetch(site.base + "/cennik")).text()).find((b) => b.hasOfferCatalog);
    const offers = prices.hasOfferCatalog.itemListElement;
    assert.equal(offers.length, 16);
    assert.ok(offers.every((o) => o["@type"] === "Offer" && o.priceCurrency === "PLN" && /^\d+$/.test(o.price)));
    assert.ok(offers.some((o) => o.name === "Konsultacje dla par" && o.price === "250"));
    for (const route of routes) {
      const html = await (await fetch(site.base + route)).text();
      const blocks = jsonLd(html);
      const crumbs = blocks.find((b) => b["@type"] === "BreadcrumbList");
      const trail = visibleTrail(html);
      // References resolve on the page itself: whatever names the practice has its full node.
      const ids = new Set(blocks.map((b) => b["@id"]).filter(Boolean));
      for (const ref of JSON.stringify(blocks).matchAll(/\{"@id":"([^"]+)"\}/g)) {
        assert.ok(ids.has(ref[1]), `${route}: ${ref[1]} is described on the page`);
      }
      const practice = blocks.filter((b) => b["@id"] === business["@id"]);
      assert.ok(practice.length <= 1, `${route}: the practice once`);
      for (const node of practice) assert.deepEqual(node.address, business.address, `${route}: with its address`);
      if (route === "/" || route === "/m1") {
        assert.equal(crumbs, undefined, route);
        assert.equal(trail, null, `${route}: no trail`);
        continue;
      }
      assert.ok(crumbs, `${route}: BreadcrumbList`);
      assert.equal(crumbs.itemListElement.at(-1).item, siteUrl + route, route);
      assert.deepEqual(
        trail,
        crumbs.itemListElement.map((c, i, all) => [c.name, i === all.length - 1 ? null : c.item.slice(siteUrl.length)]),
        `${route}: the visible trail is the marked-up one`,
      );
      if (route.startsWith("/uslugi/")) {
        const service = blocks.find((b) => b["@type"] === "Service");
        assert.equal(service.url, siteUrl + route);
        assert.equal(service.provider["@id"], business["@id"], `${route}: the practice provides it`);
        // schema.org defines inLanguage for creative works and events, not for a Service.
        assert.equal(service.inLanguage, undefined, `${route}: no inLanguage on a Service`);
      }
      if (route.startsWith("/blog/")) {
        const post = blocks.find((b) => b["@type"] === "BlogPosting");
        assert.equal(post.headline, frontMatterTitle(`blog/${route.slice(6)}.md`));
        assert.match(post.datePublished, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/, "with time and zone");
        assert.match(post.dateModified, /T\d{2}:\d{2}:\d{2}\+0[12]:00$/);
        assert.ok(post.author.name, route);
        assert.match(post.author.url, new RegExp(`^${siteUrl}/o-mnie#[a-z-]+$`), `${route}: the author's page`);
        assert.equal(post.author.worksFor["@id"], business["@id"], `${route}: the author works at the practice`);
        assert.equal(post.publisher["@id"], business["@id"], `${route}: the practice publishes`);
      }
    }
  });

  test("the sitemap lists every public route with a date, robots.txt points to it, the feed has the blog", async () => {
    const sitemap = await (await fetch(site.base + "/sitemap.xml")).text();
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc><lastmod>(\d{4}-\d{2}-\d{2})<\/lastmod>/g)].map((m) => m[1]);
    // The ads' landing page and the terms' previous version are kept out of search engines (noindex).
    const hidden = ["/m1", "/regulamin-2025"];
    assert.deepEqual(
      locs.sort(),
      routes
        .filter((r) => !hidden.includes(r))
        .map((r) => siteUrl + r)
        .sort(),
    );
    const robots = await (await fetch(site.base + "/robots.txt")).text();
    assert.match(robots, /Disallow: \/administratormagda/);
    const panelRobots = await (await fetch(site.panel + "/robots.txt")).text();
    assert.match(panelRobots, /^User-agent: \*\nDisallow: \/$/m, "nothing of the panel's origin is indexed");
    assert.match(robots, /Disallow: \/api\//);
    assert.match(robots, new RegExp(`Sitemap: ${siteUrl}/sitemap.xml`));
    const feed = await (await fetch(site.base + "/blog/atom.xml")).text();
    assert.equal((feed.match(/<entry>/g) ?? []).length, 12);
    assert.match(feed, /<feed xmlns="http:\/\/www.w3.org\/2005\/Atom"/);
  });
});

describe("security headers", () => {
  test("come with every answer, allow no inline script but ours, and _headers itself is not served", async () => {
    for (const path of [
      "/",
      "/uslugi/terapia-par",
      "/favicon.svg",
      "/nie-ma-takiej",
      "/api/contact/token",
      "/sitemap.xml",
    ]) {
      const response = await fetch(site.base + path);
      const csp = response.headers.get("content-security-policy") ?? "";
      const scripts = csp.split("; ").find((d) => d.startsWith("script-src")) ?? "";
      assert.ok(scripts.startsWith("script-src 'self'"), `${path}: ${csp}`);
      assert.ok(!scripts.includes("unsafe-inline"), path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.equal(response.headers.get("x-content-type-options"), "nosniff", path);
      assert.equal(response.headers.get("referrer-policy"), "strict-origin-when-cross-origin", path);
      assert.ok(response.headers.get("permissions-policy"), path);
      assert.equal(response.headers.get("strict-transport-security"), null, `${path}: no HSTS over plain HTTP`);
    }
    assert.equal((await fetch(site.base + "/_headers")).status, 404);
  });

  test("no page logs a CSP violation or any other console error", async () => {
    const page = await openPage(browser);
    // The load event comes after every script of the page has run.
    for (const route of routes) await page.goto(site.base + route, { waitUntil: "load" });
    await page.goto(site.base + "/uslugi/terapia-par");
    await page.locator(".island a.btn").first().click();
    await page.getByRole("dialog", { name: "Umów wizytę" }).waitFor();
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
});

describe("cookie consent", () => {
  // The banner exists only while the operator runs an analytics tag (ANALYTICS_ID); the site as
  // it ships has none, and asks nothing.
  let tagged;
  before(async () => {
    tagged = await startSite(undefined, { ANALYTICS_ID: "G-7QH2KX4M1B" });
  });
  after(async () => {
    await tagged?.stop();
  });

  async function firstVisit(width = 1280, path = "/blog", height = 800) {
    const page = await openPage(browser, { width, height }, { askConsent: true });
    const scripts = [];
    page.on("request", (r) => r.url().includes("googletagmanager") && scripts.push(r.url()));
    await page.goto(tagged.base + path, { waitUntil: "load" });
    return { page, scripts };
  }

  /** Whether the element at the centre of `locator` is (inside) it: what a tap there reaches. */
  async function underATap(page, locator) {
    const box = await locator.boundingBox();
    return locator.evaluate(
      (el, [x, y]) => el.contains(document.elementFromPoint(x, y)),
      [box.x + box.width / 2, box.y + box.height / 2],
    );
  }

  test("without an analytics tag nothing is asked and nothing is stored", async () => {
    const page = await openPage(browser, { width: 390, height: 844 }, { askConsent: true });
    await page.goto(site.base + "/blog", { waitUntil: "load" });
    assert.equal(await page.locator("#consent").count(), 0, "no banner");
    assert.equal(await page.getByRole("button", { name: "Ustawienia cookies" }).count(), 0);
    assert.equal(await page.evaluate(() => localStorage.getItem("harmonia-consent")), null);
    const csp = (await page.request.get(site.base + "/")).headers()["content-security-policy"];
    assert.doesNotMatch(csp, /googletagmanager|google-analytics/, "no analytics host is allowed");
    await page.context().close();
  });

  test("the banner never covers the logo, a page's heading or an open menu", async () => {
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ]) {
      for (const path of ["/", "/cennik", "/m1"]) {
        const { page } = await firstVisit(width, path, height);
        await page.getByRole("dialog", { name: "Pliki cookies" }).waitFor();
        await page.evaluate(() => window.scrollTo(0, 0));
        const h1 = page.locator("main h1").first();
        assert.ok(await underATap(page, h1), `the heading of ${path} is clear at ${width} px`);
        const logo = page.locator(".site-header .logo, .landing-mark").first();
        assert.ok(await underATap(page, logo), `the logo of ${path} is clear at ${width} px`);
        if (width === 390 && path !== "/m1") {
          await page.getByRole("button", { name: "Otwórz menu" }).click();
          const menu = page.locator("#mobile-menu");
          for (const link of await menu.getByRole("link").all()) {
            await link.scrollIntoViewIfNeeded();
            assert.ok(await underATap(page, link), `${await link.innerText()} of the open menu is what a tap reaches`);
          }
          await page.getByRole("button", { name: "Zamknij menu" }).click();
        }
        if (width === 390) {
          const bar = await page.locator(".call").boundingBox();
          const sheet = await page.locator("#consent").boundingBox();
          assert.ok(sheet.y + sheet.height <= bar.y, "a bottom sheet above the call bar");
        }
        await page.context().close();
      }
    }
  });

  test("asks on the first visit without moving the page or hiding the booking button", async () => {
    for (const width of [390, 1280]) {
      const { page, scripts } = await firstVisit(width);
      const banner = page.getByRole("dialog", { name: "Pliki cookies" });
      await banner.waitFor();
      assert.equal(await banner.getByRole("button", { name: "Akceptuję" }).isVisible(), true);
      assert.equal(await banner.getByRole("button", { name: "Odrzucam" }).isVisible(), true);
      assert.equal(await banner.getByRole("button", { name: "Ustawienia" }).isVisible(), true);
      assert.equal(
        await banner.getByRole("button", { name: "Zapisz wybór" }).isVisible(),
        false,
        "the first layer has three buttons",
      );
      assert.equal(await banner.getByRole("group").isVisible(), false, "categories only after 'Ustawienia'");
      assert.equal(
        await banner.evaluate((el) => getComputedStyle(el).position),
        "fixed",
        "an overlay never shifts the page",
      );
      const book = await page.locator(".nav-book").boundingBox();
      const onTop = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x, y)?.closest(".nav-book") !== null,
        [book.x + book.width / 2, book.y + book.height / 2],
      );
      assert.ok(onTop, `the booking button is visible at ${width} px`);
      assert.deepEqual(scripts, [], "nothing analytical before consent");
      await page.context().close();
    }
  });

  test("'Odrzucam' loads nothing and is remembered", async () => {
    const { page, scripts } = await firstVisit();
    await page.getByRole("button", { name: "Odrzucam" }).click();
    // The banner's script is imported after the load when no choice was made: once the network
    // is quiet it would have been shown.
    await page.reload({ waitUntil: "networkidle" });
    assert.equal(await page.locator("#consent").isVisible(), false);
    assert.deepEqual(scripts, []);
    assert.equal(await page.evaluate(() => typeof window.gtag), "undefined");
    await page.context().close();
  });

  test("'Akceptuję' loads analytics, and the footer link changes the choice per category", async () => {
    const { page, scripts } = await firstVisit();
    await page.getByRole("button", { name: "Akceptuję" }).click();
    await until(() => scripts.length, 1, "consent loads the analytics script");
    await until(() => page.evaluate(() => typeof window.gtag), "function", "and defines gtag");
    await page.getByRole("button", { name: "Ustawienia cookies" }).click();
    const banner = page.getByRole("dialog", { name: "Pliki cookies" });
    await banner.waitFor();
    assert.equal(await banner.getByLabel(/Techniczne/).isDisabled(), true);
    await until(() => banner.getByLabel(/Analityczne/).isChecked(), true, "the banner shows the choice made");
    assert.equal(await banner.getByLabel(/Reklamowe/).count(), 0, "the site sets no advertising cookie");
    const accepted = await page.evaluate(() => JSON.parse(localStorage.getItem("harmonia-consent")));
    assert.deepEqual([accepted.analytics, accepted.advertising], [true, false]);
    await banner.getByLabel(/Analityczne/).uncheck();
    await banner.getByRole("button", { name: "Zapisz wybór" }).click();
    await until(
      () => page.evaluate(() => JSON.parse(localStorage.getItem("harmonia-consent"))),
      (stored) => stored.analytics === false && stored.advertising === false,
      "the new choice is kept",
    );
    await page.context().close();
  });
});
