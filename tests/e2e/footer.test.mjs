// What only a developer could change before, done by the owner at 1280 and 390 px, axe clean:
// the footer's description and social profiles in 'Dane gabinetu' (a profile without https://
// is refused with the reason), the calendar's paragraph, the line under each service's booking
// button and a heading of the footer in 'Napisy', and a preview that shows a stock photo where
// the site would (a picture from another host, which the site's policy blocks and its script
// swaps).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { VIEWPORTS, ownerSession } from "./owner.mjs";

const session = ownerSession("footer");
const { panel, shot, clean, publicText } = session;

async function open(page, view) {
  await page.getByRole("button", { name: view, exact: true }).click();
  await page.getByRole("heading", { name: view, level: 2 }).waitFor();
}

async function saved(page) {
  await page
    .getByText(/Zapisano i opublikowano o/)
    .first()
    .waitFor();
}

describe("the footer and the words around the booking", () => {
  for (const viewport of VIEWPORTS) {
    const width = viewport.width;

    test(`the footer's description and profiles are edited in 'Dane gabinetu' at ${width} px`, async () => {
      const page = await panel(viewport);
      await open(page, "Dane gabinetu");
      const description = `Gabinet psychologiczny w Gdańsku Wrzeszczu, opis z panelu (${width} px).`;
      await page.getByLabel("Opis gabinetu").fill(description);
      const url = page.getByLabel("Adres profilu").first();
      await url.fill("facebook.com/gabinet");
      await page.getByRole("button", { name: "Zapisz dane gabinetu" }).click();
      await page.getByText("Wklej pełny adres profilu, zaczynający się od https://.").waitFor();
      assert.equal(await url.getAttribute("aria-invalid"), "true");
      await clean(page, "a profile without https://");
      const file = () => readFileSync(join(session.root, "content", "site.yaml"), "utf8");
      assert.ok(!file().includes('facebook.com/gabinet"'), "nothing was written");

      const profile = `https://www.facebook.com/harmonia-${width}`;
      await url.fill(profile);
      await page.getByRole("button", { name: "Dodaj profil w serwisie społecznościowym" }).click();
      await page.getByLabel("Serwis", { exact: true }).last().fill("LinkedIn");
      await page.getByLabel("Adres profilu").last().fill(`https://www.linkedin.com/company/harmonia-${width}`);
      await shot(page, "footer-facts");
      await clean(page, "the footer's facts");
      await page.getByRole("button", { name: "Zapisz dane gabinetu" }).click();
      await saved(page);

      const home = await publicText("/");
      const footer = home.slice(home.indexOf('<footer class="site-footer">'));
      assert.ok(footer.includes(`<p>${description}</p>`), "the description in the footer");
      assert.ok(footer.includes(`href="${profile}"`), "the changed profile");
      assert.match(footer, new RegExp(`href="https://www.linkedin.com/company/harmonia-${width}"[^>]*>LinkedIn<`));
      assert.match(file(), new RegExp(`name: "LinkedIn"`));
      await page.close();
    });

    test(`the calendar's paragraph and the line under a service's button are edited in 'Napisy' at ${width} px`, async () => {
      const page = await panel(viewport);
      await open(page, "Napisy");
      // Written as it looks: the calendar's service a chip from 'Wstaw dane', the price list a link.
      const intro = page.getByRole("textbox", { name: "Opis kalendarza" });
      await intro.click();
      await page.keyboard.press("Control+A");
      await page.keyboard.type(`Wolne godziny (${width} px) pokazuje kalendarz serwisu `);
      await page
        .getByRole("toolbar", { name: "Formatowanie: Opis kalendarza" })
        .getByRole("button", { name: "Wstaw dane" })
        .click();
      const facts = page.getByRole("dialog", { name: "Wstaw dane gabinetu" });
      await facts.getByRole("button", { name: /\[serwis z kalendarzem wolnych terminów\]/ }).click();
      await facts.waitFor({ state: "detached" });
      await intro.locator('[data-placeholder="serwis_kalendarza"]').waitFor();
      await intro.press("End");
      await page.keyboard.type(".");
      const line = page.getByRole("textbox", { name: "Zdanie pod przyciskiem rezerwacji" });
      await line.click();
      await page.keyboard.press("Control+A");
      await page.keyboard.type(`Ile kosztuje spotkanie (${width} px), przeczytasz w cenniku`);
      for (let i = 0; i < "cenniku".length; i += 1) await page.keyboard.press("Shift+ArrowLeft");
      await page.keyboard.press("Control+k");
      const link = page.getByRole("dialog", { name: "Wstaw link" });
      assert.equal(await link.getByLabel("Tekst linku").inputValue(), "cenniku");
      await link.getByLabel("Szukaj strony serwisu").fill("cennik");
      await link.getByText("Link poprowadzi do: Cennik (/cennik).").waitFor();
      await link.getByRole("button", { name: "Wstaw link" }).click();
      await link.waitFor({ state: "detached" });
      await line.getByRole("link", { name: "cenniku" }).waitFor();
      await line.press("End");
      await page.keyboard.type(".");
      await page.getByLabel("Nagłówek kolumny z dokumentami").fill(`Dokumenty gabinetu ${width}`);
      await clean(page, "the calendar's words");
      await page.getByRole("button", { name: "Zapisz napisy" }).click();
      await saved(page);

      const home = await publicText("/");
      assert.ok(
        home.includes(`<p>Wolne godziny (${width} px) pokazuje kalendarz serwisu ZnanyLekarz.</p>`),
        "the fact filled in",
      );
      const service = await publicText("/uslugi/terapia-indywidualna");
      assert.ok(
        service.includes(
          `<p class="muted">Ile kosztuje spotkanie (${width} px), przeczytasz w <a href="/cennik">cenniku</a>.</p>`,
        ),
        "the line under the service's booking button",
      );
      assert.ok(service.includes(`<h2 id="footer-docs">Dokumenty gabinetu ${width}</h2>`), "the footer's heading");
      await page.close();
    });
  }

  for (const viewport of VIEWPORTS) {
    test(`a preview shows one of the site's own fallback images where the site would replace a picture from another host at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("tab", { name: "Cennik", exact: true }).click();
      await page.getByRole("tabpanel").getByRole("heading", { name: "Cennik", exact: true }).waitFor();
      await page
        .getByLabel("Treść sekcji 1")
        .fill("Zdjęcie z innego serwera:\n\n![Las nad morzem](https://zdjecia.example.pl/las.jpg)");
      const opened = page.context().waitForEvent("page");
      await page.getByRole("button", { name: /^Podgląd/ }).click();
      const preview = await opened;
      const picture = preview.getByRole("img", { name: "Las nad morzem" });
      await picture.waitFor({ state: "attached" });
      const src = await picture.getAttribute("src");
      const yaml = readFileSync(join(session.root, "content", "site.yaml"), "utf8");
      const list = yaml.slice(yaml.indexOf("\nfallback_images:\n"));
      const files = [...list.matchAll(/^  - "([^"]+)"/gm)].map((m) => m[1]);
      assert.equal(files.length, 4, list);
      assert.ok(
        files.some((file) => src === `/images/${file}`),
        `${src} is one of the site's own fallback images ${files}`,
      );
      await preview.waitForFunction(() => {
        const img = document.querySelector('img[alt="Las nad morzem"]');
        return img.complete && img.naturalWidth > 0;
      });
      await shot(preview, "preview-fallback");
      await clean(preview, "a preview with a fallback image");
      await page.close();
    });
  }
});
