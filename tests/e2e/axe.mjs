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
  await page.addScriptTag({ path: axePath });
  // Only the violations are read: axe then keeps one node of each passed or inapplicable rule
  // instead of every one, the same checks a quarter faster (36.6 to 41.2 s against 29.3 to 31.3 s
  // for the route sweep of a11y.test.mjs alone, 2026-11-30).
  const result = await page.evaluate(
    (tags) => window.axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] }),
    TAGS,
  );
  return result.violations.map(
    (v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}
