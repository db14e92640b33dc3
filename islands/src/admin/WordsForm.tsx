// 'Napisy': the site's own words outside the pages — the home page's section headings, the
// texts beside the contact form, the cards' link, the footer's crisis numbers — grouped as the
// table of the server gives them (content/napisy.yaml). The words the SPEC fixes ('Umów wizytę',
// the menu) are shown as such, never as fields. A save is checked by the rules of `make check`.
import { useCallback, useEffect, useMemo, useState } from "react";
import { api, type Wording, type WordsEditable } from "./api";
import { DraftNotice, useFormDraft } from "./formDraft";
import { HistoryToggle } from "./History";
import { showProblem } from "./problems";
import RichLine from "./RichLine";
import SaveMessage from "./SaveMessage";
import { fromServer, saveForm, type Outcome, type Toast } from "./saving";
import { WORDS_DOC } from "./versions";

const LOAD_FAILED = { title: "Błąd", text: "Nie udało się pobrać napisów strony." };

type Values = Record<string, string>;

/** The table's groups in its order, each with its texts. */
function groups(table: Wording[]): [string, Wording[]][] {
  const out: [string, Wording[]][] = [];
  for (const w of table) {
    const last = out[out.length - 1];
    if (last && last[0] === w.group) last[1].push(w);
    else out.push([w.group, [w]]);
  }
  return out;
}

function Field({
  w,
  value,
  problem,
  onChange,
}: {
  w: Wording;
  value: string;
  problem: string | null;
  onChange: (value: string) => void;
}) {
  const id = `word-${w.key}`;
  if (w.fixed !== null) {
    return (
      <div className="field word-fixed">
        <span className="field-label" id={id}>
          {w.label}
        </span>
        <p aria-labelledby={id}>
          <strong>{w.fixed}</strong> <span className="muted">· {w.hint}</span>
        </p>
      </div>
    );
  }
  const described = [`${id}-hint`, problem ? `${id}-problem` : ""].filter(Boolean).join(" ");
  const common = {
    id,
    value,
    required: true,
    maxLength: w.max,
    "aria-describedby": described,
    "aria-invalid": problem ? true : undefined,
  };
  return (
    <div className={problem ? "field field-wide has-problem" : "field field-wide"}>
      {w.markdown ? (
        <>
          <span className="field-label" id={`${id}-label`}>
            {w.label}
          </span>
          <RichLine
            id={id}
            label={w.label}
            value={value}
            onChange={onChange}
            describedBy={described}
            invalid={Boolean(problem)}
          />
        </>
      ) : (
        <>
          <label htmlFor={id}>{w.label}</label>
          <input {...common} type="text" onChange={(e) => onChange(e.target.value)} />
        </>
      )}
      <p id={`${id}-hint`} className="muted">
        {w.hint} {value.length}/{w.max} znaków.
      </p>
      {problem && (
        <p id={`${id}-problem`} className="field-problem">
          {problem}
        </p>
      )}
    </div>
  );
}

export default function WordsForm({ toast, onDirty }: { toast: Toast; onDirty: (dirty: boolean) => void }) {
  const [loaded, setLoaded] = useState<WordsEditable | null>(null);
  const [values, setValues] = useState<Values | null>(null);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const load = useCallback(
    async (sent?: Values) => {
      try {
        const words = await api.words();
        setLoaded(words);
        setValues(fromServer<Values | null>(words.values, sent));
      } catch {
        toast("error", LOAD_FAILED);
      }
    },
    [toast],
  );
  useEffect(() => void load(), [load]);
  const saved = useMemo(() => (loaded ? { value: loaded.values, version: loaded.version } : null), [loaded]);
  const draft = useFormDraft(WORDS_DOC, saved, values, onDirty);
  // A refusal names the text by its label: that field is marked and shown.
  const refused = outcome && !outcome.ok ? outcome.text : "";
  const marked = loaded?.table.find((w) => w.fixed === null && refused.includes(`„${w.label}”`))?.key ?? null;
  useEffect(() => {
    if (marked) showProblem(`word-${marked}`);
  }, [marked, refused]);
  if (!loaded || !values) return <p role="status">Ładowanie napisów…</p>;

  const save = async () => {
    setSaving(true);
    const result = await saveForm(toast, values, (v) => api.saveWords(v, loaded.version), load, setOutcome);
    if (result.ok) draft.saved();
    setOutcome(result);
    setSaving(false);
  };
  const { dirty, offered } = draft;
  return (
    <section className="admin-card" aria-labelledby="words-title">
      <h2 id="words-title">Napisy</h2>
      <p className="muted">
        Napisy stałych części strony, poza treścią stron: nagłówki na stronie głównej, teksty przy formularzu
        kontaktowym i stopka. Napisy oznaczone jako ustalone zostają bez zmian.
      </p>
      {offered && (
        <DraftNotice
          what="napisów"
          at={offered.at}
          stale={offered.version !== loaded.version}
          onRestore={() => {
            setValues(offered.value);
            draft.settle(true);
          }}
          onDiscard={() => draft.settle(false)}
        />
      )}
      {groups(loaded.table).map(([group, texts]) => (
        <fieldset key={group} className="settings">
          <legend>{group}</legend>
          {texts.map((w) => (
            <Field
              key={w.key}
              w={w}
              value={values[w.key] ?? ""}
              problem={marked === w.key ? refused : null}
              onChange={(text) => setValues({ ...values, [w.key]: text })}
            />
          ))}
        </fieldset>
      ))}
      <div className="editor-actions save-bar">
        <button type="button" className="btn btn-primary" onClick={save} disabled={saving}>
          {saving ? "Zapisywanie…" : "Zapisz napisy"}
        </button>
        {dirty && <span className="muted">Masz niezapisane zmiany.</span>}
        <SaveMessage outcome={outcome} />
      </div>
      <HistoryToggle doc={WORDS_DOC} version={loaded.version} previewable={false} onRestored={load} toast={toast} />
    </section>
  );
}
