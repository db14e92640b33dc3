// `make audit`: builds and serves the site, runs Lighthouse (mobile preset, Debian Chromium)
// on one page of each kind with third-party hosts unreachable, and prints a Markdown table
// of the four scores, Total Blocking Time, Largest Contentful Paint and the bytes each page
// transfers. Exits 1 when a page scores under 100 in any category.
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromiumFlags, startSite } from "../e2e/harness.mjs";

const pages = [
  ["home", "/"],
  ["about", "/o-mnie"],
  ["services list", "/uslugi"],
  ["service", "/uslugi/terapia-indywidualna"],
  ["price list", "/cennik"],
  ["blog index", "/blog"],
  ["article", "/blog/terapia-cbt"],
  ["article with a photograph", "/blog/pierwsza-wizyta"],
  ["terms", "/regulamin"],
  ["landing /m1", "/m1"],
];

// Nothing outside this machine can be reached here; block it instead of waiting for it.
const blocked = [
  "*callpage.io*",
  "*docplanner.com*",
  "*znanylekarz.pl*",
  "*booksy.com*",
  "*googletagmanager.com*",
  "*google-analytics.com*",
  "*unsplash.com*",
];

const site = await startSite();
const chrome = await launch({
  chromePath: process.env.CHROMIUM || "/usr/bin/chromium",
  chromeFlags: chromiumFlags,
});
const rows = [];
try {
  for (const [kind, route] of pages) {
    const result = await lighthouse(site.base + route, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      blockedUrlPatterns: blocked,
    });
    const lhr = result.lhr;
    const score = (id) => Math.round((lhr.categories[id].score ?? 0) * 100);
    const bytes = lhr.audits["total-byte-weight"].numericValue;
    const tbt = lhr.audits["total-blocking-time"].numericValue;
    const lcp = lhr.audits["largest-contentful-paint"].numericValue;
    const failed = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
      .map((a) => a.id);
    rows.push({
      kind,
      route,
      perf: score("performance"),
      a11y: score("accessibility"),
      bp: score("best-practices"),
      seo: score("seo"),
      bytes,
      tbt,
      lcp,
      failed,
    });
  }
} finally {
  await chrome.kill();
  await site.stop();
}

console.log(
  "| page | route | performance | accessibility | best practices | SEO | Total Blocking Time | LCP | bytes transferred |",
);
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows)
  console.log(
    `| ${r.kind} | ${r.route} | ${r.perf} | ${r.a11y} | ${r.bp} | ${r.seo} | ${Math.round(r.tbt)} ms | ${(r.lcp / 1000).toFixed(1)} s | ${Math.round(r.bytes).toLocaleString("en")} |`,
  );
const misses = rows.filter((r) => r.perf < 100 || r.a11y < 100 || r.bp < 100 || r.seo < 100);
for (const r of misses)
  console.log(`\n${r.route}: failing audits: ${r.failed.join(", ") || "(none binary; see performance metrics)"}`);
process.exitCode = misses.length ? 1 : 0;
