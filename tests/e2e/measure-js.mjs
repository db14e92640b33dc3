// For `make bench`: the JavaScript each route given transfers (as sent, compressed) at 390 px,
// on its first load (before the load event) and once every island's trigger has fired (scrolled to the end, every
// island pointed at). Prints one JSON object per route.
import { launchBrowser, openPage, startSite } from "./harness.mjs";

const routes = process.argv.slice(2);
const site = await startSite();
const browser = await launchBrowser();
try {
  for (const route of routes) {
    const page = await openPage(browser, { width: 390, height: 844 });
    // Each finished script's size, read after it finished: `total()` waits for every read.
    const scripts = [];
    page.on("requestfinished", (request) => {
      if (request.resourceType() !== "script" || !request.url().startsWith(site.base)) return;
      scripts.push(request.sizes().then((sizes) => sizes.responseBodySize));
    });
    const total = async () => (await Promise.all(scripts)).reduce((n, b) => n + b, 0);
    await page.goto(site.base + route, { waitUntil: "networkidle" });
    const inline = await page.evaluate(() =>
      [...document.querySelectorAll("script:not([src])")]
        .filter((s) => !s.type || s.type === "module" || s.type === "text/javascript")
        .reduce((n, s) => n + s.textContent.length, 0),
    );
    // The first load: what the page fetched before its load event (a service page's booking
    // chunk comes on idle after it, and holds nothing up).
    const first = await page.evaluate(() => {
      const load = performance.getEntriesByType("navigation")[0].loadEventStart;
      return performance
        .getEntriesByType("resource")
        .filter((e) => e.startTime < load && (e.initiatorType === "script" || /\.js$/.test(e.name)))
        .reduce((n, e) => n + e.encodedBodySize, 0);
    });
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    for (const island of await page.locator(".island").all()) {
      await island.locator("a, button, input").first().hover({ force: true });
      await island.and(page.locator('[data-hydrated="true"]')).waitFor();
    }
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(300);
    console.log(JSON.stringify({ route, inline, first, after: await total() }));
    await page.context().close();
  }
} finally {
  await browser.close();
  await site.stop();
}
