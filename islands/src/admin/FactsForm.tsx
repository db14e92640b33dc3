// 'Dane gabinetu': the facts of site.yaml that change (phone, e-mail, address, opening hours,
// the practice's days off, booking links, the legal identity, the footer's description and profiles) and the notice every page shows inside its dates. Every
// page follows them.
import { useCallback, useEffect, useMemo, useState } from "react";
import { api, type ExampleFact, type FactsEditable, type Hours, type PracticeFacts } from "./api";
import DateField from "./DateField";
import { DraftNotice, useFormDraft } from "./formDraft";
import { HistoryToggle } from "./History";
import FooterFacts, { footerProblems } from "./FooterFacts";
import LegalFacts, { Confirm, legalProblems } from "./LegalFacts";
import SaveMessage from "./SaveMessage";
import { saveForm, type Outcome, type Toast } from "./saving";
import { FACTS_DOC } from "./versions";

const LOAD_FAILED = { title: "Błąd", text: "Nie udało się pobrać danych gabinetu." };

const DAYS: [string, string][] = [
  ["Monday", "pon."],
  ["Tuesday", "wt."],
  ["Wednesday", "śr."],
  ["Thursday", "czw."],
  ["Friday", "pt."],
  ["Saturday", "sob."],
  ["Sunday", "niedz."],
];
const DAY_NAMES: Record<string, string> = {
  Monday: "poniedziałek",
  Tuesday: "wtorek",
  Wednesday: "środa",
  Thursday: "czwartek",
  Friday: "piątek",
  Saturday: "sobota",
  Sunday: "niedziela",
};

function Text({
  id,
  label,
  value,
  onChange,
  type = "text",
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  hint?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && (
        <p id={`${id}-hint`} className="muted">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The ready-to-publish check: the facts still marked as example data. */
function ExampleDataBanner({ facts }: { facts: string[] }) {
  return (
    <div className="example-data" role="note" aria-labelledby="example-data-title">
      <p id="example-data-title">
        <strong>Dane przykładowe – serwer produkcyjny nie opublikuje z nimi strony</strong>
      </p>
      <p>Te dane gabinetu są jeszcze przykładowe:</p>
      <ul>
        {facts.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      <p>
        Wpisz poniżej prawdziwe dane (prawne z wpisu gabinetu w CEIDG), zaznacz przy każdym „Potwierdzam” i zapisz.
        Nazwę gabinetu, adres strony oraz identyfikatory statystyk i widżetu telefonicznego zmienia w pliku site.yaml
        informatyk lub redaktor.
      </p>
    </div>
  );
}

export default function FactsForm({ toast, onDirty }: { toast: Toast; onDirty: (dirty: boolean) => void }) {
  const [loaded, setLoaded] = useState<FactsEditable | null>(null);
  const [facts, setFacts] = useState<PracticeFacts | null>(null);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const load = useCallback(async () => {
    try {
      const f = await api.facts();
      setLoaded(f);
      setFacts(f.facts);
    } catch {
      toast("error", LOAD_FAILED);
    }
  }, [toast]);
  useEffect(() => void load(), [load]);
  const saved = useMemo(() => (loaded ? { value: loaded.facts, version: loaded.version } : null), [loaded]);
  const draft = useFormDraft(FACTS_DOC, saved, facts, onDirty);
  if (!loaded || !facts) return <p role="status">Ładowanie danych gabinetu…</p>;

  const set = (patch: Partial<PracticeFacts>) => setFacts({ ...facts, ...patch });
  const setHours = (i: number, patch: Partial<Hours>) =>
    set({ openingHours: facts.openingHours.map((h, j) => (j === i ? { ...h, ...patch } : h)) });
  const toggleDay = (i: number, day: string, on: boolean) => {
    const days = facts.openingHours[i]?.days ?? [];
    const next = DAYS.map(([d]) => d).filter((d) => (d === day ? on : days.includes(d)));
    setHours(i, { days: next });
  };
  const problems = { ...legalProblems(facts), ...footerProblems(facts) };
  const examples = loaded.facts.exampleData;
  const confirm = (fact: ExampleFact, what: string) => (
    <Confirm fact={fact} what={what} facts={facts} set={set} examples={examples} />
  );
  const save = async () => {
    const first = Object.keys(problems)[0];
    if (first) {
      setOutcome({ ok: false, text: "Popraw zaznaczone pola i zapisz jeszcze raz." });
      document.getElementById(first)?.focus();
      return;
    }
    setSaving(true);
    const result = await saveForm(
      toast,
      () => api.saveFacts({ ...facts, dataProtectionContact: facts.dataProtectionContact.trim() }, loaded.version),
      load,
      setOutcome,
    );
    if (result.ok) draft.saved();
    setOutcome(result);
    setSaving(false);
  };
  const notice = facts.notice;
  // A draft kept before days off existed has none.
  const closures = facts.closures ?? [];
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
          <Text id="fact-phone" label="Telefon" type="tel" value={facts.phone} onChange={(phone) => set({ phone })} />
          <Text id="fact-email" label="E-mail" type="email" value={facts.email} onChange={(email) => set({ email })} />
        </div>
        {confirm("phone", "telefon")}
        {confirm("email", "e-mail")}
        <Text id="fact-street" label="Ulica i numer" value={facts.street} onChange={(street) => set({ street })} />
        <div className="field-row">
          <Text
            id="fact-postal"
            label="Kod pocztowy"
            value={facts.postalCode}
            onChange={(postalCode) => set({ postalCode })}
          />
          <Text id="fact-city" label="Miejscowość" value={facts.city} onChange={(city) => set({ city })} />
        </div>
        {confirm("address", "adres gabinetu")}
      </fieldset>
      <LegalFacts facts={facts} set={set} examples={examples} errors={problems} />
      <fieldset className="settings">
        <legend>Godziny pracy</legend>
        {facts.openingHours.map((h, i) => (
          <fieldset key={i} className="hours-row">
            <legend>Wiersz {i + 1}</legend>
            <div className="days">
              {DAYS.map(([day, short]) => (
                <label key={day} className="check">
                  <input
                    type="checkbox"
                    checked={h.days.includes(day)}
                    onChange={(e) => toggleDay(i, day, e.target.checked)}
                    aria-label={`${DAY_NAMES[day]}, wiersz ${i + 1}`}
                  />{" "}
                  <span aria-hidden="true">{short}</span>
                </label>
              ))}
            </div>
            <div className="field-row">
              <Text
                id={`hours-${i}-opens`}
                label="Od"
                type="time"
                value={h.opens}
                onChange={(opens) => setHours(i, { opens })}
              />
              <Text
                id={`hours-${i}-closes`}
                label="Do"
                type="time"
                value={h.closes}
                onChange={(closes) => setHours(i, { closes })}
              />
            </div>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => set({ openingHours: facts.openingHours.filter((_, j) => j !== i) })}
            >
              Usuń wiersz<span className="visually-hidden"> {i + 1} godzin pracy</span>
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => set({ openingHours: [...facts.openingHours, { days: [], opens: "09:00", closes: "17:00" }] })}
        >
          Dodaj wiersz godzin
        </button>
      </fieldset>
      <fieldset className="settings">
        <legend>Dni bez przyjęć</legend>
        <p className="muted">
          W święta państwowe (także Wielkanoc i Boże Ciało) gabinet jest zamknięty bez wpisywania ich tutaj. Dodaj
          urlop, szkolenie albo inny dzień, w którym nikt nie odbierze telefonu: strona poda wtedy numery pomocy i
          dzień, od którego gabinet znów pracuje.
        </p>
        {closures.map((c, i) => (
          <fieldset key={i} className="hours-row">
            <legend>Przerwa {i + 1}</legend>
            <div className="field-row">
              <DateField
                id={`closure-${i}-from`}
                label="Od"
                value={c.from}
                hint="Na przykład 3.08.2026"
                onChange={(from) => set({ closures: closures.map((x, j) => (j === i ? { ...x, from } : x)) })}
              />
              <DateField
                id={`closure-${i}-until`}
                label="Do (włącznie)"
                value={c.until}
                hint="Jeden dzień: ta sama data"
                onChange={(until) => set({ closures: closures.map((x, j) => (j === i ? { ...x, until } : x)) })}
              />
            </div>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => set({ closures: closures.filter((_, j) => j !== i) })}
            >
              Usuń przerwę<span className="visually-hidden"> {i + 1}</span>
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => set({ closures: [...closures, { from: "", until: "" }] })}
        >
          Dodaj dni bez przyjęć
        </button>
      </fieldset>
      <fieldset className="settings">
        <legend>Rezerwacja wizyt</legend>
        <Text
          id="fact-booking"
          label="Strona rezerwacji gabinetu"
          type="url"
          value={facts.bookingUrl}
          onChange={(bookingUrl) => set({ bookingUrl })}
        />
        {Object.entries(facts.therapistBooking).map(([slug, url]) => (
          <Text
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
      <fieldset className="settings">
        <legend>Komunikat na każdej stronie</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={notice !== null}
            onChange={(e) => set({ notice: e.target.checked ? { text: "", from: "", until: "" } : null })}
          />{" "}
          Pokazuj komunikat (na przykład „Gabinet nieczynny 24.12–1.01”)
        </label>
        {notice && (
          <>
            <Text
              id="notice-text"
              label="Treść komunikatu"
              value={notice.text}
              onChange={(text) => set({ notice: { ...notice, text } })}
            />
            <div className="field-row">
              <DateField
                id="notice-from"
                label="Od"
                value={notice.from}
                hint="Na przykład 24.12.2026 (od początku dnia) albo 24.12.2026 10:00, czas polski"
                onChange={(from) => set({ notice: { ...notice, from } })}
              />
              <DateField
                id="notice-until"
                label="Do"
                value={notice.until}
                hint="Na przykład 27.12.2026 (do końca dnia) albo 27.12.2026 18:00"
                onChange={(until) => set({ notice: { ...notice, until } })}
              />
            </div>
            <p className="muted">Komunikat pojawi się i zniknie sam, w podanych dniach.</p>
          </>
        )}
      </fieldset>
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
