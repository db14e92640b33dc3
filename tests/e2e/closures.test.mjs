// The practice's own days off, as the owner sets them in 'Dane gabinetu' at 1280 and 390 px:
// saved into site.yaml, and on such a day the site's call control offers the crisis numbers and
// the next day the practice answers, as on a public holiday or at night.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { openPage } from "./harness.mjs";
import { ownerSession, VIEWPORTS } from "./owner.mjs";

const session = ownerSession("closures");

describe("days off in 'Dane gabinetu'", () => {
  // A Tuesday and a Wednesday, both working days by the weekly hours.
  const days = { 1280: ["1.12.2026", "2026-12-01"], 390: ["2.12.2026", "2026-12-02"] };

  for (const viewport of VIEWPORTS) {
    test(`a day off typed as people write dates closes the call control on that day at ${viewport.width} px`, async () => {
      const [typed, stored] = days[viewport.width];
      const page = await session.panel(viewport);
      await page.getByRole("button", { name: "Dane gabinetu", exact: true }).click();
      await page.getByRole("heading", { name: "Dane gabinetu" }).waitFor();
      const before = await page.getByRole("group", { name: /^Przerwa/ }).count();
      await page.getByRole("button", { name: "Dodaj dni bez przyjęć" }).click();
      await page.locator(`#closure-${before}-from`).fill(typed);
      await page.locator(`#closure-${before}-until`).fill(typed);
      await session.clean(page, "a day off being added");
      await page.getByRole("button", { name: "Zapisz dane gabinetu" }).click();
      await page.locator(".save-message", { hasText: "Zapisano i opublikowano" }).waitFor();
      const yaml = readFileSync(join(session.root, "content", "site.yaml"), "utf8");
      assert.match(yaml, new RegExp(`- from: "${stored}"\\n    until: "${stored}"`), "kept in site.yaml");
      await page.context().close();

      const visitor = await openPage(session.browser, viewport);
      await visitor.clock.setFixedTime(new Date(`${stored}T11:00:00+01:00`));
      await visitor.goto(`${session.site.base}/cennik`);
      const help = visitor.getByRole("button", { name: "Telefony pomocy, gabinet czynny jutro od 9:00", exact: true });
      assert.equal(await help.isVisible(), true, `${stored}: the crisis numbers first`);
      assert.equal(await visitor.locator("[data-call='practice']").isVisible(), false);
      await visitor.clock.setFixedTime(new Date("2026-12-03T11:00:00+01:00"));
      await visitor.reload();
      assert.equal(
        await visitor.getByRole("link", { name: "Zadzwoń do gabinetu, dziś 9:00–20:00" }).isVisible(),
        true,
        "the day after, the practice answers",
      );
      await visitor.context().close();
    });
  }
});
