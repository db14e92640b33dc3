// 'Cennik': the price list row by row (each linked to a service), added, changed, moved and
// removed, then saved; the server checks it by the rules of `make check`. The rows are in the
// order of the public '/cennik', each headed by its line as visitors see it there (whole name,
// note, duration, price), with every field wide enough for its whole text. They scroll in their
// own box, so 'Zapisz cennik' under it stays on the screen however long the list.
import { useCallback, useEffect, useMemo, useState } from "react";
import { api, type PriceRow, type Prices } from "./api";
import type { ViewProps } from "./app/views";
import { useStore } from "./app/store";
import { DraftNotice, useFormDraft } from "./formDraft";
import { HistoryToggle } from "./History";
import { shortName } from "./names";
import { pagesStore } from "./pages/store";
import PriceRowEdit, { fieldOf } from "./PriceRowEdit";
import { showProblem, type Place } from "./problems";
import SaveMessage from "./SaveMessage";
import { rowsFromServer, saveForm, type Outcome } from "./saving";
import { PRICES_DOC } from "./versions";

const LOAD_FAILED = { title: "Błąd", text: "Nie udało się pobrać cennika." };

export default function PricesForm({ toast, onDirty }: ViewProps) {
  const { pages } = useStore(pagesStore);
  // The panel's name of each document, by its id ('pages/cennik' → 'Cennik').
  const names = useMemo(() => Object.fromEntries(pages.map((p) => [p.id, shortName(p)])), [pages]);
  const [prices, setPrices] = useState<Prices | null>(null);
  const [rows, setRows] = useState<PriceRow[]>([]);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [problem, setProblem] = useState<Place | null>(null);
  // The row removed last and where it was, until it is put back or the list is saved.
  const [removed, setRemoved] = useState<{ row: PriceRow; at: number } | null>(null);
  const load = useCallback(
    async (sent?: PriceRow[]) => {
      try {
        const p = await api.prices();
        setPrices(p);
        setRows(rowsFromServer(p.items, sent));
      } catch {
        toast("error", LOAD_FAILED);
      }
    },
    [toast],
  );
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
    const result = await saveForm(toast, rows, (items) => api.savePrices(items, prices.version), load, setOutcome);
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
            return (
              <PriceRowEdit
                key={i}
                i={i}
                row={row}
                rows={rows.length}
                prices={prices}
                names={names}
                problem={problem?.row === i + 1 ? problem : null}
                onChange={(patch) => update(i, patch)}
                onMove={(by) => move(i, by)}
                onRemove={() => remove(i)}
              />
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
