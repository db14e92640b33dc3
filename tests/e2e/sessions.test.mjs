// 'Bezpieczeństwo' in words, at 1280 and 390 px: the sessions list names each device as
// people say it ('Safari na iPhonie', 'Chrome na Windows'), gives the address as it is and
// marks this session; the recovery codes shown once can be saved as a text file and
// printed on a sheet of their own.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { openPage, signIn } from "./harness.mjs";
import { ADMIN, PASSWORD, VIEWPORTS, ownerSession } from "./owner.mjs";

const session = ownerSession("sessions");

const AGENTS = {
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  windows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
};

/** What an authenticator app shows for the base32 `secret` now (RFC 6238, SHA-1, 6 digits). */
function totp(secret) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bits = [...secret].map((c) => alphabet.indexOf(c).toString(2).padStart(5, "0")).join("");
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[19] & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** The signed-in panel in a browser that says it is `agent`. */
async function panelAs(agent, viewport) {
  const { site, browser } = session;
  const page = await openPage(browser, viewport, { bypassCSP: true, userAgent: agent });
  await signIn(page, site.panel, ADMIN, PASSWORD);
  return page;
}

describe("sessions and recovery codes in words", () => {
  for (const viewport of VIEWPORTS) {
    const [mine, other] = viewport.width < 600 ? ["iphone", "windows"] : ["windows", "iphone"];
    const words = { iphone: "Safari na iPhonie", windows: "Chrome na Windows" };

    test(`the sessions list names devices and marks this one at ${viewport.width} px`, async () => {
      const elsewhere = await panelAs(AGENTS[other], viewport);
      const page = await panelAs(AGENTS[mine], viewport);
      await page.getByRole("button", { name: "Bezpieczeństwo" }).click();
      const list = page.getByRole("region", { name: "Lista sesji" });
      const here = list.getByRole("row").filter({ hasText: "ta sesja – to urządzenie" });
      await here.waitFor();
      assert.match(await here.innerText(), new RegExp(`${words[mine]}[\\s\\S]*ta sesja`));
      assert.match(await here.innerText(), /127\.0\.0\.1/, "the address as it is");
      const there = list.getByRole("row").filter({ hasText: words[other] });
      assert.ok((await there.count()) >= 1, await list.innerText());
      assert.doesNotMatch(await list.innerText(), /Mozilla|AppleWebKit/, "no raw browser strings");
      await session.shot(page, "sesje");
      await session.clean(page, "sessions in words");
      await elsewhere.context().close();
      await page.context().close();
    });

    test(`recovery codes are saved as a file and printed alone at ${viewport.width} px`, async () => {
      const page = await panelAs(AGENTS[mine], viewport);
      page.on("dialog", (d) => d.accept());
      await page.getByRole("button", { name: "Bezpieczeństwo" }).click();
      await page.getByRole("button", { name: "Włącz logowanie kodem z aplikacji" }).click();
      const confirm = page.getByRole("dialog", { name: "Potwierdź, że to Ty" });
      await confirm.getByLabel("Hasło").fill(PASSWORD);
      await confirm.getByRole("button", { name: "Potwierdź" }).click();
      const secret = (await page.locator(".totp-secret").innerText()).trim();
      await page.getByLabel("Kod z aplikacji").fill(totp(secret));
      await page.getByRole("button", { name: "Włącz", exact: true }).click();
      await page.getByText("Kody zapasowe", { exact: true }).waitFor();
      const codes = await page.locator(".form-notice .recovery-codes code").allInnerTexts();
      assert.equal(codes.length, 10);

      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Pobierz kody jako plik tekstowy" }).click();
      const file = await download;
      assert.equal(file.suggestedFilename(), "kody-zapasowe-panelu.txt");
      const text = readFileSync(await file.path(), "utf8");
      assert.match(text, /^Kody zapasowe do panelu strony gabinetu \(utworzone \d{1,2} \S+ \d{4}\)/);
      for (const code of codes) assert.ok(text.includes(`\r\n${code}\r\n`), `${code} in ${text}`);

      await page.getByRole("button", { name: "Widok do druku" }).click();
      const sheet = page.getByRole("region", { name: "Kody zapasowe do panelu strony gabinetu" });
      await sheet.waitFor();
      assert.deepEqual(await sheet.locator("code").allInnerTexts(), codes);
      await session.clean(page, "recovery codes with the print view");
      await page.emulateMedia({ media: "print" });
      assert.ok(await sheet.locator("code").first().isVisible(), "the codes are printed");
      assert.ok(!(await page.getByRole("button", { name: "Bezpieczeństwo" }).isVisible()), "the panel is not");
      assert.ok(!(await page.getByRole("button", { name: "Drukuj" }).isVisible()), "nor the sheet's buttons");
      await session.shot(page, "kody-druk");
      await page.emulateMedia({ media: "screen" });
      await page.getByRole("button", { name: "Zamknij widok do druku" }).click();
      await sheet.waitFor({ state: "detached" });

      // Off again, so that the next width signs in with the password alone.
      await page.getByRole("button", { name: "Wyłącz", exact: true }).click();
      await page.getByText("Wyłączona.", { exact: false }).waitFor();
      await page.context().close();
    });
  }
});
