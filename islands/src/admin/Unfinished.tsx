// The first thing on the pages view: the pages with a draft not yet on the site (kept in this
// browser or on the server), each one tap away. Links, not buttons:
// they lead to the editor below, and their names never shadow the panel's own buttons.
import type { MouseEvent } from "react";
import type { Editable } from "./api";
import { shortName } from "./names";
import { PANEL_ID } from "./PageTabs";

export interface UnfinishedProps {
  pages: Editable[];
  selected: string;
  onSelect: (id: string) => void;
}

export default function Unfinished({ pages, selected, onSelect }: UnfinishedProps) {
  if (pages.length === 0) return null;
  const open = (event: MouseEvent<HTMLAnchorElement>, id: string) => {
    event.preventDefault();
    onSelect(id);
  };
  return (
    <section className="unfinished" aria-labelledby="unfinished-title">
      <h2 id="unfinished-title">Niedokończone zmiany</h2>
      <p className="muted">
        Na tych stronach czekają szkice, których jeszcze nie ma na stronie. Otwórz stronę, aby wczytać szkic i go
        zapisać albo odrzucić.
      </p>
      <ul>
        {pages.map((page) => (
          <li key={page.id}>
            <a
              href={`#${PANEL_ID}`}
              aria-current={page.id === selected ? "page" : undefined}
              onClick={(event) => open(event, page.id)}
            >
              {shortName(page)}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
