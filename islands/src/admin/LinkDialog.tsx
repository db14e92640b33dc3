// 'Wstaw link': the link's text, and where it leads — one of the site's own pages (found by
// its name or address) or an address outside the site. A modal <dialog>: the focus stays
// inside, Escape closes it, and the writing surface takes the focus back.
import { useId, useMemo, useState, type FormEvent } from "react";
import Modal from "./Modal";
import { outsideAddress } from "./markdownEdits";

/** A page of the site the picker offers: its name in the panel and its address. */
export interface PageLink {
  name: string;
  route: string;
}

const WRONG_ADDRESS =
  "To nie wygląda na adres strony. Wpisz pełny adres, na przykład https://www.nfz.gov.pl, albo wybierz stronę serwisu.";

/** Folds Polish letters and case, so 'cennik' finds 'Cennik' and 'lek' finds 'Lęk'. */
function folded(text: string): string {
  return text.toLocaleLowerCase("pl").normalize("NFD").replace(/\p{M}/gu, "").replace(/ł/g, "l");
}

export default function LinkDialog({
  pages,
  label,
  onInsert,
  onClose,
}: {
  pages: PageLink[];
  /** The selected text, the link's text to begin with. */
  label: string;
  onInsert: (label: string, url: string) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [text, setText] = useState(label);
  const [query, setQuery] = useState("");
  const [route, setRoute] = useState<string | null>(null);
  const [outside, setOutside] = useState("");
  const [error, setError] = useState("");
  const found = useMemo(() => {
    const wanted = folded(query.trim());
    return pages.filter((p) => !wanted || folded(`${p.name} ${p.route}`).includes(wanted));
  }, [pages, query]);
  // Where the link leads: the page picked, if still shown, or the first a search found. Nothing
  // before either: no page is chosen for the owner.
  const searched = query.trim() ? (found[0] ?? null) : null;
  const chosen = outside.trim() ? null : (found.find((p) => p.route === route) ?? searched);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const url = outside.trim() ? outsideAddress(outside) : (chosen?.route ?? null);
    if (!url) {
      setError(outside.trim() ? WRONG_ADDRESS : "Wybierz stronę serwisu albo wpisz adres spoza serwisu.");
      return;
    }
    const shown = text.trim() || chosen?.name || url;
    onInsert(shown, url);
  };

  return (
    <Modal title="Wstaw link" onClose={onClose}>
      <form className="admin-dialog-body link-dialog" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-text`}>Tekst linku</label>
          <input id={`${id}-text`} type="text" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-search`}>Szukaj strony serwisu</label>
          <input
            id={`${id}-search`}
            type="search"
            data-autofocus
            value={query}
            aria-describedby={`${id}-found`}
            onChange={(e) => {
              setQuery(e.target.value);
              setOutside("");
              setError("");
            }}
          />
          <p id={`${id}-found`} className="muted" aria-live="polite">
            {found.length === 0
              ? "Nie znaleziono takiej strony."
              : chosen
                ? `Link poprowadzi do: ${chosen.name} (${chosen.route}).`
                : `Znaleziono stron: ${found.length}.`}
          </p>
        </div>
        <fieldset className="link-pages">
          <legend>Strona serwisu</legend>
          <ul>
            {found.map((p) => (
              <li key={p.route}>
                <label className="check">
                  <input
                    type="radio"
                    name={`${id}-page`}
                    value={p.route}
                    checked={chosen?.route === p.route}
                    onChange={() => {
                      setRoute(p.route);
                      setOutside("");
                      setError("");
                    }}
                  />{" "}
                  {p.name} <span className="muted">{p.route}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-outside`}>albo adres spoza serwisu</label>
          <input
            id={`${id}-outside`}
            type="text"
            inputMode="url"
            placeholder="https://"
            value={outside}
            aria-invalid={error && outside.trim() ? true : undefined}
            onChange={(e) => {
              setOutside(e.target.value);
              setError("");
            }}
          />
        </div>
        {error && (
          <p className="form-notice form-notice-error" role="alert">
            {error}
          </p>
        )}
        <div className="editor-actions">
          <button type="submit" className="btn btn-primary">
            Wstaw link
          </button>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Anuluj
          </button>
        </div>
      </form>
    </Modal>
  );
}
