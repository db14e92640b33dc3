// 'Cennik': the price list row by row (each linked to a service), added, changed, moved and
// removed, then saved; the server checks it by the rules of `make check`. The rows are in the
// order of the public '/cennik', each headed by its line as visitors see it there (whole name,
// note, duration, price), with every field wide enough for its whole text. They scroll in their
// own box, so 'Zapisz cennik' under it stays on the screen however long the list.
import { useCallback, useEffect, useMemo, useRef, useState, type ComponentProps } from "react";
import { api, type PriceRow, type Prices } from "./api";
import { DraftNotice, useFormDraft } from "./formDraft";
import { useGrowing } from "./growing";
import { shortName } from "./names";
import { HistoryToggle } from "./History";
import { showProblem, type Place } from "./problems";
import SaveMessage from "./SaveMessage";
import { saveForm, type Outcome, type Toast } from "./saving";
import { PRICES_DOC } from "./versions";

const LOAD_FAILED = { title: "Błąd", text: "Nie udało się pobrać cennika." };

/** The price as '/cennik' shows it (generator/site/src/views.rs `price_label`). */
function priceLabel(row: PriceRow): string {
  if (row.price === 0) return "bezpłatnie";
  return `${row.from ? "od " : ""}${row.price}\u00a0zł`;
}

/**
 * A name or a note shown whole at any width: a text area that wraps and grows with its text.
 * `oneLine`: Enter adds no line (a name is one line in the file).
 */
function WholeText({ oneLine, ...props }: ComponentProps<"textarea"> & { value: string; oneLine?: boolean }) {
  const area = useRef<HTMLTextAreaElement>(null);
  useGrowing(area, props.value);
  return (
    <textarea
      ref={area}
      rows={1}
      onKeyDown={oneLine ? (e) => e.key === "Enter" && e.preventDefault() : undefined}
      {...props}
    />
  );
}

/** One row as visitors see it on '/cennik'. */
function PublicLine({ row }: { row: PriceRow }) {
  return (
    <div className="price-row price-preview">
      <div className="price-name">
        <strong>{row.name || "(bez nazwy)"}</strong>
        {row.note && <span className="muted">{row.note}</span>}
      </div>
      <span className="price-duration">{row.duration.replace(/ /g, "\u00a0")}</span>
      <span className="price-amount">{priceLabel(row)}</span>
    </div>
  );
}

/** Where a row's price appears in the site's texts ('{{ cena.<id> }}'), before and after a change. */
function usesText(names: string[], changed: boolean): string {
  const where = names.length === 1 ? "1 stronie" : `${names.length} stronach`;
  return changed
    ? `Po zapisaniu nowa cena pojawi się w tekstach na ${where}: ${names.join(", ")}.`
    : `Ta cena pojawia się w tekstach na ${where}: ${names.join(", ")}.`;
}

const ROW_FIELDS: (keyof PriceRow)[] = ["name", "price", "duration", "note", "link"];

/** The field of a row a refusal names (its price when it names only the row). */
function fieldOf(problem: Place): keyof PriceRow {
  return ROW_FIELDS.find((f) => f === problem.field) ?? "price";
}

export default function PricesForm({
  toast,
  onDirty,
  names,
}: {
  toast: Toast;
  onDirty: (dirty: boolean) => void;
  /** The panel's name of each document, by its id ('pages/cennik' → 'Cennik'). */
  names: Record<string, string>;
}) {
  const [prices, setPrices] = useState<Prices | null>(null);
  const [rows, setRows] = useState<PriceRow[]>([]);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [problem, setProblem] = useState<Place | null>(null);
  // The row removed last and where it was, until it is put back or the list is saved.
  const [removed, setRemoved] = useState<{ row: PriceRow; at: number } | null>(null);
  const load = useCallback(async () => {
    try {
      const p = await api.prices();
      setPrices(p);
      setRows(p.items);
    } catch {
      toast("error", LOAD_FAILED);
    }
  }, [toast]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (problem?.row) showProblem(`price-${problem.row - 1}-${fieldOf(problem)}`);
  }, [problem]);
  const loaded = useMemo(() => (prices ? { value: prices.items, version: prices.version } : null), [prices]);
  const draft = useFormDraft(PRICES_DOC, loaded, loaded ? rows : null, onDirty);
  if (!prices) return <p role="status">Ładowanie cennika…</p>;

  const update = (i: number, patch: Partial<PriceRow>) =>
    setRows((all) => all.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const move = (i: number, by: number) =>
    setRows((all) => {
      const copy = [...all];
      const [row] = copy.splice(i, 1);
      if (row) copy.splice(i + by, 0, row);
      return copy;
    });
  const add = () =>
    setRows((all) => [
      ...all,
      {
        id: "",
        name: "",
        price: 190,
        from: false,
        duration: "50 min",
        link: prices.services[0]?.route ?? "",
        note: "",
        origin: null,
      },
    ]);
  const remove = (i: number) => {
    const row = rows[i];
    if (!row) return;
    setRows((all) => all.filter((_, j) => j !== i));
    setRemoved({ row, at: i });
    // The removed row's button is gone: the focus goes to the way back.
    showProblem("price-undo");
  };
  const putBack = () => {
    if (!removed) return;
    setRows((all) => [...all.slice(0, removed.at), removed.row, ...all.slice(removed.at)]);
    setRemoved(null);
    showProblem(`price-${removed.at}-name`);
  };
  const save = async () => {
    setRemoved(null);
    setSaving(true);
    const result = await saveForm(toast, () => api.savePrices(rows, prices.version), load, setOutcome);
    if (result.ok) draft.saved();
    setOutcome(result);
    setProblem(result.ok || result.place?.row === undefined ? null : result.place);
    setSaving(false);
  };
  const { dirty, offered } = draft;
  // Where the row was, until it is put back or the list is saved.
  const removedNotice = removed && (
    <li key="removed">
      <div className="form-notice" role="status">
        <p>
          Usunięto pozycję {removed.at + 1}: „{removed.row.name || "bez nazwy"}”. Zniknie z cennika po zapisaniu.
        </p>
        <button id="price-undo" type="button" className="btn btn-secondary btn-small" onClick={putBack}>
          Cofnij usunięcie
        </button>
      </div>
    </li>
  );
  return (
    <section className="admin-card" aria-labelledby="prices-title">
      <h2 id="prices-title">Cennik</h2>
      <p className="muted">
        Każda pozycja prowadzi do strony usługi. Kolejność tutaj to kolejność na stronie /cennik, a pierwszy wiersz
        pozycji pokazuje ją tak, jak widzą ją odwiedzający.
      </p>
      {offered && (
        <DraftNotice
          what="cennika"
          at={offered.at}
          stale={offered.version !== prices.version}
          onRestore={() => {
            setRows(offered.value);
            draft.settle(true);
          }}
          onDiscard={() => draft.settle(false)}
        />
      )}
      <ol className="price-rows scroll-box" aria-label="Pozycje cennika">
        {removed?.at === 0 && removedNotice}
        {rows
          .map((row, i) => {
            const n = i + 1;
            const id = (name: string) => `price-${i}-${name}`;
            const marked = problem?.row === n ? problem : null;
            const invalid = (name: keyof PriceRow) =>
              marked && fieldOf(marked) === name ? { "aria-invalid": true, "aria-describedby": id("problem") } : {};
            const used = (row.id ? (prices.uses[row.id] ?? []) : []).map((doc) => names[doc] ?? doc);
            const before = prices.items.find((p) => p.id === row.id)?.price;
            return (
              <li key={i} className={marked ? "price-edit has-problem" : "price-edit"}>
                <fieldset>
                  <legend>Pozycja {n}</legend>
                  <PublicLine row={row} />
                  {marked && (
                    <p id={id("problem")} className="field-problem">
                      {marked.text}
                    </p>
                  )}
                  <div className="field field-wide">
                    <label htmlFor={id("name")}>Nazwa</label>
                    <WholeText
                      id={id("name")}
                      {...invalid("name")}
                      oneLine
                      value={row.name}
                      onChange={(e) => update(i, { name: e.target.value.replace(/\s*\n\s*/g, " ") })}
                    />
                  </div>
                  <div className="field">
                    <label htmlFor={id("price")}>Cena (zł, 0 = bezpłatnie)</label>
                    <input
                      id={id("price")}
                      {...invalid("price")}
                      type="number"
                      min={0}
                      max={100000}
                      step={1}
                      value={row.price}
                      aria-describedby={
                        [invalid("price")["aria-describedby"], used.length > 0 ? id("uses") : undefined]
                          .filter(Boolean)
                          .join(" ") || undefined
                      }
                      onChange={(e) => update(i, { price: Math.max(0, Math.round(Number(e.target.value) || 0)) })}
                    />
                    {used.length > 0 && (
                      <p id={id("uses")} className="muted price-uses">
                        {usesText(used, before !== undefined && before !== row.price)}
                      </p>
                    )}
                  </div>
                  <div className="field">
                    <label htmlFor={id("duration")}>Czas trwania</label>
                    <input
                      id={id("duration")}
                      {...invalid("duration")}
                      type="text"
                      value={row.duration}
                      onChange={(e) => update(i, { duration: e.target.value })}
                    />
                  </div>
                  <label className="check">
                    <input type="checkbox" checked={row.from} onChange={(e) => update(i, { from: e.target.checked })} />{" "}
                    Cena od (najniższa)
                  </label>
                  <div className="field field-wide">
                    <label htmlFor={id("link")}>Usługa</label>
                    <select
                      id={id("link")}
                      {...invalid("link")}
                      value={row.link}
                      onChange={(e) => update(i, { link: e.target.value })}
                    >
                      {!prices.services.some((s) => s.route === row.link) && (
                        <option value={row.link}>{row.link}</option>
                      )}
                      {prices.services.map((s) => (
                        <option key={s.route} value={s.route}>
                          {shortName({ route: s.route, kind: "service", title: s.title })}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div className="field field-wide">
                    <label htmlFor={id("note")}>Uwaga (opcjonalnie)</label>
                    <WholeText
                      id={id("note")}
                      {...invalid("note")}
                      value={row.note}
                      onChange={(e) => update(i, { note: e.target.value })}
                    />
                  </div>
                  <div className="editor-section-actions">
                    <button
                      type="button"
                      className="btn btn-secondary btn-small"
                      disabled={i === 0}
                      onClick={() => move(i, -1)}
                    >
                      W górę<span className="visually-hidden">: pozycja {n}</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn-secondary btn-small"
                      disabled={i === rows.length - 1}
                      onClick={() => move(i, 1)}
                    >
                      W dół<span className="visually-hidden">: pozycja {n}</span>
                    </button>
                    <button type="button" className="btn btn-secondary btn-small" onClick={() => remove(i)}>
                      Usuń pozycję<span className="visually-hidden"> {n}</span>
                    </button>
                  </div>
                </fieldset>
              </li>
            );
          })
          .flatMap((item, i) => (removed?.at === i + 1 ? [item, removedNotice] : [item]))}
      </ol>
      <button type="button" className="btn btn-secondary editor-add" onClick={add}>
        Dodaj pozycję
      </button>
      <div className="editor-actions">
        <button type="button" className="btn btn-primary" onClick={save} disabled={saving}>
          {saving ? "Zapisywanie…" : "Zapisz cennik"}
        </button>
        {dirty && <span className="muted">Masz niezapisane zmiany.</span>}
        <SaveMessage outcome={outcome} />
      </div>
      <HistoryToggle doc={PRICES_DOC} version={prices.version} previewable={false} onRestored={load} toast={toast} />
    </section>
  );
}
