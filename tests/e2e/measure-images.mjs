// For `make bench`: the largest image a phone (390 px wide, 3 device pixels per CSS pixel)
// downloads on each route given, and what that image weighed before responsive images (the
// original file, which the templates linked as it was). Prints one JSON object per route.
import { statSync } from "node:fs";
import { join } from "node:path";
import { launchBrowser, openPage, repoRoot, startSite } from "./harness.mjs";

const routes = process.argv.slice(2);
const site = await startSite();
const browser = await launchBrowser();
try {
  for (const route of routes) {
    const page = await openPage(browser, { width: 390, height: 844 }, { deviceScaleFactor: 3 });
    const images = [];
    page.on("response", async (res) => {
      if (res.request().resourceType() !== "image") return;
      const body = await res.body().catch(() => Buffer.alloc(0));
      images.push({ url: new URL(res.url()).pathname, bytes: body.length });
    });
    await page.goto(site.base + route, { waitUntil: "networkidle" });
    // Lazy images below the fold count too: scroll through the page.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    await page.waitForLoadState("networkidle");
    const original = (url) => {
      const m = url.match(/^\/assets\/img\/(.+?)\.\d+\.[0-9a-f]+\.\w+$/);
      if (!m) return { url, bytes: images.find((i) => i.url === url)?.bytes ?? 0 };
      for (const ext of ["jpg", "jpeg", "png", "webp"]) {
        try {
          return {
            url: `/images/${m[1]}.${ext}`,
            bytes: statSync(join(repoRoot, "content", "images", `${m[1]}.${ext}`)).size,
          };
        } catch {
          // not this extension
        }
      }
      return { url, bytes: 0 };
    };
    const largest = images.reduce((a, b) => (b.bytes > a.bytes ? b : a), { url: "", bytes: 0 });
    const before = images
      .map((i) => original(i.url))
      .reduce((a, b) => (b.bytes > a.bytes ? b : a), { url: "", bytes: 0 });
    console.log(JSON.stringify({ route, after: largest, before }));
    await page.context().close();
  }
} finally {
  await browser.close();
  await site.stop();
}
