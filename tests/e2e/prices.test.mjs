// One price everywhere, as the owner meets it at 1280 and 390 px, axe clean in each state: a
// row of 'Cennik' says on which pages its price appears and, changed and saved, the new price is
// in every text that names it ('{{ cena.terapia-par }}'), the binding terms included; a literal
// amount that is one row's price is refused in a page's text; the search finds any text.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { VIEWPORTS, ownerSession } from "./owner.mjs";

const session = ownerSession("prices");
const { panel, shot, clean, publicText } = session;

async function saved(page) {
  await page.getByText(/Zapisano i opublikowano o/).waitFor();
}

/** The row of 'Cennik' named `name`, by its 'Nazwa' field. */
async function rowIndex(page, name) {
  const names = await page.locator("[id^=price-][id$=-name]").evaluateAll((fields) => fields.map((f) => f.value));
  const index = names.indexOf(name);
  assert.ok(index >= 0, `the row '${name}' in ${names.join(" | ")}`);
  return index;
}

describe("one price everywhere", () => {
  const couples = { 1280: 280, 390: 300 };
  for (const viewport of VIEWPORTS) {
    const width = viewport.width;

    test(`a new price of couples therapy reaches every page that names it at ${width} px`, async () => {
      const price = couples[width];
      const page = await panel(viewport);
      await page.getByRole("button", { name: "Cennik", exact: true }).click();
      await page.getByRole("heading", { name: "Cennik" }).waitFor();
      const i = await rowIndex(page, "Konsultacje dla par");
      const field = page.locator(`#price-${i}-price`);
      const uses = page.locator(`#price-${i}-uses`);
      assert.match(
        await uses.innerText(),
        /^Ta cena pojawia się w tekstach na \d+ stronach: .*Regulamin.*Konsultacje dla par/,
      );
      await field.fill(String(price));
      assert.match(await uses.innerText(), /^Po zapisaniu nowa cena pojawi się w tekstach na \d+ stronach: /);
      assert.equal(await field.getAttribute("aria-describedby"), `price-${i}-uses`, "the field says it too");
      await shot(page, "prices-uses");
      await clean(page, "a price row with where it appears");
      await page.getByRole("button", { name: "Zapisz cennik" }).click();
      await saved(page);
      for (const route of ["/cennik", "/regulamin", "/uslugi/terapia-par", "/blog/terapia-gdansk"]) {
        const text = await publicText(route);
        assert.ok(text.includes(`${price} zł`), `${route} names the new price`);
        assert.ok(!/\b250 zł/.test(text), `${route} keeps no old price`);
      }
      const description = /<meta name="description" content="([^"]*)"/.exec(
        await publicText("/uslugi/terapia-par"),
      )?.[1];
      assert.match(description ?? "", new RegExp(`kosztuje ${price} zł`), "the search engines' description too");
      await page.close();
    });

    test(`a literal amount that is one row's price is refused in a page's text at ${width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("tab", { name: "Pilna pomoc", exact: true }).click();
      const box = page.getByLabel("Treść sekcji 1");
      const before = await box.inputValue();
      await box.fill(`${before}\n\nDiagnoza ADHD (${width} px) kosztuje od 500 zł.`);
      await page.getByRole("button", { name: "Zapisz zmiany", exact: true }).click();
      const refusal = page
        .getByText(/500 zł to cena pozycji „Diagnoza ADHD” z cennika: wpisz \{\{ cena\.diagnoza-adhd \}\}/)
        .first();
      await refusal.waitFor();
      assert.ok(!(await publicText("/pilna-pomoc")).includes(`(${width} px)`), "nothing published");
      await box.fill(`${before}\n\nDiagnoza ADHD (${width} px) kosztuje od {{ cena.diagnoza-adhd }}.`);
      await page.getByRole("button", { name: "Zapisz zmiany", exact: true }).click();
      await page
        .getByText(/Zapisano i opublikowano o/)
        .first()
        .waitFor();
      assert.ok(
        (await publicText("/pilna-pomoc")).includes(`Diagnoza ADHD (${width} px) kosztuje od 500 zł.`),
        "the placeholder is the price",
      );
      await shot(page, "prices-placeholder");
      await clean(page, "a section naming a price by its row");
      await page.close();
    });

    test(`the search finds a page by any of its texts at ${width} px`, async () => {
      const page = await panel(viewport);
      await page.getByLabel("Szukaj strony").fill("MOXO");
      const tab = page.getByRole("tab", { name: /^Regulamin/ });
      await tab.waitFor();
      assert.match(await tab.innerText(), /MOXO/, "the words around the match under the page's name");
      assert.equal(
        await page.getByRole("tab", { name: "O Nas", exact: true }).count(),
        0,
        "pages without it are hidden",
      );
      await tab.click();
      await page.getByRole("tabpanel").getByRole("heading", { level: 2, name: "Regulamin", exact: true }).waitFor();
      await shot(page, "prices-search");
      await clean(page, "the search through every text");
      await page.close();
    });
  }
});

describe("a change typed while the price list saves", () => {
  test("stays in the form as unsaved and is saved with the next click", async () => {
    const page = await panel(VIEWPORTS[0]);
    await page.getByRole("button", { name: "Cennik", exact: true }).click();
    await page.getByRole("heading", { name: "Cennik" }).waitFor();
    const i = await rowIndex(page, "Terapia indywidualna");
    const note = page.locator(`#price-${i}-note`);
    // The save is held on its way until the second change is typed.
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await page.route("**/api/prices", async (route) => {
      if (route.request().method() === "PUT") await held;
      await route.continue();
    });
    await note.fill("Pierwsza uwaga.");
    await page.getByRole("button", { name: "Zapisz cennik" }).click();
    await page.getByRole("button", { name: "Zapisywanie…" }).waitFor();
    await note.fill("Pierwsza uwaga. Druga uwaga, wpisana w trakcie zapisywania.");
    release();
    await saved(page);
    assert.equal(await note.innerText(), "Pierwsza uwaga. Druga uwaga, wpisana w trakcie zapisywania.");
    await page.getByText("Masz niezapisane zmiany.").waitFor();
    assert.ok((await publicText("/cennik")).includes("Pierwsza uwaga."), "the first save is public");
    assert.ok(!(await publicText("/cennik")).includes("Druga uwaga"), "the second is not saved yet");
    await page.unroute("**/api/prices");
    await page.getByRole("button", { name: "Zapisz cennik" }).click();
    await page.getByText("Masz niezapisane zmiany.").waitFor({ state: "detached" });
    await saved(page);
    assert.ok((await publicText("/cennik")).includes("Druga uwaga, wpisana w trakcie zapisywania."));
    await clean(page, "a price list saved twice");
    await page.close();
  });

  test("a new row renamed while its first save is on its way keeps the id that save gave it", async () => {
    const page = await panel(VIEWPORTS[0]);
    await page.getByRole("button", { name: "Cennik", exact: true }).click();
    await page.getByRole("heading", { name: "Cennik" }).waitFor();
    await page.getByRole("button", { name: "Dodaj pozycję" }).click();
    const i = (await page.locator("[id^=price-][id$=-name]").count()) - 1;
    const name = page.locator(`#price-${i}-name`);
    await name.fill("Warsztat uważności");
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await page.route("**/api/prices", async (route) => {
      if (route.request().method() === "PUT") await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Zapisz cennik" }).click();
    await page.getByRole("button", { name: "Zapisywanie…" }).waitFor();
    await name.fill("Warsztat uważności dla par");
    release();
    await saved(page);
    await page.unroute("**/api/prices");
    await page.getByRole("button", { name: "Zapisz cennik" }).click();
    await page.getByText("Masz niezapisane zmiany.").waitFor({ state: "detached" });
    await saved(page);
    const yaml = readFileSync(join(session.root, "content", "cennik.yaml"), "utf8");
    assert.ok(yaml.includes('name: "Warsztat uważności dla par"'), "the second save's name");
    assert.equal(yaml.match(/Warsztat/g)?.length, 1, "one row, not the first save's and a second one");
    assert.ok(yaml.includes('- id: "warsztat-uwaznosci"\n'), "the id the first save gave it, kept");
    assert.ok(!yaml.includes("warsztat-uwaznosci-dla-par"), "no new id from the new name");
    assert.ok((await publicText("/cennik")).includes("Warsztat uważności dla par"));
    await page.close();
  });
});
