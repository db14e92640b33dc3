// axe-core (WCAG 2.2 AA and best practice) run in a page: its violations, one line each. The
// page's context must bypass the CSP (`bypassCSP: true`): axe runs as an injected script.
import { createRequire } from "node:module";

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

export async function violations(page, label) {
  // A colour in mid-transition (a button just clicked) is neither its old nor its new
  // colour: let transitions end before axe measures contrast (a cancelled one ends too).
  // One can start just after the others ended (a dialog closed leaves the pointer over a
  // button, whose hover starts at the next style update): wait until a frame starts none.
  await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (let i = 0; i < 20; i += 1) {
      await frame();
      const running = document.getAnimations();
      if (running.length === 0) return;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
  // Once per document: the panel's views are one document, and a second copy of axe would be
  // parsed and set up again for nothing.
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.addScriptTag({ path: axePath });
  // Only the violations are read: axe then keeps one node of each passed or inapplicable rule
  // instead of every one, the same checks a quarter faster (36.6 to 41.2 s against 29.3 to 31.3 s
  // for the route sweep of a11y.test.mjs alone, 2026-11-30).
  // Only media is preloaded (for autoplaying audio or video, wcag2a): the other preload, every
  // stylesheet fetched again and parsed into a CSSOM, serves only css-orientation-lock, an
  // experimental rule these tags leave out. It was a third of a run's processor time on the
  // panel; on 44 pages and views every result of every rule came out the same without it.
  const result = await page.evaluate(
    (tags) =>
      window.axe.run(document, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
        preload: { assets: ["media"] },
      }),
    TAGS,
  );
  return result.violations.map(
    (v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}
