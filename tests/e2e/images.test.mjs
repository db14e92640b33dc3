// Responsive images as a phone sees them: at 390 px the browser downloads a small variant of
// the first large photograph, never the original, and every image states its size.
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launchBrowser, openPage, repoRoot, startSite } from "./harness.mjs";

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

/** Opens `route` at 390 px (a phone, 2 device pixels per CSS pixel); returns the page and every image response. */
async function phone(route) {
  const page = await openPage(browser, { width: 390, height: 844 }, { deviceScaleFactor: 2 });
  const images = [];
  page.on("response", async (res) => {
    if (res.request().resourceType() !== "image") return;
    const body = await res.body().catch(() => Buffer.alloc(0));
    images.push({ url: res.url(), type: res.headers()["content-type"], bytes: body.length, status: res.status() });
  });
  await page.goto(site.base + route, { waitUntil: "networkidle" });
  return { page, images };
}

describe("photographs on a phone", () => {
  for (const [route, original, selector] of [
    ["/blog/pierwsza-wizyta", "notes-herbata.jpg", "img.article-hero"],
    ["/o-mnie", "gabinet-fotele.jpg", ".about-photo img"],
  ]) {
    test(`${route}: the first large photograph is a small AVIF variant, not the original`, async () => {
      const { page, images } = await phone(route);
      const hero = page.locator(selector);
      const current = await hero.evaluate((img) => img.currentSrc);
      const stem = original.replace(/\.jpg$/, "");
      assert.match(current, new RegExp(`/assets/img/${stem}\\.(480|800)\\.[0-9a-f]+\\.avif$`), current);
      const downloaded = images.filter((i) => i.url.includes(stem));
      assert.ok(downloaded.length >= 1, `the photograph was downloaded: ${JSON.stringify(images)}`);
      for (const d of downloaded) {
        assert.ok(!d.url.endsWith(`/images/${original}`), `the original was downloaded: ${d.url}`);
        assert.equal(d.type, "image/avif");
      }
      const originalBytes = statSync(join(repoRoot, "content", "images", original)).size;
      const largest = Math.max(...downloaded.map((d) => d.bytes));
      assert.ok(largest > 0 && largest < originalBytes / 10, `${largest} B is not small next to ${originalBytes} B`);
      const size = await hero.evaluate((img) => [
        img.getAttribute("width"),
        img.getAttribute("height"),
        img.naturalWidth,
      ]);
      assert.equal(size[0], "2400", "the <img> states the original's width");
      assert.ok(Number(size[1]) > 0 && size[2] > 0 && size[2] <= 800, `loaded ${size[2]} px wide`);
      assert.equal(await hero.getAttribute("fetchpriority"), "high");
      await page.context().close();
    });
  }

  test("every image of the home page states its width and height, and only the first is eager", async () => {
    const { page } = await phone("/");
    const imgs = await page.locator("main img").evaluateAll((all) =>
      all.map((img) => ({
        src: img.currentSrc || img.src,
        width: img.getAttribute("width"),
        height: img.getAttribute("height"),
        loading: img.getAttribute("loading"),
        priority: img.getAttribute("fetchpriority"),
      })),
    );
    assert.ok(imgs.length >= 4, JSON.stringify(imgs));
    for (const img of imgs) assert.ok(Number(img.width) > 0 && Number(img.height) > 0, JSON.stringify(img));
    assert.equal(imgs.filter((i) => i.priority === "high").length, 1, JSON.stringify(imgs));
    assert.ok(
      imgs.filter((i) => i.priority !== "high").every((i) => i.loading === "lazy"),
      JSON.stringify(imgs),
    );
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
});
