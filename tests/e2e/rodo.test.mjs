// A data-subject request done as the owner does it, at 1280 and 390 px: someone who wrote
// through the contact form asks for her data (RODO art. 15 and 20) and then for its erasure
// (art. 17). The document she gets is Polish and readable; after the erasure no file in the
// server's data folder holds her address or what she wrote, and the panel says what is left
// (the backups, the practice's mailbox).
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { violations } from "./axe.mjs";
import { PASSWORD, VIEWPORTS, ownerSession } from "./owner.mjs";
import { waitFor } from "./harness.mjs";

const session = ownerSession("rodo");

/** Sends a message through the public API as the contact form does. */
async function write(email, text) {
  const { token } = await (await fetch(`${session.site.base}/api/contact/token`)).json();
  const body = {
    name: "Zofia Nowak",
    email,
    phone: "501234567",
    countryCode: "+48",
    fullPhone: "+48501234567",
    message: text,
    token,
    website: "",
  };
  const answer = await fetch(`${session.site.base}/api/contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(answer.status, 200);
}

/** The files under the data folder (links not followed) whose bytes hold `needle`. */
function filesHolding(needle) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && holds(path, needle)) found.push(path);
    }
  };
  walk(session.site.dataDir);
  return found;
}

/** Whether the file at `path` holds `needle` (a file the server just removed holds nothing). */
function holds(path, needle) {
  try {
    return readFileSync(path).includes(Buffer.from(needle));
  } catch {
    return false;
  }
}

function emlFiles() {
  const outbox = join(session.site.dataDir, "outbox");
  return readdirSync(outbox).filter((f) => f.endsWith(".eml") && statSync(join(outbox, f)).isFile());
}

describe("a data-subject request", () => {
  for (const viewport of VIEWPORTS) {
    test(`the owner exports and erases one person's messages at ${viewport.width} px`, async () => {
      const email = `zofia-${viewport.width}@example.pl`;
      const text = `Proszę o termin w czwartek (${viewport.width}).`;
      await write(email, text);
      await waitFor(async () => filesHolding(email).some((f) => f.endsWith(".eml")), "the e-mail in the outbox");
      const before = emlFiles().length;

      const page = await session.panel(viewport);
      page.on("dialog", (d) => d.accept());
      await page.getByRole("button", { name: "Wiadomości" }).click();
      await page.getByLabel("Wiadomości jednej osoby (e-mail)").fill(email);
      await page.getByRole("button", { name: "Pokaż", exact: true }).click();
      await page.getByRole("button", { name: "Zofia Nowak" }).waitFor();

      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Pobierz dokument dla tej osoby" }).click();
      const confirm = page.getByRole("dialog", { name: "Potwierdź, że to Ty" });
      await confirm.getByText("Chcesz pobrać albo usunąć wiadomości z danymi osobowymi").waitFor();
      await confirm.getByLabel("Hasło").fill(PASSWORD);
      await confirm.getByRole("button", { name: "Potwierdź" }).click();
      const file = await download;
      assert.equal(file.suggestedFilename(), "dane-osobowe.html");
      const html = readFileSync(await file.path(), "utf8");
      for (const expected of ["Data otrzymania", "Imię i nazwisko", "Treść wiadomości", email, "+48501234567"]) {
        assert.ok(html.includes(expected), `${expected} missing in ${html}`);
      }
      assert.ok(html.includes(text), "what she wrote");
      assert.match(
        html,
        /Data otrzymania<\/th><td>\d{1,2} (stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|grudnia) \d{4}, \d\d:\d\d</,
      );
      assert.doesNotMatch(html, /\b1[0-9]{9}\b|receivedAt|"status"|delivered|pending/, "no Unix time, no English key");
      await session.shot(page, "rodo-panel");
      await session.clean(page, "inbox with a person's messages");

      // The document itself is readable and accessible as she opens it.
      const documentPage = await page.context().newPage();
      await documentPage.setContent(html);
      assert.deepEqual(await violations(documentPage, `export document at ${viewport.width} px`), []);
      await documentPage.close();

      const json = page.waitForEvent("download");
      await page.getByRole("button", { name: "Pobierz dane do przeniesienia (JSON)" }).click();
      const exported = JSON.parse(readFileSync(await (await json).path(), "utf8"));
      assert.equal(exported.messages[0].message, text);

      await page.getByRole("button", { name: "Usuń wszystkie" }).click();
      // Deleting for good asks first, in the panel's own words, with 'Anuluj' the default.
      const forGood = page.getByRole("dialog", { name: "Usunąć na zawsze?" });
      assert.match(await forGood.innerText(), /znikną na zawsze/);
      await forGood.getByRole("button", { name: "Usuń na zawsze" }).click();
      const report = page.locator(".inbox-erased");
      await report.waitFor();
      const said = await report.innerText();
      assert.match(said, /Usunięto z serwera wiadomości: 1, kopie e-maili: 1\./);
      assert.match(said, /do 12 miesięcy/);
      assert.match(said, /skrzynki pocztowej gabinetu/);
      await page.getByText("Brak wiadomości.").waitFor();
      await session.shot(page, "rodo-usunieto");
      await session.clean(page, "inbox after an erasure");

      assert.equal(emlFiles().length, before - 1, "her .eml file is gone, no other");
      assert.deepEqual(filesHolding(email), [], "no file in the data folder holds her address");
      assert.deepEqual(filesHolding(text), [], "no file holds what she wrote");
      await page.context().close();
    });
  }
});
