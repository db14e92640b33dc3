// Every text a visitor reads is editable in the panel, as the owner uses
// it at 1280 and 390 px, axe clean: the home page's headline and a service's button label
// as labelled fields, a refused empty field said beside it. Screenshots go to $SHOTS (or a
// temp dir) to be looked at.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { until } from "./harness.mjs";
import { VIEWPORTS, openProfile, ownerSession } from "./owner.mjs";

const session = ownerSession("fields");
const { panel, shot, clean, publicText } = session;

async function saved(page) {
  await page.getByText(/Zapisano i opublikowano o/).waitFor();
}

describe("the visible texts of pages and services", () => {
  for (const viewport of VIEWPORTS) {
    test(`the home headline is edited and shown on / at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      const editor = page.getByRole("tabpanel");
      await editor.getByRole("group", { name: "Teksty na stronie" }).waitFor();
      const headline = editor.getByLabel("Nagłówek", { exact: true });
      const shown = /<h1>([^<]*)<\/h1>/.exec(await publicText("/"))?.[1];
      assert.equal(await headline.inputValue(), shown, "the field holds the headline visitors see");
      assert.match(await editor.getByLabel(/^Zachęta do bezpłatnej konsultacji/).inputValue(), /bezpłatnej/);
      const text = `Twoja droga do spokoju (${viewport.width})`;
      await headline.fill(text);
      await headline.scrollIntoViewIfNeeded();
      await shot(page, "home-texts");
      await clean(page, "the home page's texts");
      await editor.getByRole("button", { name: "Zapisz zmiany" }).click();
      await saved(page);
      assert.match(await publicText("/"), new RegExp(`<h1>${text.replace(/[()]/g, "\\$&")}</h1>`));
      await page.close();
    });

    test(`a service's button label is edited, and an empty one refused beside it, at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("tab", { name: "Konsultacje dla par", exact: true }).click();
      const editor = page.getByRole("tabpanel");
      const label = editor.getByLabel("Napis na przycisku rezerwacji");
      assert.ok((await publicText("/uslugi/terapia-par")).includes(await label.inputValue()));
      await label.fill("");
      await editor.getByRole("button", { name: "Zapisz zmiany" }).click();
      const problem = editor.locator(".page-texts .field-problem");
      await problem.waitFor();
      assert.equal(await problem.textContent(), "Napis na przycisku rezerwacji: pole nie może być puste.");
      assert.equal(await label.getAttribute("aria-invalid"), "true");
      await page.waitForFunction((id) => document.activeElement?.id === id, await label.getAttribute("id"));
      await shot(page, "service-texts-refused");
      await clean(page, "a refused service text");
      const text = `Umów się we dwoje ${viewport.width}`;
      await label.fill(text);
      await editor.getByRole("button", { name: "Zapisz zmiany" }).click();
      await saved(page);
      await until(() => problem.count(), 0, "the problem is gone after a good save");
      assert.match(await publicText("/uslugi/terapia-par"), new RegExp(text));
      await page.close();
    });
  }
});

describe("the team", () => {
  const people = {
    1280: { name: "Zofia Żądło-Łęcka", slug: "zofia-zadlo-lecka", photo: "las.svg" },
    390: { name: "Ewa Nowak", slug: "ewa-nowak", photo: "morze.svg" },
  };
  for (const viewport of VIEWPORTS) {
    test(`a therapist is added with a photo, shown on /o-mnie and moved up by keyboard at ${viewport.width} px`, async () => {
      const { name, slug, photo } = people[viewport.width];
      const page = await panel(viewport);
      await page.getByRole("button", { name: "Zespół", exact: true }).click();
      const view = page.getByRole("region", { name: "Zespół" });
      await openProfile(view, "Dodaj terapeutę");
      const form = page.getByRole("form", { name: "Nowy terapeuta" });
      await form.getByLabel("Imię i nazwisko").fill(name);
      await form.getByLabel("Rola", { exact: true }).fill("Psycholożka, pracuje z dziećmi i rodzicami");
      await form.getByRole("radio", { name: photo, exact: true }).check();
      await form.getByLabel("Tekst alternatywny zdjęcia").fill(`Portret: ${name}`);
      await form.getByLabel("Poziomo (%)").fill("40");
      await form.getByLabel("Kwalifikacje").fill("Magister psychologii\n\nPsychologia dziecięca");
      await form.getByLabel("Opis").fill("Pracuje z dziećmi w wieku szkolnym i ich rodzicami.");
      await shot(page, "team-new");
      await clean(page, "a new therapist's form");
      await form.getByRole("button", { name: "Dodaj do zespołu" }).click();
      await saved(page);
      const about = await publicText("/o-mnie");
      assert.ok(about.includes(`id="${slug}"`), "the new profile has its anchor on /o-mnie");
      const profileHtml = about.slice(about.indexOf(`id="${slug}"`), about.indexOf(`id="${slug}"`) + 1500);
      assert.ok(about.includes(name), `the name on /o-mnie: ${profileHtml}`);
      assert.ok(about.includes("Psychologia dziecięca"), `the qualification on /o-mnie: ${profileHtml}`);
      const img = new RegExp(`<img[^>]*alt="Portret: ${name}"[^>]*>`).exec(about)?.[0] ?? "";
      assert.match(img, / class="profile-photo focus fx40 fy50"/, "the photo's focal point");
      // By the profiles' anchors: the page's own text names the team too (who does what).
      assert.ok(about.indexOf('id="tomasz-lewandowski"') < about.indexOf(`id="${slug}"`), "a new therapist comes last");

      // Up by keyboard: the focus stays on the moved therapist's buttons.
      const up = view.locator(`#team-up-${slug}`);
      assert.match(await up.textContent(), new RegExp(`^Wyżej: ${name}$`));
      await up.focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction((n) => {
        const names = [...document.querySelectorAll(".team-name strong")].map((e) => e.textContent);
        return names.indexOf(n) < names.indexOf("Tomasz Lewandowski");
      }, name);
      await page.waitForFunction((s) => document.activeElement?.id?.endsWith(s), slug);
      const moved = await publicText("/o-mnie");
      assert.ok(moved.indexOf(`id="${slug}"`) < moved.indexOf('id="tomasz-lewandowski"'), "moved up on /o-mnie too");
      await shot(page, "team-moved");
      await clean(page, "the team after a move");

      // A profile edited, and its history there to take it back.
      await view.locator(`#team-up-${slug}`).waitFor();
      await openProfile(view, `Edytuj profil: ${name}`);
      const profile = page.getByRole("form", { name: `Profil: ${name}` });
      await profile.getByLabel("Rola", { exact: true }).fill("Psycholożka dziecięca");
      await profile.getByRole("button", { name: "Zapisz zmiany" }).click();
      // Saved once the list shows the new role (the form shows it as it is typed) and the button is
      // no longer 'Zapisywanie…': a click before then is undone when the save's answer comes.
      await view.locator(".team-name", { hasText: "Psycholożka dziecięca" }).waitFor();
      await profile.getByRole("button", { name: "Zapisz zmiany" }).waitFor();
      await view.getByRole("button", { name: "Historia zmian" }).click();
      await view.getByRole("button", { name: "Przywróć tę wersję" }).first().waitFor();
      assert.ok((await publicText("/o-mnie")).includes("Psycholożka dziecięca"));
      await shot(page, "team-history");
      await clean(page, "a profile's history");

      // The same name again is refused, and nothing is lost.
      await openProfile(view, "Dodaj terapeutę");
      const again = page.getByRole("form", { name: "Nowy terapeuta" });
      await again.getByLabel("Imię i nazwisko").fill(name);
      await again.getByLabel("Rola", { exact: true }).fill("Inna rola");
      await again.getByRole("radio", { name: photo, exact: true }).check();
      await again.getByLabel("Tekst alternatywny zdjęcia").fill("Portret");
      await again.getByRole("button", { name: "Dodaj do zespołu" }).click();
      await page
        .getByText(/już jest w zespole/)
        .first()
        .waitFor();
      await until(() => again.getByLabel("Rola", { exact: true }).inputValue(), "Inna rola", "the typing is kept");
      // What was typed is kept in this browser: another tab offers it back.
      const other = await page.context().newPage();
      await other.setViewportSize(viewport);
      await other.goto(page.url());
      await other.getByRole("button", { name: "Zespół", exact: true }).click();
      await other.getByRole("button", { name: "Dodaj terapeutę" }).click();
      await other.getByText(/Masz niezapisany szkic nowego profilu/).waitFor();
      await other.getByRole("button", { name: "Przywróć szkic" }).click();
      const restored = other.getByRole("form", { name: "Nowy terapeuta" });
      await until(() => restored.getByLabel("Rola", { exact: true }).inputValue(), "Inna rola", "the draft comes back");
      await shot(other, "team-draft");
      await clean(other, "a profile's draft");
      await other.close();
      await page.close();
    });
  }
});

describe("removing a therapist", () => {
  // The therapists the tests above added (one per width); Magdalena is named by the booking block.
  const added = { 1280: "Zofia Żądło-Łęcka", 390: "Ewa Nowak" };
  for (const viewport of VIEWPORTS) {
    test(`one the site names stays, one added here goes after a question at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      const questions = [];
      page.on("dialog", (dialog) => {
        questions.push(dialog.message());
        void dialog.accept();
      });
      await page.getByRole("button", { name: "Zespół", exact: true }).click();
      const view = page.getByRole("region", { name: "Zespół" });
      // Each removal is clicked in that therapist's own form: the form shown until the next
      // one opens is the previous therapist's.
      const remove = async (who) => {
        await openProfile(view, `Edytuj profil: ${who}`);
        await view
          .getByRole("form", { name: `Profil: ${who}` })
          .getByRole("button", { name: "Usuń z zespołu" })
          .click();
      };
      await remove("Magdalena Wiśniewska");
      await view.getByText(/nie można usunąć, bo strona wciąż się do niego odwołuje: link do rezerwacji/).waitFor();
      // Its notification, a long one, keeps its title and its × on the screen wherever she
      // scrolls: at 390 px it is taller than the room beside the form's buttons and scrolls
      // within it. (Read in the page, within the notification's 5 s.)
      const offScreen = await page.evaluate(async () => {
        const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const max = document.documentElement.scrollHeight - window.innerHeight;
        const out = [];
        for (const at of [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(max * f))) {
          window.scrollTo(0, at);
          await frames();
          const close = document.querySelector(".toast-close")?.getBoundingClientRect();
          if (close && (close.top < 0 || close.bottom > window.innerHeight)) out.push(at);
        }
        return out;
      });
      assert.deepEqual(offScreen, [], "the notification's × is on the screen at every scroll");
      assert.ok((await publicText("/o-mnie")).includes('id="magdalena-wisniewska"'));
      await shot(page, "team-remove-refused");
      await clean(page, "a refused removal");

      const name = added[viewport.width];
      await remove(name);
      // Gone from the list (the toast that says so may already be replaced by the publishing's).
      await view.getByRole("button", { name: `Edytuj profil: ${name}` }).waitFor({ state: "detached" });
      assert.equal(questions.length, 2, "asked both times");
      assert.match(questions[1], new RegExp(`^Usunąć terapeutę ${name} z zespołu\\?`));
      assert.equal(await view.getByText(name, { exact: true }).count(), 0);
      assert.ok(!(await publicText("/o-mnie")).includes(name));
      await page.close();
    });
  }
});

describe("the focal point of a picture", () => {
  for (const viewport of VIEWPORTS) {
    test(`a click on the preview and the number fields set the hero's object-position at ${viewport.width} px`, async () => {
      const page = await panel(viewport);
      await page.getByRole("tab", { name: "Terapia indywidualna", exact: true }).click();
      const editor = page.getByRole("tabpanel");
      await editor.locator(".settings-details > summary").click();
      const picker = editor.getByRole("group", { name: "Punkt ostrości zdjęcia" });
      const image = picker.locator(".focus-image");
      // Its box is its own once the picture has loaded.
      await until(
        () => image.locator("img").evaluate((img) => img.complete && img.naturalWidth > 0),
        true,
        "the picture loads",
      );
      await image.scrollIntoViewIfNeeded();
      const box = await image.boundingBox();
      await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.75);
      const across = picker.getByLabel("Poziomo (%)");
      const down = picker.getByLabel("Pionowo (%)");
      // Where the click was, to the pixel's rounding.
      const near = (want) => (value) => Math.abs(Number(value) - want) <= 1;
      await until(() => across.inputValue(), near(25), "across where the click was");
      await until(() => down.inputValue(), near(75), "down where the click was");
      await across.fill("25");
      // By keyboard: the field, a new number, and the crops follow.
      await down.focus();
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type("40");
      await until(
        () => picker.locator(".focus-crop-wide").evaluate((img) => img.style.objectPosition),
        "25% 40%",
        "the crops follow",
      );
      await shot(page, "focus");
      await clean(page, "the focal point");
      await editor.getByRole("button", { name: "Zapisz zmiany" }).click();
      await saved(page);
      const visitor = await page.context().newPage();
      await visitor.goto(`${session.site.base}/uslugi/terapia-indywidualna`);
      const hero = visitor.locator("img.page-hero-img");
      assert.equal(await hero.evaluate((img) => getComputedStyle(img).objectPosition), "25% 40%");
      await visitor.close();
      await page.close();
    });
  }
});

describe("a refusal is said where its problem is, from the server's data", () => {
  const viewport = VIEWPORTS[0];
  /** The id of the focused element, once it is `id` (the panel focuses a problem's field after marking it). */
  const focusedOn = (page, id) =>
    until(() => page.evaluate(() => document.activeElement?.id), id, `the focus on #${id}`);

  test("a section the build refuses is marked, focused and said under itself", async () => {
    const page = await panel(viewport);
    await page.getByRole("tab", { name: "Pilna pomoc", exact: true }).click();
    const editor = page.getByRole("tabpanel");
    const second = editor.getByLabel("Treść sekcji 2");
    await second.fill("Zobacz też [tę stronę](/nie-ma-takiej-strony).");
    await editor.getByRole("button", { name: "Zapisz zmiany" }).click();
    const marked = editor.locator("li.editor-section.has-problem");
    await marked.waitFor();
    assert.equal(await marked.count(), 1);
    assert.equal(await editor.locator("li.editor-section").nth(1).getAttribute("class"), "editor-section has-problem");
    const said = marked.locator(".field-problem");
    assert.match(await said.textContent(), /^Sekcja 2: .*\/nie-ma-takiej-strony/);
    assert.equal(await focusedOn(page, "section-2-content"), "section-2-content");
    assert.equal(await second.getAttribute("aria-invalid"), "true");
    await shot(page, "section-refused");
    await clean(page, "a refused section");
    assert.ok(!(await publicText("/pilna-pomoc")).includes("nie-ma-takiej-strony"), "nothing was published");
    await page.close();
  });

  test("a price row's price over the limit marks that row's price", async () => {
    const page = await panel(viewport);
    await page.getByRole("button", { name: "Cennik", exact: true }).click();
    await page.locator("#price-1-price").fill("250000");
    await page.getByRole("button", { name: "Zapisz cennik" }).click();
    const row = page.locator("li.price-edit").nth(1);
    await row.locator(".field-problem", { hasText: /^Pozycja 2: cena może wynosić najwyżej 100 000 zł\.$/ }).waitFor();
    assert.match(await row.getAttribute("class"), /has-problem/);
    assert.equal(await page.locator("li.price-edit.has-problem").count(), 1);
    assert.equal(await focusedOn(page, "price-1-price"), "price-1-price");
    assert.equal(await page.locator("#price-1-price").getAttribute("aria-invalid"), "true");
    assert.equal(await page.locator("#price-1-name").getAttribute("aria-invalid"), null);
    await page.close();
  });

  test("a profile's text the build refuses marks the text, not the name", async () => {
    const page = await panel(viewport);
    await page.getByRole("button", { name: "Zespół", exact: true }).click();
    const view = page.getByRole("region", { name: "Zespół" });
    await openProfile(view, "Edytuj profil: Tomasz Lewandowski");
    const form = page.getByRole("form", { name: "Profil: Tomasz Lewandowski" });
    await form.getByLabel("Opis").fill("Więcej o mnie: [tutaj](/nie-ma-takiej-strony).");
    await form.getByRole("button", { name: "Zapisz zmiany" }).click();
    const said = form.locator("#profile-body-problem");
    await said.waitFor();
    assert.match(await said.textContent(), /\/nie-ma-takiej-strony/);
    assert.equal(await form.locator(".field.has-problem").count(), 1);
    assert.equal(await focusedOn(page, "profile-body"), "profile-body");
    await clean(page, "a refused profile text");
    await form.getByLabel("Rola", { exact: true }).fill("Psycholog, ".repeat(16));
    await form.getByLabel("Opis").fill("Pracuje z dorosłymi.");
    await form.getByRole("button", { name: "Zapisz zmiany" }).click();
    await form.locator("#profile-role-problem", { hasText: "Rola: tekst może mieć najwyżej 150 znaków." }).waitFor();
    assert.equal(await form.locator("#profile-body-problem").count(), 0);
    assert.equal(await focusedOn(page, "profile-role"), "profile-role");
    await page.close();
  });
});
