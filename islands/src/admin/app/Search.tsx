// 'Szukaj': one field that finds a text anywhere she can edit it (a page, the team, the price
// list, 'Napisy', 'Dane gabinetu' and the footer) and opens the field that holds it.
import { useEffect, useId, useRef, useState } from "react";
import { api, team } from "../api";
import { useStore } from "./store";
import { pagesStore } from "../pages/store";
import { focusField } from "./focus";
import type { Route } from "./routes";
import { entries, search, type Corpus } from "./find";

type Others = Omit<Corpus, "pages">;

/** The texts outside the pages, asked for when she first searches (and again each time she opens the search). */
async function others(): Promise<Others> {
  const [members, prices, words, facts] = await Promise.allSettled([
    team.list(),
    api.prices(),
    api.words(),
    api.facts(),
  ]);
  return {
    team: members.status === "fulfilled" ? members.value : [],
    prices: prices.status === "fulfilled" ? prices.value : null,
    words: words.status === "fulfilled" ? words.value : null,
    facts: facts.status === "fulfilled" ? facts.value : null,
  };
}

export default function Search({ go }: { go: (to: Route) => void }) {
  const { pages } = useStore(pagesStore);
  const [query, setQuery] = useState("");
  const [rest, setRest] = useState<Others | null>(null);
  const asked = useRef(false);
  const id = useId();
  useEffect(() => {
    if (query.trim().length < 2 || asked.current) return;
    asked.current = true;
    void others().then(setRest);
  }, [query]);
  const found = search(entries({ pages, team: [], prices: null, words: null, facts: null, ...rest }), query);
  const open = (route: Route, field: string) => {
    setQuery("");
    asked.current = false;
    go(route);
    focusField(field);
  };
  return (
    <div className="admin-search" role="search">
      <label htmlFor={`${id}-q`} className="visually-hidden">
        Szukaj tekstu w całej stronie
      </label>
      <input
        id={`${id}-q`}
        type="search"
        placeholder="Szukaj tekstu na stronie…"
        value={query}
        autoComplete="off"
        aria-describedby={`${id}-count`}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => e.key === "Escape" && setQuery("")}
      />
      <p id={`${id}-count`} className="visually-hidden" aria-live="polite">
        {query.trim().length >= 2 ? `Znaleziono: ${found.length}` : ""}
      </p>
      {query.trim().length >= 2 && (
        <ul className="admin-search-results">
          {found.map((entry) => (
            <li key={`${entry.field} ${entry.where}`}>
              <button type="button" onClick={() => open(entry.route, entry.field)}>
                <span className="admin-search-where">{entry.where}</span>
                <span className="admin-search-text">{entry.snippet}</span>
              </button>
            </li>
          ))}
          {found.length === 0 && <li className="muted">{rest ? "Nic nie znaleziono." : "Szukanie…"}</li>}
        </ul>
      )}
    </div>
  );
}
