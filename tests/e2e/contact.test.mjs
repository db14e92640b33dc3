// The contact form in a real browser: every behaviour the specification gives it.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launchBrowser, openPage, startSite, until } from "./harness.mjs";

const codes = [
  "+48 PL",
  "+380 UA",
  "+420 CZ",
  "+421 SK",
  "+370 LT",
  "+371 LV",
  "+372 EE",
  "+49 DE",
  "+44 GB",
  "+1 US",
  "+33 FR",
  "+39 IT",
];
const SENT = ["Wiadomość wysłana!", "Dziękujemy za kontakt. Odpowiemy tak szybko, jak to możliwe."];
const FAILED = [
  "Błąd wysyłania",
  "Przepraszamy, wystąpił błąd podczas wysyłania wiadomości. Spróbuj ponownie później.",
];
const PHONE_ERROR = "Numer telefonu powinien składać się z 9 cyfr";

let site;
let browser;
before(async () => {
  site = await startSite(undefined, {
    CONTACT_MIN_SECONDS: "0",
    CONTACT_RATE_PER_MINUTE: "1000",
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

async function formPage(options) {
  const page = await openPage(browser, { width: 1280, height: 900 }, options);
  await page.goto(`${site.base}/#contact`);
  if (!options) await page.waitForSelector('[data-island="ContactForm"][data-hydrated="true"]');
  return page;
}

async function fillValid(page) {
  await page.getByLabel("Imię", { exact: true }).fill("Anna Kowalska");
  await page.getByLabel("E-mail").fill("anna@example.pl");
  await page.getByLabel("Kierunkowy").selectOption("+380");
  await page.getByLabel("Telefon (opcjonalnie)").fill("501234567");
  await page.getByLabel("Wiadomość").fill("Dzień dobry, chciałabym umówić konsultację.");
}

function emlFiles() {
  try {
    return readdirSync(join(site.dataDir, "outbox")).filter((f) => f.endsWith(".eml"));
  } catch {
    return [];
  }
}

async function values(page) {
  return page.evaluate(() =>
    ["name", "email", "countryCode", "phone", "message"].map((f) => document.getElementById(`contact-${f}`).value),
  );
}

describe("contact form", () => {
  test("offers the twelve country codes with +48 first and labels every field", async () => {
    const page = await formPage();
    assert.deepEqual(
      (await page.locator("#contact-countryCode option").allInnerTexts()).map((t) => t.trim()),
      codes,
    );
    assert.equal(await page.getByLabel("Kierunkowy").inputValue(), "+48");
    assert.equal(await page.getByLabel("E-mail").getAttribute("type"), "email");
    // The form asks for what its messages and the privacy policy name: the first name only.
    assert.equal(await page.locator('label[for="contact-name"]').innerText(), "Imię");
    assert.equal(await page.locator("#contact-name").getAttribute("autocomplete"), "given-name");
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test("keeps the phone as typed and shows the 9-digit rule when the field is left, until it is right", async () => {
    const page = await formPage();
    const phone = page.getByLabel("Telefon (opcjonalnie)");
    await phone.pressSequentially("50-12 a34");
    assert.equal(await phone.inputValue(), "50-12 a34", "nothing is taken away while typing");
    const error = page.locator("#contact-phone-error");
    assert.equal(await error.count(), 0, "no error while typing");
    await page.getByLabel("Wiadomość").click();
    assert.equal(await error.innerText(), PHONE_ERROR);
    assert.equal(await phone.getAttribute("aria-describedby"), "contact-phone-error");
    assert.equal(await phone.getAttribute("aria-invalid"), "true");
    await phone.fill("+48 501-234-567");
    await until(() => error.count(), 0, "a shown error goes as soon as the number is right");
    await page.context().close();
  });

  test("blocks the submit while a field is wrong, and sends nothing", async () => {
    const page = await formPage();
    let posts = 0;
    page.on("request", (r) => r.method() === "POST" && posts++);
    await fillValid(page);
    await page.getByLabel("Telefon (opcjonalnie)").fill("12345678");
    await page.getByRole("button", { name: "Wyślij wiadomość" }).click();
    assert.equal(await page.locator("#contact-phone-error").innerText(), PHONE_ERROR);
    await page.getByLabel("Imię", { exact: true }).fill("");
    await page.getByRole("button", { name: "Wyślij wiadomość" }).click();
    assert.equal(await page.locator("#contact-name-error").innerText(), "Podaj imię.");
    // The submit's checks end by focusing the first error: a send would have started by then.
    await until(() => page.evaluate(() => document.activeElement.id), "contact-name", "focus goes to the first error");
    assert.equal(posts, 0);
    await page.context().close();
  });

  test("what is typed before the form hydrates is what it sends", async () => {
    const page = await openPage(browser, { width: 1280, height: 900 });
    let release;
    const released = new Promise((r) => (release = r));
    const held = async (route) => {
      await released;
      await route.continue();
    };
    await page.route("**/assets/islands/ContactForm.*", held);
    await page.route("**/assets/islands/chunks/**", held);
    await page.goto(`${site.base}/#contact`);
    await page.waitForSelector('[data-island="ContactForm"][data-hydrated="loading"]');
    await fillValid(page);
    const posted = page.waitForRequest((r) => r.url().endsWith("/api/contact") && r.method() === "POST");
    release();
    await page.waitForSelector('[data-island="ContactForm"][data-hydrated="true"]');
    assert.deepEqual(
      await values(page),
      ["Anna Kowalska", "anna@example.pl", "+380", "501234567", "Dzień dobry, chciałabym umówić konsultację."],
      "hydration keeps the typing",
    );
    await page.locator(".contact-form button[type=submit]").click();
    const body = JSON.parse((await posted).postData());
    assert.equal(body.name, "Anna Kowalska");
    assert.equal(body.email, "anna@example.pl");
    assert.equal(body.countryCode, "+380");
    assert.equal(body.phone, "501234567");
    assert.equal(body.message, "Dzień dobry, chciałabym umówić konsultację.");
    await page.getByRole("status").filter({ hasText: SENT[0] }).waitFor();
    await page.context().close();
  });

  test("sends, shows the sending label, resets to empty with +48 and writes the e-mail", async () => {
    const page = await formPage();
    const before = emlFiles().length;
    // The message is held on its way until the sending state has been read.
    let release;
    const released = new Promise((r) => (release = r));
    await page.route("**/api/contact", async (route) => {
      await released;
      await route.continue();
    });
    await fillValid(page);
    const button = page.locator(".contact-form button[type=submit]");
    await button.click();
    await until(() => button.innerText(), "Wysyłanie…", "the button says it is sending");
    assert.equal(await button.isDisabled(), true);
    release();
    const toast = page.getByRole("status").filter({ hasText: SENT[0] });
    await toast.waitFor();
    assert.match(await toast.innerText(), new RegExp(SENT[1]));
    await until(() => values(page), ["", "", "+48", "", ""], "the form is reset");
    await until(() => button.innerText(), "Wyślij wiadomość", "the button is ready again");
    await until(() => emlFiles().length, before + 1, "the outbox wrote the message as .eml");
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test("keeps every value and shows the error toast when the server fails", async () => {
    const page = await formPage();
    await page.route("**/api/contact", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: "{}",
      }),
    );
    await fillValid(page);
    await page.getByRole("button", { name: "Wyślij wiadomość" }).click();
    const toast = page.getByRole("alert").filter({ hasText: FAILED[0] });
    await toast.waitFor();
    assert.match(await toast.innerText(), new RegExp(FAILED[1]));
    assert.deepEqual(await values(page), [
      "Anna Kowalska",
      "anna@example.pl",
      "+380",
      "501234567",
      "Dzień dobry, chciałabym umówić konsultację.",
    ]);
    await page.context().close();
  });

  test("toasts are announced, can be dismissed, and go away after about 5 s", async () => {
    const page = await openPage(browser, { width: 1280, height: 900 });
    // The page's clock is the test's: the toast's 5 s are counted on it, not on a busy machine's.
    await page.clock.install();
    await page.goto(`${site.base}/#contact`);
    await page.waitForSelector('[data-island="ContactForm"][data-hydrated="true"]');
    await page.route("**/api/contact", (route) => route.fulfill({ status: 500, body: "" }));
    await fillValid(page);
    assert.equal(await page.locator(".toasts").getAttribute("aria-live"), "polite");
    await page.getByRole("button", { name: "Wyślij wiadomość" }).click();
    await page.locator(".toast").waitFor();
    await page.getByRole("button", { name: "Zamknij powiadomienie" }).click();
    await until(() => page.locator(".toast").count(), 0, "a dismissed toast is gone");
    // Paused a minute ahead of the page's clock, which goes on meanwhile: never in its past.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 60_000);
    await page.getByRole("button", { name: "Wyślij wiadomość" }).click();
    await page.locator(".toast").waitFor();
    await page.clock.runFor(4_000);
    assert.equal(await page.locator(".toast").count(), 1, "shown 4 s later");
    await page.clock.runFor(1_500);
    await until(() => page.locator(".toast").count(), 0, "gone 5.5 s after it was shown");
    await page.context().close();
  });
});

describe("contact form without JavaScript", () => {
  test("posts to the sidecar, confirms with what was typed, and then says it was sent", async () => {
    const page = await formPage({ javaScriptEnabled: false });
    await fillValid(page);
    await page.getByRole("button", { name: "Wyślij wiadomość" }).click();
    await page.waitForURL(`${site.base}/api/contact`);
    assert.match(await page.locator(".form-notice").innerText(), /kliknij „Wyślij wiadomość”, aby potwierdzić/);
    assert.deepEqual(await values(page), [
      "Anna Kowalska",
      "anna@example.pl",
      "+380",
      "501234567",
      "Dzień dobry, chciałabym umówić konsultację.",
    ]);
    await page.getByRole("button", { name: "Wyślij wiadomość" }).click();
    await page.locator(".form-notice-success").waitFor();
    assert.match(await page.locator(".form-notice-success").innerText(), /Wiadomość wysłana!/);
    assert.equal(await page.locator("h1").innerText(), "Kontakt");
    await page.context().close();
  });

  test("shows what was wrong next to the field, keeping the rest", async () => {
    const page = await formPage({ javaScriptEnabled: false });
    await fillValid(page);
    // The browser's own checks would stop this phone; a bot or an old browser would not.
    await page.evaluate(() => {
      document.querySelector(".contact-form").noValidate = true;
    });
    await page.getByLabel("Telefon (opcjonalnie)").fill("12345");
    await page.getByRole("button", { name: "Wyślij wiadomość" }).click();
    await page.waitForURL(`${site.base}/api/contact`);
    assert.equal(await page.locator("#contact-phone-error").innerText(), PHONE_ERROR);
    assert.equal(await page.getByLabel("Imię", { exact: true }).inputValue(), "Anna Kowalska");
    assert.equal(await page.locator('label[for="contact-name"]').innerText(), "Imię", "the same label as the island's");
    await page.context().close();
  });
});
