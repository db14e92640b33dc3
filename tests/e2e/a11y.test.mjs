// WCAG 2.2 AA with axe-core on every route and on the states a visitor or the administrator
// meets: the open booking dialog, the mobile menu, the contact form with errors, the cookie
// banner, the call control's list of crisis numbers, a calendar or a booking widget that did
// not load, a contact message that could not be sent, and the signed-in admin panel (its settings, the new-article dialog, the price list,
// the practice's facts, pictures and the inbox). Any violation fails.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { violations } from "./axe.mjs";
import { launchBrowser, openPage, publicRoutes, siteCopy, startSite } from "./harness.mjs";

let site;
let browser;
before(async () => {
  // With the operator's analytics tag, so that the cookie banner (only there with one) is checked
  // too; the site without it differs only by the banner and its footer button.
  site = await startSite(
    siteCopy((yaml) => yaml),
    {
      ADMIN_EMAIL: "magda@gabinet-harmonia.pl",
      ADMIN_PASSWORD: "hasło do testu dostępności",
      ANALYTICS_ID: "G-7QH2KX4M1B",
    },
  );
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

/** axe runs as an injected script, so this page's context bypasses our CSP. */
async function axePage(viewport, options = {}) {
  return openPage(browser, viewport, { bypassCSP: true, ...options });
}

describe("accessibility", () => {
  test("every route passes axe at 1280 px and 390 px", async () => {
    const routes = [...publicRoutes(), "/nie-ma-takiej-strony"];
    const found = [];
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const page = await axePage(viewport);
      for (const route of routes) {
        await page.goto(site.base + route, { waitUntil: "load" });
        found.push(...(await violations(page, `${route} @${viewport.width}`)));
      }
      await page.goto(`${site.panel}/administratormagda`, { waitUntil: "load" });
      await page.getByLabel("E-mail").waitFor();
      found.push(...(await violations(page, `the panel's sign-in @${viewport.width}`)));
      await page.context().close();
    }
    assert.deepEqual(found, []);
  });

  test("the open booking dialog, the mobile menu and the cookie banner pass axe", async () => {
    const page = await axePage({ width: 390, height: 844 }, { askConsent: true });
    await page.goto(`${site.base}/uslugi/terapia-par`);
    const found = await violations(page, "cookie banner");
    await page.getByRole("button", { name: "Odrzucam" }).click();
    await page.getByRole("button", { name: "Otwórz menu" }).click();
    found.push(...(await violations(page, "mobile menu")));
    await page.getByRole("button", { name: "Zamknij menu" }).click();
    await page.locator(".island a.btn").first().click();
    await page.getByRole("dialog", { name: "Umów wizytę" }).waitFor();
    found.push(...(await violations(page, "booking dialog")));
    assert.deepEqual(found, []);
    await page.context().close();
  });

  test("the call control's list, the cookie banner on a wide screen and the explained failures pass axe", async () => {
    const found = [];
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 900 },
    ]) {
      const page = await axePage(viewport, { askConsent: true });
      // A Monday night in Warsaw: the practice is closed, the control lists the crisis numbers.
      await page.clock.setFixedTime(new Date("2025-03-03T21:30:00+01:00"));
      await page.goto(`${site.base}/`);
      await page.locator("#consent").waitFor();
      found.push(...(await violations(page, `cookie banner @${viewport.width}`)));
      await page.getByRole("button", { name: "Odrzucam" }).click();
      await page.getByRole("button", { name: /^Telefony pomocy/ }).click();
      await page.locator("#call-panel").waitFor();
      found.push(...(await violations(page, `call control's list @${viewport.width}`)));
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Pokaż kalendarz wolnych terminów" }).click();
      await page.waitForFunction(() => document.activeElement?.matches("[data-widget-fallback]"));
      found.push(...(await violations(page, `calendar that did not load @${viewport.width}`)));
      await page.context().close();
    }
    const page = await axePage({ width: 390, height: 844 });
    await page.goto(`${site.base}/uslugi/terapia-indywidualna`);
    await page.locator(".island a.btn").first().click();
    await page.waitForFunction(() => document.activeElement?.matches("dialog .widget-fallback"));
    found.push(...(await violations(page, "booking dialog whose widget did not load")));
    await page.keyboard.press("Escape");
    await page.route("**/api/contact", (route) => route.fulfill({ status: 500, body: "" }));
    await page.goto(`${site.base}/#contact`);
    await page.waitForSelector('[data-island="ContactForm"][data-hydrated="true"]');
    await page.getByLabel("Imię", { exact: true }).fill("Anna");
    await page.getByLabel("E-mail").fill("anna@example.pl");
    await page.getByLabel("Wiadomość").fill("Dzień dobry.");
    await page.getByRole("button", { name: "Wyślij wiadomość" }).click();
    await page.waitForFunction(() => document.activeElement?.matches(".form-notice-error"));
    found.push(...(await violations(page, "contact form that could not send")));
    await page.context().close();
    assert.deepEqual(found, []);
  });

  test("the contact form with errors shown passes axe", async () => {
    const page = await axePage({ width: 1280, height: 900 });
    await page.goto(`${site.base}/#contact`);
    await page.waitForSelector('[data-island="ContactForm"][data-hydrated="true"]');
    await page.getByLabel("Telefon (opcjonalnie)").fill("123");
    await page.getByRole("button", { name: "Wyślij wiadomość" }).click();
    await page.locator("#contact-name-error").waitFor();
    assert.deepEqual(await violations(page, "contact form with errors"), []);
    await page.context().close();
  });

  test("the signed-in admin panel passes axe", async () => {
    const page = await axePage({ width: 1280, height: 900 });
    // Leaving 'Dane gabinetu' with the notice ticked but unsaved asks first: leave.
    page.on("dialog", (d) => d.accept());
    await page.goto(`${site.panel}/administratormagda`);
    await page.getByLabel("E-mail").fill("magda@gabinet-harmonia.pl");
    await page.getByLabel("Hasło").fill("hasło do testu dostępności");
    await page.getByRole("button", { name: "Zaloguj się" }).click();
    await page.getByRole("tab").first().waitFor();
    await page.getByRole("button", { name: "Historia zmian" }).click();
    await page.locator("details.settings-details summary").click();
    assert.deepEqual(await violations(page, "admin panel"), []);
    await page.getByRole("button", { name: "Nowy artykuł" }).click();
    await page.getByLabel("Tytuł artykułu").fill("Terapia online");
    await page.getByText("Ten adres jest już zajęty").waitFor();
    assert.deepEqual(await violations(page, "new article dialog"), []);
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Cennik", exact: true }).click();
    await page.getByRole("heading", { name: "Cennik" }).waitFor();
    assert.deepEqual(await violations(page, "admin prices"), []);
    await page.getByRole("button", { name: "Dane gabinetu", exact: true }).click();
    await page.getByRole("heading", { name: "Dane gabinetu" }).waitFor();
    await page.getByLabel(/Pokazuj komunikat/).check();
    assert.deepEqual(await violations(page, "admin facts"), []);
    await page.getByRole("button", { name: "Obrazy" }).click();
    await page.getByRole("heading", { name: "Obrazy" }).waitFor();
    assert.deepEqual(await violations(page, "admin pictures"), []);
    await fetch(`${site.base}/api/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        name: "Anna",
        email: "anna@example.pl",
        phone: "",
        countryCode: "+48",
        message: "Dzień dobry.",
        fullPhone: "",
        website: "x",
      }),
    });
    await page.getByRole("button", { name: "Wiadomości" }).click();
    await page.getByRole("button", { name: "Anna" }).click();
    await page.getByRole("heading", { name: "Wiadomość od Anna" }).waitFor();
    assert.deepEqual(await violations(page, "admin inbox"), []);
    await page.context().close();
  });
});
