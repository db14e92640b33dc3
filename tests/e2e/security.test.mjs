// The panel's sign-in like a bank's, in a real browser: the authenticator app set up from
// 'Bezpieczeństwo' (a QR code and its key), sign-in with the password and the app's code,
// the active sessions and 'Wyloguj wszędzie', the audit log, and a forgotten password reset
// with the code e-mailed to the administrator.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launchBrowser, openPage, siteCopy, startSite, until } from "./harness.mjs";

const ADMIN = "magda@gabinet-harmonia.pl";
const PASSWORD = "hasło panelu do testów";

let site;
let browser;
before(async () => {
  site = await startSite(
    siteCopy((yaml) => yaml),
    { ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: PASSWORD },
  );
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

function fromBase32(text) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bits = [...text.replace(/=+$/, "")].map((c) => alphabet.indexOf(c).toString(2).padStart(5, "0")).join("");
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** What an authenticator app shows for `secret` (base32) at `ms` (RFC 6238, SHA-1, 6 digits). */
function totp(secret, ms = Date.now()) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 30_000)));
  const mac = createHmac("sha1", fromBase32(secret)).update(counter).digest();
  const offset = mac[19] & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

async function panel(viewport) {
  const page = await openPage(browser, viewport);
  page.on("dialog", (d) => d.accept());
  await page.goto(`${site.panel}/administratormagda`);
  return page;
}

async function password(page, value = PASSWORD) {
  await page.getByLabel("E-mail").fill(ADMIN);
  await page.getByLabel("Hasło", { exact: true }).fill(value);
  await page.getByRole("button", { name: "Zaloguj się" }).click();
}

let secret = "";
/** The recovery codes shown once at set-up: each signs in once. */
let recoveryCodes = [];

describe("sign-in like a bank's", () => {
  test("the app is set up from 'Bezpieczeństwo', then sign-in asks for its code", async () => {
    const page = await panel();
    await password(page);
    await page.getByRole("tab").first().waitFor();
    await page.getByRole("button", { name: "Bezpieczeństwo" }).click();
    await page.getByRole("button", { name: "Włącz logowanie kodem z aplikacji" }).click();
    const confirm = page.getByRole("dialog", { name: "Potwierdź, że to Ty" });
    // It says what she is doing, and asks for no code of an app she is only turning on.
    await confirm.getByText("Chcesz włączyć logowanie kodem z aplikacji uwierzytelniającej.").waitFor();
    await confirm.getByText("Dlatego upewniamy się, że to Ty: podaj hasło. Potwierdzenie").waitFor();
    await confirm.getByLabel("Hasło").fill(PASSWORD);
    assert.equal(await confirm.getByLabel(/Kod z aplikacji/).count(), 0);
    await confirm.getByRole("button", { name: "Potwierdź" }).click();
    await page.getByRole("img", { name: "Kod QR do zeskanowania w aplikacji" }).waitFor();
    secret = await page.locator(".totp-secret").innerText();
    assert.match(secret, /^[A-Z2-7]{32}$/);
    await page.getByLabel("Kod z aplikacji").fill(totp(secret));
    await page.getByRole("button", { name: "Włącz", exact: true }).click();
    await page.getByText("Kody zapasowe", { exact: true }).waitFor();
    recoveryCodes = await page.locator(".recovery-codes code").allInnerTexts();
    assert.equal(recoveryCodes.length, 10);
    await page.screenshot({ path: join(site.dataDir, "..", "bezpieczenstwo-1280.png"), fullPage: true });
    await page.getByRole("button", { name: "Wyloguj się" }).click();
    await page.context().close();

    // A new sign-in: the password is not enough.
    const phone = await panel({ width: 390, height: 844 });
    await password(phone);
    const code = phone.getByLabel("Kod z aplikacji (6 cyfr) lub kod zapasowy");
    await code.waitFor();
    assert.equal(await phone.getByRole("tab").count(), 0, "nothing of the panel before the code");
    await code.fill("000000");
    await phone.getByRole("button", { name: "Potwierdź" }).click();
    await phone.getByRole("alert").filter({ hasText: "Nieprawidłowy kod" }).waitFor();
    // The step the set-up used is spent; the next one (within the allowed drift) signs in.
    await code.fill(totp(secret, Date.now() + 30_000));
    await phone.getByRole("button", { name: "Potwierdź" }).click();
    await phone.getByRole("tab").first().waitFor();
    await phone.screenshot({ path: join(site.dataDir, "..", "kod-390.png") });
    await phone.context().close();
  });

  test("sessions are listed, 'Wyloguj wszędzie' ends the others, and the audit log shows it all", async () => {
    // Another device signs in with a recovery code (the app's code of this half minute is spent).
    const other = await panel();
    await password(other);
    await other.getByLabel("Kod z aplikacji (6 cyfr) lub kod zapasowy").fill(recoveryCodes[0]);
    await other.getByRole("button", { name: "Potwierdź" }).click();
    await other.getByRole("tab").first().waitFor();
    // A third device signs in and sits in the panel.
    const third = await panel();
    await password(third);
    await third.getByLabel("Kod z aplikacji (6 cyfr) lub kod zapasowy").fill(recoveryCodes[1]);
    await third.getByRole("button", { name: "Potwierdź" }).click();
    await third.getByRole("tab").first().waitFor();
    // A fourth tries a wrong code.
    const page = await panel();
    await password(page);
    await page.getByLabel("Kod z aplikacji (6 cyfr) lub kod zapasowy").fill("123456");
    await page.getByRole("button", { name: "Potwierdź" }).click();
    await page.getByRole("alert").filter({ hasText: "Nieprawidłowy kod" }).waitFor();
    await page.context().close();
    await other.getByRole("button", { name: "Bezpieczeństwo" }).click();
    const sessions = other.getByRole("region", { name: "Lista sesji" });
    await sessions.getByText("To urządzenie").waitFor();
    await other.getByRole("button", { name: "Wyloguj wszędzie" }).click();
    await other.getByRole("status").filter({ hasText: "Wylogowano inne urządzenia" }).waitFor();
    // The third device's next step lands on the sign-in, which says why.
    await third.getByRole("button", { name: "Cennik", exact: true }).click();
    await third.getByRole("alert").filter({ hasText: "Wylogowano na innym urządzeniu" }).waitFor();
    await third.getByLabel("E-mail").waitFor();
    assert.equal(await third.getByRole("tab").count(), 0, "nothing of the panel is left on screen");
    await third.context().close();
    await other.getByRole("button", { name: "Strony" }).click();
    await other.getByRole("button", { name: "Bezpieczeństwo" }).click();
    const log = other.getByRole("region", { name: "Lista zdarzeń" });
    await log.getByRole("cell", { name: "Wylogowanie na innych urządzeniach" }).waitFor();
    const text = await log.innerText();
    for (const event of [
      "Zalogowanie",
      "Błędny kod z aplikacji",
      "Włączenie aplikacji uwierzytelniającej",
      "Wylogowanie na innych urządzeniach",
    ]) {
      assert.match(text, new RegExp(event), `${event} in the audit log`);
    }
    assert.match(text, /kod z aplikacji/);
    assert.match(text, /kod zapasowy/);
    await other.context().close();
  });

  test("a passkey added in 'Bezpieczeństwo' signs in alone, with Chromium's virtual authenticator", async () => {
    const page = await panel();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await password(page);
    await page.getByLabel("Kod z aplikacji (6 cyfr) lub kod zapasowy").fill(recoveryCodes[2]);
    await page.getByRole("button", { name: "Potwierdź" }).click();
    await page.getByRole("tab").first().waitFor();
    await page.getByRole("button", { name: "Bezpieczeństwo" }).click();
    await page.getByLabel("Nazwa klucza").fill("Laptop w gabinecie");
    await page.getByRole("button", { name: "Dodaj klucz dostępu" }).click();
    const confirm = page.getByRole("dialog", { name: "Potwierdź, że to Ty" });
    await confirm.getByLabel("Hasło").fill(PASSWORD);
    await confirm.getByText("podaj hasło i kod z aplikacji uwierzytelniającej.").waitFor();
    await confirm.getByLabel("Kod z aplikacji (6 cyfr) lub kod zapasowy").fill(recoveryCodes[3]);
    await confirm.getByRole("button", { name: "Potwierdź" }).click();
    await page.getByRole("status").filter({ hasText: "Dodano klucz dostępu." }).waitFor();
    await page.getByRole("button", { name: "Usuń klucz Laptop w gabinecie" }).waitFor();
    await page.getByRole("button", { name: "Wyloguj się" }).click();
    await page.waitForURL(`${site.base}/`);
    await page.goto(`${site.panel}/administratormagda`);
    await page.getByRole("button", { name: "Użyj klucza dostępu" }).click();
    await page.getByRole("tab").first().waitFor();
    await page.getByRole("button", { name: "Bezpieczeństwo" }).click();
    const log = page.getByRole("region", { name: "Lista zdarzeń" });
    await log.getByRole("cell", { name: "klucz dostępu" }).first().waitFor();
    assert.match(await log.innerText(), /Dodanie klucza dostępu/);
    // The only failed request is the one that asked for the password again (401).
    assert.deepEqual(
      page.problems.filter((p) => !p.includes("status of 401")),
      [],
    );
    await page.context().close();
  });

  test("a forgotten password is reset with the code from the administrator's mailbox and the app's code", async () => {
    const page = await panel();
    await page.getByRole("button", { name: "Nie pamiętasz hasła?" }).click();
    await page.getByLabel("E-mail administratora").fill(ADMIN);
    await page.getByRole("button", { name: "Wyślij kod" }).click();
    await page.getByRole("status").filter({ hasText: "wysłaliśmy na niego kod" }).waitFor();
    // The outbox writes the e-mail after the answer: read the folder until it has.
    const outbox = join(site.dataDir, "outbox");
    const mails = () =>
      (existsSync(outbox) ? readdirSync(outbox) : []).map((f) => readFileSync(join(outbox, f), "utf8"));
    const mail = await until(() => mails().find((m) => m.includes("Kod: ")), Boolean, "the code is e-mailed");
    const code = mail.match(/Kod: (\d{8})/)[1];
    await page.getByLabel("Kod z e-maila").fill(code);
    await page.getByLabel("Kod z aplikacji (jeśli jej używasz)").fill(recoveryCodes[4]);
    await page.getByLabel("Nowe hasło (co najmniej 12 znaków)").fill("zupełnie nowe hasło gabinetu");
    await page.getByLabel("Powtórz nowe hasło").fill("zupełnie nowe hasło gabinetu");
    await page.getByRole("button", { name: "Ustaw nowe hasło" }).click();
    await page.getByRole("status").filter({ hasText: "Zaloguj się nowym hasłem" }).waitFor();
    await password(page, PASSWORD);
    await page.getByRole("alert").filter({ hasText: "Błąd logowania" }).waitFor();
    await password(page, "zupełnie nowe hasło gabinetu");
    await page.getByLabel("Kod z aplikacji (6 cyfr) lub kod zapasowy").waitFor();
    await page.context().close();
  });
});

describe("a session that idles out", () => {
  let quick;
  before(async () => {
    quick = await startSite(
      siteCopy((yaml) => yaml),
      {
        ADMIN_EMAIL: ADMIN,
        ADMIN_PASSWORD: PASSWORD,
        // Long enough for the panel to open on a busy machine before it idles (with 3 s,
        // make test-busy's sign-in outlived the session and no tab ever showed); its own
        // refreshes, every 10 s, do not count as activity, so it ends all the same.
        SESSION_IDLE_SECONDS: "12",
      },
    );
  });
  after(async () => {
    await quick?.stop();
  });

  test("ends while the panel refreshes by itself, and the sign-in says so", async () => {
    const page = await openPage(browser);
    await page.goto(`${quick.panel}/administratormagda`);
    await password(page);
    await page.getByRole("tab").first().waitFor();
    // Nobody touches the panel; it refreshes the repository's status every 10 s by itself.
    await page.getByRole("alert").filter({ hasText: "Sesja wygasła" }).waitFor();
    await page.getByLabel("E-mail").waitFor();
    assert.equal(await page.getByRole("tab").count(), 0);
    await page.context().close();
  });
});
