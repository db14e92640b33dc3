// The booking rows in a real browser, each against the booking model of site.yaml:
// the navigation's button, the home page's button and calendar, each therapist's 'Umów się',
// every article's link to the doctor-listing platform and every price row's button, each
// opening its platform's page in a new tab (the platforms' hosts answered by the test).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { bookingModel, launchBrowser, openPage, slugs, startSite } from "./harness.mjs";

const booking = bookingModel();
const platformHosts = [new URL(booking.practice).origin, new URL(booking.facilityUrl).origin];

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

/** A page whose booking platforms answer with a tiny page naming the address asked for. */
async function pageWithPlatforms(viewport) {
  const page = await openPage(browser, viewport);
  for (const origin of platformHosts) {
    await page
      .context()
      .route(`${origin}/**`, (route) =>
        route.fulfill({ status: 200, contentType: "text/html", body: `<title>${route.request().url()}</title>` }),
      );
  }
  return page;
}

/** Clicks `link` and returns the address of the tab it opened, which it leaves for. */
async function opensInNewTab(page, link) {
  const popup = page.context().waitForEvent("page");
  await link.click();
  const tab = await popup;
  await tab.waitForLoadState();
  const url = tab.url();
  await tab.close();
  return url;
}

describe("booking rows", () => {
  test("the navigation's and the home page's 'Umów wizytę' open the practice's booking page", async () => {
    const page = await pageWithPlatforms();
    await page.goto(`${site.base}/`);
    const nav = page.getByRole("navigation", { name: "Główna nawigacja" }).getByRole("link", { name: "Umów wizytę" });
    assert.equal(await opensInNewTab(page, nav), booking.practice);
    const hero = page.locator(".hero").getByRole("link", { name: /^Umów wizytę/ });
    assert.equal(await opensInNewTab(page, hero), booking.practice);
    const text = await page.locator("#wolne-terminy").innerText();
    assert.match(text, /kalendarz serwisu ZnanyLekarz/, "the calendar's platform is named");
    assert.match(text, /strony rezerwacji w\sserwisie Booksy/, "and the platform of the buttons above it");
    await page.context().close();
  });

  test("each therapist's 'Umów się' opens their own booking page", async () => {
    const page = await pageWithPlatforms();
    await page.goto(`${site.base}/o-mnie`);
    for (const [slug, therapist] of Object.entries(booking.therapists)) {
      const button = page.locator(`#${slug}`).getByRole("link", { name: /^Umów się/ });
      assert.equal(await opensInNewTab(page, button), therapist.url, slug);
    }
    await page.context().close();
  });

  test("every article links to the doctor-listing platform: its therapist's profile there, or the facility's page", async () => {
    const page = await pageWithPlatforms();
    const listing = `https://${booking.listingHost}/`;
    for (const slug of slugs("blog")) {
      await page.goto(`${site.base}/blog/${slug}`);
      const box = page.locator(".article-cta");
      assert.match(await box.innerText(), /w\sserwisie ZnanyLekarz/, slug);
      const link = box.getByRole("link", { name: /^Umów wizytę/ });
      const href = await link.getAttribute("href");
      assert.ok(href.startsWith(listing), `${slug}: ${href}`);
      const own = Object.values(booking.therapists).some((t) => t.doctor_id && t.url === href);
      assert.ok(own || href === booking.facilityUrl, `${slug}: a therapist's profile or the facility: ${href}`);
      assert.equal(await opensInNewTab(page, link), href, slug);
    }
    await page.context().close();
  });

  test("every price row has 'Umów wizytę', which opens where its service books; the free call dials", async () => {
    const page = await pageWithPlatforms();
    await page.goto(`${site.base}/cennik`);
    const rows = page.locator(".price-row");
    const count = await rows.count();
    const linked = new Set();
    for (let i = 0; i < count; i += 1) {
      const row = rows.nth(i);
      const name = await row.locator(".price-name a").innerText();
      const service = new URL(await row.locator(".price-name a").getAttribute("href"), site.base).pathname;
      const slug = service.startsWith("/uslugi/") ? service.slice("/uslugi/".length) : null;
      if (slug) linked.add(slug);
      const expected = slug ? booking.target(slug).url : booking.practice;
      const button = row.getByRole("link", { name: /^Umów wizytę/ });
      if ((await row.locator(".price-amount").innerText()).trim() === "bezpłatnie") {
        // The free phone call is a call, not a visit to book (STYLE.md).
        assert.equal(await button.count(), 0, `${name}: no booking`);
        assert.match(await row.getByRole("link", { name: /^Zadzwoń/ }).getAttribute("href"), /^tel:\+48\d{9}$/, name);
        continue;
      }
      assert.match(
        await button.textContent(),
        new RegExp(`^Umów wizytę: ${name.replace(/[()]/g, "\\$&")} \\(otwiera się`),
      );
      assert.equal(await opensInNewTab(page, button), expected, name);
    }
    assert.deepEqual([...linked].sort(), slugs("services").sort(), "every service has its own row");
    await page.context().close();
  });
});
