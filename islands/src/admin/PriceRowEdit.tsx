// One row of 'Cennik' in its form: its line as visitors see it on '/cennik', then its fields
// (name, price with the pages whose texts show it, duration, 'od', the service, the note) and
// the buttons that move and remove it. A refused save's problem is said in the row.
import { useRef, type ComponentProps } from "react";
import type { PriceRow, Prices } from "./api";
import { useGrowing } from "./growing";
import { shortName } from "./names";
import type { Place } from "./problems";
import { routeHash } from "./app/routes";
import RichLine from "./RichLine";

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

/** Where a row's price appears in the site's texts ('{{ cena.<id> }}'), before and after a change, each page a link to its editor. */
function Uses({
  id,
  docs,
  names,
  changed,
}: {
  id: string;
  docs: string[];
  names: Record<string, string>;
  changed: boolean;
}) {
  const where = docs.length === 1 ? "1 stronie" : `${docs.length} stronach`;
  return (
    <p id={id} className="muted price-uses">
      {changed
        ? `Po zapisaniu nowa cena pojawi się w tekstach na ${where}: `
        : `Ta cena pojawia się w tekstach na ${where}: `}
      {docs.map((doc, i) => (
        <span key={doc}>
          {i > 0 && ", "}
          <a href={routeHash({ view: "pages", doc })}>{names[doc] ?? doc}</a>
        </span>
      ))}
      .
    </p>
  );
}

const ROW_FIELDS: (keyof PriceRow)[] = ["name", "price", "duration", "note", "link"];

/** The field of a row a refusal names (its price when it names only the row). */
export function fieldOf(problem: Place): keyof PriceRow {
  return ROW_FIELDS.find((f) => f === problem.field) ?? "price";
}

export interface PriceRowEditProps {
  i: number;
  row: PriceRow;
  /** How many rows the list has. */
  rows: number;
  prices: Prices;
  names: Record<string, string>;
  /** The refusal's problem when it is in this row. */
  problem: Place | null;
  onChange: (patch: Partial<PriceRow>) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}

export default function PriceRowEdit({
  i,
  row,
  rows,
  prices,
  names,
  problem,
  onChange,
  onMove,
  onRemove,
}: PriceRowEditProps) {
  const n = i + 1;
  const id = (name: string) => `price-${i}-${name}`;
  const marked = problem?.row === n ? problem : null;
  const invalid = (name: keyof PriceRow) =>
    marked && fieldOf(marked) === name ? { "aria-invalid": true, "aria-describedby": id("problem") } : {};
  const used = row.id ? (prices.uses[row.id] ?? []) : [];
  const before = prices.items.find((p) => p.id === row.id)?.price;
  return (
    <li className={marked ? "price-edit has-problem" : "price-edit"}>
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
            onChange={(e) => onChange({ name: e.target.value.replace(/\s*\n\s*/g, " ") })}
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
            onChange={(e) => onChange({ price: Math.max(0, Math.round(Number(e.target.value) || 0)) })}
          />
        </div>
        {used.length > 0 && (
          <Uses id={id("uses")} docs={used} names={names} changed={before !== undefined && before !== row.price} />
        )}
        <div className="field">
          <label htmlFor={id("duration")}>Czas trwania</label>
          <input
            id={id("duration")}
            {...invalid("duration")}
            type="text"
            value={row.duration}
            onChange={(e) => onChange({ duration: e.target.value })}
          />
        </div>
        <label className="check">
          <input type="checkbox" checked={row.from} onChange={(e) => onChange({ from: e.target.checked })} /> Cena od
          (najniższa)
        </label>
        <div className="field field-wide">
          <label htmlFor={id("link")}>Usługa</label>
          <select
            id={id("link")}
            {...invalid("link")}
            value={row.link}
            onChange={(e) => onChange({ link: e.target.value })}
          >
            {!prices.services.some((s) => s.route === row.link) && <option value={row.link}>{row.link}</option>}
            {prices.services.map((s) => (
              <option key={s.route} value={s.route}>
                {shortName({ route: s.route, kind: "service", title: s.title })}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-wide">
          <span className="field-label">Uwaga (opcjonalnie)</span>
          <RichLine
            id={id("note")}
            label="Uwaga (opcjonalnie)"
            invalid={Boolean(invalid("note")["aria-invalid"])}
            describedBy={invalid("note")["aria-describedby"]}
            value={row.note}
            onChange={(note) => onChange({ note })}
          />
        </div>
        <div className="editor-section-actions">
          <button type="button" className="btn btn-secondary btn-small" disabled={i === 0} onClick={() => onMove(-1)}>
            W górę<span className="visually-hidden">: pozycja {n}</span>
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            disabled={i === rows - 1}
            onClick={() => onMove(1)}
          >
            W dół<span className="visually-hidden">: pozycja {n}</span>
          </button>
          <button type="button" className="btn btn-secondary btn-small" onClick={onRemove}>
            Usuń pozycję<span className="visually-hidden"> {n}</span>
          </button>
        </div>
      </fieldset>
    </li>
  );
}
