// 'Historia zmian' of a page, the price list or the facts: every version, the one before the
// first change in the panel included, each named by what it changed ('Terapia indywidualna 190
// → 200 zł', 'Przywrócono wersję z 12.11.2026 18:03'), compared with the current text field by
// field under the form's labels, previewed (documents) and restored; a restore can be undone.
import { useCallback, useEffect, useState } from "react";
import { diffWords } from "diff";
import { isApiError } from "./api";
import { history, previewUrl, type Version, type VersionTexts } from "./versions";
import { refusal, type Toast } from "./saving";

const LOAD_FAILED = { title: "Błąd", text: "Nie udało się pobrać historii zmian." };
/** Unchanged text longer than this is shortened in a comparison to its two ends. */
const CONTEXT = 120;

function formatTime(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString("pl-PL", { dateStyle: "long", timeStyle: "short" });
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function describe(v: Version): string {
  return v.side === "before"
    ? `${capitalised(v.summary)} (sprzed ${formatTime(v.savedAt)})`
    : `${formatTime(v.savedAt)} · ${capitalised(v.summary)} · ${v.author}`;
}

function shorten(text: string): string {
  if (text.length <= 3 * CONTEXT) return text;
  return `${text.slice(0, CONTEXT)} […] ${text.slice(-CONTEXT)}`;
}

/** One field of a version beside the current text: what it had that is gone now, what came since. */
function WordDiff({ label, version, current }: { label: string; version: string; current: string }) {
  const parts = diffWords(version, current);
  return (
    <div className="word-diff">
      <h3 className="word-diff-label">{label}</h3>
      <div className="word-diff-text" role="region" aria-label={`Porównanie: ${label}`} tabIndex={0}>
        {parts.map((p, i) =>
          p.removed ? (
            <del key={i}>
              <span className="visually-hidden">[usunięto: </span>
              {p.value}
              <span className="visually-hidden">]</span>
            </del>
          ) : p.added ? (
            <ins key={i}>
              <span className="visually-hidden">[dodano: </span>
              {p.value}
              <span className="visually-hidden">]</span>
            </ins>
          ) : (
            <span key={i}>{shorten(p.value)}</span>
          ),
        )}
      </div>
    </div>
  );
}

function Comparison({ doc, version }: { doc: string; version: Version }) {
  const [texts, setTexts] = useState<VersionTexts | null>(null);
  const [failed, setFailed] = useState("");
  useEffect(() => {
    history
      .texts(doc, version)
      .then(setTexts, (e: unknown) => setFailed(isApiError(e) && e.error ? e.error : LOAD_FAILED.text));
  }, [doc, version]);
  if (failed) return <p role="alert">{failed}</p>;
  if (!texts) return <p className="muted">Ładowanie porównania…</p>;
  if (texts.fields.length === 0) return <p>Ta wersja nie różni się od obecnej.</p>;
  return (
    <div className="word-diffs">
      <p className="muted">
        <del>Przekreślone</del>: tekst tej wersji, którego już nie ma. <ins>Podkreślone</ins>: tekst dodany później.
        Przywrócenie tej wersji cofnie jedno i drugie.
      </p>
      {texts.fields.map((f) => (
        <WordDiff key={f.label} label={f.label} version={f.version} current={f.current} />
      ))}
    </div>
  );
}

interface Props {
  /** The file's id in the history: `pages/home`, `cennik.yaml`, `site.yaml`. */
  doc: string;
  /** The file's version the panel holds now: a restore is refused on another. */
  version: string;
  /** Documents only: versions can be previewed with the site's templates. */
  previewable: boolean;
  onRestored: () => void | Promise<void>;
  toast: Toast;
}

export default function History({ doc, version, previewable, onRestored, toast }: Props) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [restored, setRestored] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(
    () =>
      history.list(doc).then(
        (h) => setVersions(h.entries),
        () => toast("error", LOAD_FAILED),
      ),
    [doc, toast],
  );
  useEffect(() => {
    void load();
  }, [load, version]);

  const restore = async (v: Pick<Version, "revision" | "side">, done: string, label: string) => {
    setBusy(true);
    try {
      await history.restore(doc, v, version);
      toast("success", { title: "Sukces", text: done });
      setRestored(label);
      setOpen(null);
      await onRestored();
      await load();
    } catch (e) {
      toast("error", refusal(e));
    } finally {
      setBusy(false);
    }
  };
  const undo = () => {
    const newest = versions?.[0];
    if (newest) void restore({ revision: newest.revision, side: "before" }, "Cofnięto przywrócenie.", "");
  };

  if (versions === null) return <p className="muted">Ładowanie historii…</p>;
  return (
    <section className="history-panel" aria-label="Historia zmian">
      {restored !== null && restored !== "" && (
        <div className="form-notice form-notice-success" role="status">
          <p>Przywrócono: {restored}. Ta wersja jest już opublikowana.</p>
          <button type="button" className="btn btn-secondary btn-small" onClick={undo} disabled={busy}>
            Cofnij przywrócenie
          </button>
        </div>
      )}
      {versions.length === 0 ? (
        <p className="muted">Nic tu jeszcze nie zmieniano w panelu; po pierwszym zapisie zobaczysz tu obie wersje.</p>
      ) : (
        <ol className="history">
          {versions.map((v) => {
            const key = `${v.revision}-${v.side}`;
            const label = describe(v);
            const shown = open === key;
            return (
              <li key={key}>
                <span>
                  {label}
                  {v.current && <strong> (obecna wersja)</strong>}
                </span>
                {!v.current && (
                  <span className="history-actions">
                    <button
                      type="button"
                      className="btn btn-secondary btn-small"
                      aria-expanded={shown}
                      onClick={() => setOpen(shown ? null : key)}
                    >
                      Porównaj z obecną<span className="visually-hidden">: {label}</span>
                    </button>
                    {previewable && (
                      <a
                        className="btn btn-secondary btn-small"
                        href={previewUrl(doc, v)}
                        target="_blank"
                        rel="noopener"
                      >
                        Podgląd<span className="visually-hidden">: {label} (otwiera się w nowej karcie)</span>
                      </a>
                    )}
                    <button
                      type="button"
                      className="btn btn-secondary btn-small"
                      disabled={busy}
                      onClick={() => void restore(v, "Przywrócono wybraną wersję.", label)}
                    >
                      Przywróć tę wersję<span className="visually-hidden">: {label}</span>
                    </button>
                  </span>
                )}
                {shown && <Comparison doc={doc} version={v} />}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/** 'Historia zmian' behind a button, for a form that has one file (the price list, the facts). */
export function HistoryToggle(props: Props) {
  const [shown, setShown] = useState(false);
  return (
    <div className="history-toggle">
      <button
        type="button"
        className="btn btn-secondary btn-small"
        aria-expanded={shown}
        onClick={() => setShown((s) => !s)}
      >
        Historia zmian
      </button>
      {shown && <History {...props} />}
    </div>
  );
}
