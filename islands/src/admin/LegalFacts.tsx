// 'Dane prawne' in 'Dane gabinetu': the legal identity the privacy policy, the terms and the
// clause under the contact form name (full name, NIP, REGON, registered address) and where
// people write about their data. NIP and REGON are checked as the server checks them. A fact
// still marked as example data leaves that list only when the owner confirms, with a
// checkbox of its own (`Confirm`, used by every part of 'Dane gabinetu'), that the value is
// the practice's.
import type { ExampleFact, PracticeFacts } from "./api";
import FactText from "./FactText";
import { nipProblem, regonProblem } from "./identity";

/** What is wrong with the legal facts, by field id: the form shows it and does not save. */
export function legalProblems(facts: PracticeFacts): Record<string, string> {
  const out: Record<string, string> = {};
  const nip = nipProblem(facts.nip);
  if (nip) out["fact-nip"] = nip;
  const regon = regonProblem(facts.regon);
  if (regon) out["fact-regon"] = regon;
  return out;
}

/** The confirmation that takes one fact off the example list (or puts it back), shown while the
 * loaded file still lists it (`examples`). */
export function Confirm({
  fact,
  what,
  facts,
  set,
  examples,
  source = "",
}: {
  fact: ExampleFact;
  /** The fact as the sentence names it: „telefon”, „NIP”. */
  what: string;
  facts: PracticeFacts;
  set: (patch: Partial<PracticeFacts>) => void;
  examples: ExampleFact[];
  /** Where the true value comes from, said after it: „z CEIDG”. */
  source?: string;
}) {
  if (!examples.includes(fact)) return null;
  const confirmed = !facts.exampleData.includes(fact);
  const toggle = (on: boolean) =>
    set({ exampleData: on ? facts.exampleData.filter((f) => f !== fact) : [...facts.exampleData, fact] });
  return (
    <label className="check example-confirm">
      <input type="checkbox" checked={confirmed} onChange={(e) => toggle(e.target.checked)} /> Potwierdzam: {what} to
      prawdziwe dane gabinetu{source ? ` ${source}` : ""}, nie przykładowe
    </label>
  );
}

export default function LegalFacts({
  facts,
  set,
  examples,
  errors,
}: {
  facts: PracticeFacts;
  set: (patch: Partial<PracticeFacts>) => void;
  /** The facts the loaded file marks as example data: each gets its confirmation. */
  examples: ExampleFact[];
  errors: Record<string, string>;
}) {
  const confirm = (fact: ExampleFact, what: string) => (
    <Confirm fact={fact} what={what} facts={facts} set={set} examples={examples} source="z CEIDG" />
  );
  return (
    <fieldset className="settings">
      <legend>Dane prawne (polityka prywatności, regulamin)</legend>
      <p className="muted">Przepisz je z wpisu gabinetu w CEIDG. Strona pokazuje je jako administratora danych.</p>
      <FactText
        id="fact-legal-name"
        label="Pełna nazwa przedsiębiorcy"
        value={facts.legalName}
        onChange={(legalName) => set({ legalName })}
      />
      {confirm("legal_name", "pełna nazwa")}
      <div className="field-row">
        <div>
          <FactText
            id="fact-nip"
            label="NIP"
            value={facts.nip}
            error={errors["fact-nip"]}
            onChange={(nip) => set({ nip })}
          />
          {confirm("nip", "NIP")}
        </div>
        <div>
          <FactText
            id="fact-regon"
            label="REGON"
            value={facts.regon}
            error={errors["fact-regon"]}
            onChange={(regon) => set({ regon })}
          />
          {confirm("regon", "REGON")}
        </div>
      </div>
      <FactText
        id="fact-registered-street"
        label="Siedziba (z CEIDG): ulica, numer lokalu"
        value={facts.registeredStreet}
        onChange={(registeredStreet) => set({ registeredStreet })}
      />
      <div className="field-row">
        <FactText
          id="fact-registered-postal"
          label="Siedziba: kod (NN-NNN)"
          value={facts.registeredPostalCode}
          onChange={(registeredPostalCode) => set({ registeredPostalCode })}
        />
        <FactText
          id="fact-registered-city"
          label="Siedziba: miasto"
          value={facts.registeredCity}
          onChange={(registeredCity) => set({ registeredCity })}
        />
      </div>
      {confirm("registered_address", "adres siedziby")}
      <FactText
        id="fact-data-protection"
        label="Adres do spraw danych osobowych"
        type="email"
        value={facts.dataProtectionContact}
        hint="Adres e-mail, który polityka prywatności podaje osobom chcącym skorzystać ze swoich praw. Puste: adres gabinetu."
        onChange={(dataProtectionContact) => set({ dataProtectionContact })}
      />
    </fieldset>
  );
}
