// 'Dane gabinetu': the facts of site.yaml that change (phone, e-mail, address, opening hours,
// the practice's days off, booking links, the legal identity, the footer's description and profiles) and the notice every page shows inside its dates. Every
// page follows them.
import { useCallback, useEffect, useMemo, useState } from "react";
import { api, type ExampleFact, type ExampleLabel, type FactsEditable, type PracticeFacts } from "./api";
import type { ViewProps } from "./app/views";
import { factFieldId } from "./factFields";
import FactText from "./FactText";
import { showProblem } from "./problems";
import { DraftNotice, useFormDraft } from "./formDraft";
import { HistoryToggle } from "./History";
import FooterFacts, { footerProblems } from "./FooterFacts";
import LegalFacts, { Confirm, legalProblems } from "./LegalFacts";
import NoticeFacts from "./NoticeFacts";
import SaveMessage from "./SaveMessage";
import { fromServer, saveForm, type Outcome } from "./saving";
import ScheduleFacts from "./ScheduleFacts";
import { FACTS_DOC } from "./versions";

const LOAD_FAILED = { title: "Błąd", text: "Nie udało się pobrać danych gabinetu." };

/** Of the fields `ids`, the one nearest the top of the form. */
function firstInvalid(ids: string[]): string {
  const shown = ids.flatMap((id) => {
    const el = document.getElementById(id);
    return el ? [{ id, top: el.getBoundingClientRect().top }] : [];
  });
  return shown.sort((a, b) => a.top - b.top)[0]?.id ?? ids[0] ?? "";
}

/** One list of the banner, under what it says of them; nothing when it is empty. */
function ExampleList({ heading, facts }: { heading: string; facts: ExampleLabel[] }) {
  if (facts.length === 0) return null;
  return (
    <>
      <p>{heading}</p>
      <ul>
        {facts.map((f) => (
          <li key={f.label}>{f.label}</li>
        ))}
      </ul>
    </>
  );
}

/**
 * The ready-to-publish check: the facts still marked as example data, those she confirms in
 * this form apart from those only the operator or an editor changes, so that it never asks her
 * to confirm below what the form does not hold.
 */
function ExampleDataBanner({ facts }: { facts: ExampleLabel[] }) {
  const here = facts.filter((f) => f.inPanel);
  const elsewhere = facts.filter((f) => !f.inPanel);
  return (
    <div className="example-data" role="note" aria-labelledby="example-data-title">
      <p id="example-data-title">
        <strong>Dane przykładowe – serwer produkcyjny nie opublikuje z nimi strony</strong>
      </p>
      <ExampleList heading="Te dane gabinetu są jeszcze przykładowe:" facts={here} />
      {here.length > 0 && (
        <p>
          Wpisz poniżej prawdziwe dane (prawne z wpisu gabinetu w CEIDG), zaznacz przy każdym „Potwierdzam” i zapisz.
        </p>
      )}
      <ExampleList
        heading={
          here.length > 0
            ? "Tych danych panel nie zmienia – zmienia je informatyk lub redaktor."
            : "Zostały dane, których panel nie zmienia – zmienia je informatyk lub redaktor."
        }
        facts={elsewhere}
      />
    </div>
  );
}

export default function FactsForm({ toast, onDirty }: ViewProps) {
  const [loaded, setLoaded] = useState<FactsEditable | null>(null);
  const [facts, setFacts] = useState<PracticeFacts | null>(null);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const load = useCallback(
    async (sent?: PracticeFacts) => {
      try {
        const f = await api.facts();
        setLoaded(f);
        setFacts(fromServer<PracticeFacts | null>(f.facts, sent));
      } catch {
        toast("error", LOAD_FAILED);
      }
    },
    [toast],
  );
  useEffect(() => void load(), [load]);
  const saved = useMemo(() => (loaded ? { value: loaded.facts, version: loaded.version } : null), [loaded]);
  const draft = useFormDraft(FACTS_DOC, saved, facts, onDirty);
  if (!loaded || !facts) return <p role="status">Ładowanie danych gabinetu…</p>;

  const set = (patch: Partial<PracticeFacts>) => setFacts({ ...facts, ...patch });
  const problems = { ...legalProblems(facts), ...footerProblems(facts) };
  const examples = loaded.facts.exampleData;
  const confirm = (fact: ExampleFact, what: string) => (
    <Confirm fact={fact} what={what} facts={facts} set={set} examples={examples} />
  );
  const save = async () => {
    if (Object.keys(problems).length > 0) {
      setOutcome({ ok: false, text: "Popraw zaznaczone pola i zapisz jeszcze raz." });
      // The first refused field as she reads the form, top to bottom.
      showProblem(firstInvalid(Object.keys(problems)));
      return;
    }
    setSaving(true);
    const result = await saveForm(
      toast,
      facts,
      (f) => api.saveFacts({ ...f, dataProtectionContact: f.dataProtectionContact.trim() }, loaded.version),
      load,
      setOutcome,
    );
    if (result.ok) draft.saved();
    setOutcome(result);
    setSaving(false);
    const field = result.ok ? null : factFieldId(result.place);
    if (field) showProblem(field);
  };
  const { dirty, offered } = draft;
  return (
    <section className="admin-card" aria-labelledby="facts-title">
      <h2 id="facts-title">Dane gabinetu</h2>
      {loaded.exampleData.length > 0 && <ExampleDataBanner facts={loaded.exampleData} />}
      <p className="muted">Pokazywane na każdej stronie: w stopce, w danych dla wyszukiwarek i w tekstach.</p>
      {offered && (
        <DraftNotice
          what="danych gabinetu"
          at={offered.at}
          stale={offered.version !== loaded.version}
          onRestore={() => {
            setFacts(offered.value);
            draft.settle(true);
          }}
          onDiscard={() => draft.settle(false)}
        />
      )}
      <fieldset className="settings">
        <legend>Kontakt i adres</legend>
        <div className="field-row">
          <FactText
            id="fact-phone"
            label="Telefon"
            type="tel"
            value={facts.phone}
            onChange={(phone) => set({ phone })}
          />
          <FactText
            id="fact-email"
            label="E-mail"
            type="email"
            value={facts.email}
            onChange={(email) => set({ email })}
          />
        </div>
        {confirm("phone", "telefon")}
        {confirm("email", "e-mail")}
        <FactText id="fact-street" label="Ulica i numer" value={facts.street} onChange={(street) => set({ street })} />
        <div className="field-row">
          <FactText
            id="fact-postal"
            label="Kod pocztowy"
            value={facts.postalCode}
            onChange={(postalCode) => set({ postalCode })}
          />
          <FactText id="fact-city" label="Miejscowość" value={facts.city} onChange={(city) => set({ city })} />
        </div>
        {confirm("address", "adres gabinetu")}
      </fieldset>
      <LegalFacts facts={facts} set={set} examples={examples} errors={problems} />
      <ScheduleFacts facts={facts} set={set} />
      <fieldset className="settings">
        <legend>Rezerwacja wizyt</legend>
        <FactText
          id="fact-booking"
          label="Strona rezerwacji gabinetu"
          type="url"
          value={facts.bookingUrl}
          onChange={(bookingUrl) => set({ bookingUrl })}
        />
        {Object.entries(facts.therapistBooking).map(([slug, url]) => (
          <FactText
            key={slug}
            id={`fact-booking-${slug}`}
            label={`Strona rezerwacji: ${loaded.therapists[slug] ?? slug}`}
            type="url"
            value={url}
            onChange={(value) => set({ therapistBooking: { ...facts.therapistBooking, [slug]: value } })}
          />
        ))}
        {confirm("booking", "strony rezerwacji")}
      </fieldset>
      <FooterFacts
        facts={facts}
        set={set}
        errors={problems}
        confirm={confirm("social", "profile w mediach społecznościowych w stopce")}
      />
      <NoticeFacts facts={facts} set={set} />
      <div className="editor-actions save-bar">
        <button type="button" className="btn btn-primary" onClick={save} disabled={saving}>
          {saving ? "Zapisywanie…" : "Zapisz dane gabinetu"}
        </button>
        {dirty && <span className="muted">Masz niezapisane zmiany.</span>}
        <SaveMessage outcome={outcome} />
      </div>
      <HistoryToggle doc={FACTS_DOC} version={loaded.version} previewable={false} onRestored={load} toast={toast} />
    </section>
  );
}
