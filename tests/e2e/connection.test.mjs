// The panel tells a lost connection from a refused save, and an ended session from a
// break-in, with one message at a time: a save that cannot reach the server says so in the
// save bar (the text is kept in this browser) and goes through by itself once the server
// answers again, with no "Nie udało się zapisać zmian." on the way; a session the server ended
// because its password was set anew is said once, in the server's words, in the sign-in
// dialog, never "Sesja wygasła" beside "Wylogowano na innym urządzeniu". Screenshots go to
// $SHOTS (or a temp dir).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ownerSession } from "./owner.mjs";

const session = ownerSession("connection");
const WAITING = "Brak połączenia z serwerem. Twój tekst jest zapisany w tej przeglądarce; spróbujemy ponownie…";

/** Every notification and message the panel shows, as text. */
function messages(page) {
  return page.locator(".toast, .save-message, [role=alert]").allInnerTexts();
}

describe("the connection to the server", () => {
  test("a save made while the server cannot be reached says so and goes through by itself when it can", async () => {
    const page = await session.panel({ width: 1280, height: 800 });
    await page.getByRole("tab", { name: "Regulamin", exact: true }).click();
    await page.getByRole("tabpanel").getByRole("heading", { name: "Regulamin", exact: true }).waitFor();
    const typed = "Regulamin zapisany po przerwie w połączeniu.";
    await page.getByLabel("Treść sekcji 1").fill(typed);

    // The server is out of reach: the request never gets an answer.
    const away = (route) => (route.request().method() === "PUT" ? route.abort("connectionrefused") : route.continue());
    await page.route("**/api/pages/**", away);
    await page.getByRole("button", { name: "Zapisz zmiany" }).click();
    await page.getByRole("status").filter({ hasText: WAITING }).waitFor();
    const said = (await messages(page)).join("\n");
    assert.doesNotMatch(said, /Nie udało się zapisać zmian/);
    assert.doesNotMatch(said, /Sukces/);
    const kept = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
    assert.ok(kept.includes("po przerwie w połączeniu"), "the text is kept in this browser");
    await session.shot(page, "offline-save");
    assert.ok(!(await session.publicText("/regulamin")).includes(typed));

    // The server is back: the same save goes through without a click.
    await page.unroute("**/api/pages/**", away);
    await page.locator(".save-message", { hasText: "Zapisano i opublikowano" }).waitFor({ timeout: 60_000 });
    assert.doesNotMatch((await messages(page)).join("\n"), /Brak połączenia|Nie udało się/);
    assert.ok((await session.publicText("/regulamin")).includes(typed));
    // The browser's own line for each request that found no server is the only one.
    assert.deepEqual(
      page.problems.filter((p) => !p.includes("ERR_CONNECTION_REFUSED")),
      [],
    );
    await page.context().close();
  });

  test("a slow answer does not move the list of pages under her pointer", async () => {
    const page = await session.panel({ width: 1280, height: 800 });
    // The go-live checklist answers late (a busy server); it stands above the list of pages.
    await page.route("**/api/launch", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.reload();
    const tab = page.getByRole("tab", { name: "Regulamin", exact: true });
    await tab.waitFor();
    const shown = await tab.boundingBox();
    await page.getByTestId("launch-checklist").waitFor();
    assert.deepEqual(await tab.boundingBox(), shown, "the tab stays where it was first shown");
    await page.context().close();
  });

  test("a session ended by a new password is said once, in the server's words", async () => {
    const page = await session.panel({ width: 1280, height: 800 });
    await page.getByRole("tab", { name: "Regulamin", exact: true }).click();
    await page.getByRole("tabpanel").getByRole("heading", { name: "Regulamin", exact: true }).waitFor();
    await page.getByLabel("Treść sekcji 1").fill("Tekst napisany przed zmianą hasła.");
    const why =
      "Hasło do panelu zostało zmienione przy ponownym uruchomieniu serwera (przez osobę, która się nim opiekuje). Zaloguj się nowym hasłem.";
    // What the server answers once it was started with another ADMIN_PASSWORD.
    await page.route("**/api/pages/**", (route) =>
      route.request().method() === "PUT"
        ? route.fulfill({
            status: 401,
            contentType: "application/json",
            body: JSON.stringify({ title: "Zmieniono hasło", error: why, code: "password_changed" }),
          })
        : route.continue(),
    );
    await page.getByRole("button", { name: "Zapisz zmiany" }).click();
    const dialog = page.getByRole("dialog", { name: "Zaloguj się ponownie" });
    await dialog.getByText(why).waitFor();
    const said = (await page.locator("body").innerText()).replace(/\s+/g, " ");
    assert.equal(said.split("Hasło do panelu zostało zmienione").length - 1, 1, "said once");
    for (const untrue of ["Sesja wygasła", "Wylogowano na innym urządzeniu", "Nie udało się zapisać zmian"]) {
      assert.ok(!said.includes(untrue), `${untrue}: ${said}`);
    }
    assert.equal(await page.getByLabel("Treść sekcji 1").inputValue(), "Tekst napisany przed zmianą hasła.");
    await session.shot(page, "password-changed");
    await page.context().close();
  });
});
