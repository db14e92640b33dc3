// The practice's legal identity entered in 'Dane gabinetu' as the owner does it, at 1280 and
// 390 px: a NIP with a wrong check digit is refused in Polish, real values are confirmed one
// by one (never taken off the example list silently) and the privacy policy names them.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { until, waitFor } from "./harness.mjs";
import { VIEWPORTS, ownerSession } from "./owner.mjs";

const session = ownerSession("legal");

const VALUES = {
  1280: { name: "Anna Nowak Gabinet Psychologiczny", nip: "952-123-45-67", regon: "192837460", street: "ul. Długa 12" },
  390: {
    name: "Ewa Kowal Pracownia Psychologii",
    nip: "5841112220",
    regon: "12345678512347",
    street: "ul. Ogarna 3/5",
  },
};

describe("the legal identity in 'Dane gabinetu'", () => {
  for (const viewport of VIEWPORTS) {
    test(`an invalid NIP is refused and real values reach the privacy policy at ${viewport.width} px`, async () => {
      const v = VALUES[viewport.width];
      const page = await session.panel(viewport);
      await page.getByRole("button", { name: "Dane gabinetu", exact: true }).click();
      await page.getByRole("heading", { name: "Dane gabinetu" }).waitFor();

      const nip = page.getByLabel("NIP", { exact: true });
      await nip.fill("1234563219");
      await page.getByRole("button", { name: "Zapisz dane gabinetu" }).click();
      await page.getByText("Ten NIP ma błędną cyfrę kontrolną").waitFor();
      assert.equal(await nip.getAttribute("aria-invalid"), "true");
      await page.locator(".save-message", { hasText: "Popraw zaznaczone pola" }).waitFor();
      await session.shot(page, "nip-refused");
      await session.clean(page, "an invalid NIP");
      const site = readFileSync(join(session.root, "content", "site.yaml"), "utf8");
      assert.ok(!site.includes("1234563219"), "nothing was written");

      await page.getByLabel("Pełna nazwa przedsiębiorcy").fill(v.name);
      await nip.fill(v.nip);
      await page.getByLabel("REGON", { exact: true }).fill(v.regon);
      await page.getByLabel("Siedziba (z CEIDG): ulica, numer lokalu").fill(v.street);
      await page.getByLabel("Siedziba: kod (NN-NNN)").fill("80-838");
      await page.getByLabel("Siedziba: miasto").fill("Gdańsk");
      await page.getByLabel("Adres do spraw danych osobowych").fill(`dane-${viewport.width}@example.pl`);
      await until(() => page.getByText("Ten NIP ma błędną cyfrę kontrolną").count(), 0, "a right NIP is not refused");
      const confirmations = page.getByRole("checkbox", { name: /^Potwierdzam:/ });
      const banner = page.getByRole("note", {
        name: "Dane przykładowe – serwer produkcyjny nie opublikuje z nimi strony",
      });
      if (viewport.width === 1280) {
        // The first time every fact is still an example: the check before publishing lists them,
        // and each one the panel edits has its confirmation.
        assert.match(await banner.innerText(), /NIP[\s\S]*REGON[\s\S]*adres siedziby[\s\S]*telefon/);
        assert.equal(await confirmations.count(), 9);
        for (const box of await confirmations.all()) await box.check();
      } else {
        assert.equal(await confirmations.count(), 0, "nothing the panel edits is an example any more");
      }
      await page.getByRole("button", { name: "Zapisz dane gabinetu" }).click();
      await page.locator(".save-message", { hasText: "Zapisano i opublikowano" }).waitFor();
      // What only site.yaml sets is left on the list, for whoever edits that file.
      await until(
        () => banner.getByRole("listitem").allInnerTexts(),
        ["nazwa gabinetu", "adres strony (site_url)", "identyfikator widżetu telefonicznego (telephony)"],
        "only what site.yaml alone sets is left as example data",
      );
      // Nothing left for her to confirm: the banner no longer asks her to.
      const said = await banner.innerText();
      assert.match(said, /Zostały dane, których panel nie zmienia – zmienia je informatyk lub redaktor\./);
      assert.doesNotMatch(said, /Potwierdzam|Wpisz poniżej/, said);
      await session.shot(page, "legal-saved");
      await session.clean(page, "the legal identity saved");

      const digits = v.nip.replace(/-/g, "");
      await waitFor(async () => (await session.publicText("/polityka-prywatnosci")).includes(v.name), "the rebuild");
      const policy = await session.publicText("/polityka-prywatnosci");
      for (const fact of [v.name, v.regon, v.street, "80-838 Gdańsk", `dane-${viewport.width}@example.pl`]) {
        assert.ok(policy.includes(fact), `${fact} is not in the privacy policy`);
      }
      assert.ok(policy.includes(v.nip) || policy.includes(digits), "the NIP");
      const yaml = readFileSync(join(session.root, "content", "site.yaml"), "utf8");
      assert.match(yaml, /^example_data: \["name", "site_url", "telephony"\]$/m);
      await page.context().close();
    });
  }
});
