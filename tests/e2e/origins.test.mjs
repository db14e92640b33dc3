// The panel on its own origin: with the administrator signed in on the panel, a
// script on a public page — a third-party widget's, or one in our own templates — and a
// script in a preview try to read the inbox and the session cookie, and get nothing.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { freePort, launchBrowser, openPage, siteCopy, startSite } from "./harness.mjs";

const ADMIN = "magda@gabinet-harmonia.pl";
const PASSWORD = "hasło panelu do testu izolacji";
const SECRET = "Poufne: leczę depresję od roku, proszę o termin.";
const REPORT = "/__stub-report";

/**
 * What a hostile script does: reads the cookies, asks for the inbox on its own origin and on
 * the panel's with the browser's credentials, and reports what it got.
 */
function stub(panel, who) {
  return `(async () => {
  const report = { who: ${JSON.stringify(who)}, at: location.href, cookie: document.cookie };
  const attempt = async (url) => {
    try {
      const answer = await fetch(url, { credentials: "include" });
      return { status: answer.status, text: (await answer.text()).slice(0, 4000) };
    } catch (e) {
      return { error: String(e) };
    }
  };
  report.here = await attempt("/api/messages");
  report.panel = await attempt(${JSON.stringify(`${panel}/api/messages`)});
  await fetch(${JSON.stringify(REPORT)}, { method: "POST", body: JSON.stringify(report) }).catch(() => {});
})();`;
}

let site;
let browser;
let panel;
before(async () => {
  const [port, adminPort] = [await freePort(), await freePort()];
  panel = `http://localhost:${adminPort}`;
  const root = siteCopy((yaml) => yaml);
  // Our own templates carry the script too: every public page, and every preview.
  const base = join(root, "templates", "base.html");
  const template = readFileSync(base, "utf8");
  assert.ok(template.includes("</body>"));
  writeFileSync(base, template.replace("</body>", `<script>${stub(panel, "template")}</script>\n</body>`));
  site = await startSite(root, {
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    ADMIN_EMAIL: ADMIN,
    ADMIN_PASSWORD: PASSWORD,
  });
  assert.equal(site.panel, panel);
  const { token } = await (await fetch(`${site.base}/api/contact/token`)).json();
  const sent = await fetch(`${site.base}/api/contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      name: "Jan Testowy",
      email: "jan.testowy@example.pl",
      phone: "",
      countryCode: "+48",
      message: SECRET,
      fullPhone: "",
      token,
    }),
  });
  assert.equal(sent.status, 200);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

/** A browser signed in on the panel, whose hostile scripts' reports are collected. */
async function signedIn() {
  const page = await openPage(browser);
  const context = page.context();
  const reports = [];
  await context.route(`**${REPORT}`, async (route) => {
    reports.push(JSON.parse(route.request().postData() ?? "{}"));
    await route.fulfill({ status: 204 });
  });
  // The home page's booking calendar (loaded on a click): a third-party script, here a hostile stand-in.
  await context.route("https://platform.docplanner.com/js/widget.js", (route) =>
    route.fulfill({ status: 200, contentType: "application/javascript", body: stub(site.panel, "widget") }),
  );
  page.on("dialog", (d) => d.accept());
  await page.goto(`${site.panel}/administratormagda`);
  await page.getByLabel("E-mail").fill(ADMIN);
  await page.getByLabel("Hasło").fill(PASSWORD);
  await page.getByRole("button", { name: "Zaloguj się" }).click();
  await page.getByRole("tab").first().waitFor();
  // The control: on the panel's own origin the inbox is there to be read.
  const own = await page.evaluate(async () => (await fetch("/api/messages")).text());
  assert.ok(own.includes(SECRET), "the signed-in panel reads the inbox");
  return { page, reports };
}

async function reportsOf(reports, who, count = 1) {
  const deadline = Date.now() + 15_000;
  while (reports.filter((r) => r.who === who).length < count && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return reports.filter((r) => r.who === who);
}

function assertGotNothing(report) {
  const what = JSON.stringify(report);
  assert.ok(!what.includes(SECRET), `the script read the inbox: ${what}`);
  assert.ok(!what.includes("jan.testowy@example.pl"), what);
  assert.doesNotMatch(report.cookie, /harmonia_session/, "no session cookie for the script");
  assert.ok(report.here.error || report.here.status === 404, `the public origin has no inbox: ${what}`);
  assert.ok(
    report.panel.error || report.panel.status === 0 || report.panel.status >= 400,
    `the panel answered a public page's script: ${what}`,
  );
}

describe("the panel's own origin", () => {
  test("a third-party widget and a script of our templates on a public page get no inbox and no cookie", async () => {
    const { page, reports } = await signedIn();
    const cookies = [];
    page.on("request", async (request) => {
      if (request.url().startsWith(`${site.base}/api/`)) {
        cookies.push([request.url(), (await request.allHeaders()).cookie ?? ""]);
      }
    });
    await page.goto(`${site.base}/`);
    // The calendar loads when the visitor asks for it.
    await page.getByRole("button", { name: "Pokaż kalendarz wolnych terminów" }).click();
    const [template] = await reportsOf(reports, "template");
    const [widget] = await reportsOf(reports, "widget");
    assert.ok(template, "the template's script ran on the public page");
    assert.ok(widget, "the widget's script ran on the public page");
    assert.equal(template.at, `${site.base}/`);
    assertGotNothing(template);
    assertGotNothing(widget);
    assert.ok(cookies.length >= 2, `requests to the public API were seen: ${JSON.stringify(cookies)}`);
    for (const [url, cookie] of cookies) {
      assert.doesNotMatch(cookie, /harmonia_session/, `${url} carried the admin's cookie`);
    }
    await page.context().close();
  });

  test("a script in a preview cannot read the inbox: the preview is sandboxed and runs none", async () => {
    const { page, reports } = await signedIn();
    await page.getByRole("tab", { name: "Cennik", exact: true }).click();
    await page.getByRole("tabpanel").getByRole("heading", { name: "Cennik", exact: true }).waitFor();
    await page.getByLabel("Treść sekcji 1").fill("Tekst podglądu do testu izolacji.");
    const opened = page.context().waitForEvent("page");
    await page.getByRole("button", { name: /^Podgląd/ }).click();
    const preview = await opened;
    await preview.getByText("Tekst podglądu do testu izolacji.").waitFor();
    assert.ok(preview.url().startsWith(`${site.panel}/api/preview/`), preview.url());
    // A script that ran would have reported over the network: look once it is quiet.
    await preview.waitForLoadState("networkidle");
    const fromPreview = reports.filter((r) => r.at?.includes("/api/preview/"));
    for (const report of fromPreview) assertGotNothing(report);
    assert.deepEqual(fromPreview, [], "no script ran in the preview");
    await page.context().close();
  });
});
