// One tab per page, labelled with its title (WAI-ARIA tabs, vertical, manual activation),
// grouped under the headings of their kind ('Strony', 'Usługi', 'Artykuły'), with a search
// by name and through every text of every page (each found text shown under its page's name),
// so that 30 and more pages stay easy to reach. Each group is its own labelled tablist; the
// arrow keys move through all of them.
import { shortName } from "./names";
import { useRef, useState, type KeyboardEvent } from "react";
import type { Editable } from "./api";

export interface PageTabsProps {
  pages: Editable[];
  selected: string;
  dirty: Set<string>;
  onSelect: (id: string) => void;
}

export const tabId = (id: string) => `tab-${id.replace("/", "-")}`;
export const PANEL_ID = "admin-tabpanel";

/** The pages in groups of one kind, in the order the list gives them. */
function groups(pages: Editable[]): Editable[][] {
  const out: Editable[][] = [];
  for (const page of pages) {
    const last = out[out.length - 1];
    if (last?.[0]?.kind === page.kind) last.push(page);
    else out.push([page]);
  }
  return out;
}

/** Every text of a page a visitor reads: its sections and the texts of its settings. */
function texts(page: Editable): string {
  const settings = Object.values(page.settings).filter((v): v is string => typeof v === "string");
  return [...page.content.sections.map((s) => s.content), ...settings].join("\n");
}

/** About 70 characters of `text` around the first place it has `wanted` (lowercase). */
export function snippet(text: string, wanted: string): string {
  const at = text.toLowerCase().indexOf(wanted);
  if (at < 0) return "";
  const start = Math.max(0, at - 30);
  const end = Math.min(text.length, at + wanted.length + 40);
  const part = text.slice(start, end).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${part}${end < text.length ? "…" : ""}`;
}

export default function PageTabs({ pages, selected, dirty, onSelect }: PageTabsProps) {
  const [filter, setFilter] = useState("");
  const list = useRef<HTMLDivElement>(null);
  const wanted = filter.trim().toLowerCase();
  const byName = (p: Editable) => `${shortName(p)} ${p.title}`.toLowerCase().includes(wanted);
  // A page found by its texts (not its name) shows where: the words around the first match.
  const found = (p: Editable) => (wanted.length >= 3 && !byName(p) ? snippet(texts(p), wanted) : "");
  const shown = pages.filter((p) => byName(p) || found(p) !== "");
  const focusable = shown.some((p) => p.id === selected) ? selected : shown[0]?.id;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const tabs = [...(list.current?.querySelectorAll<HTMLButtonElement>("[role=tab]") ?? [])];
    const current = tabs.indexOf(document.activeElement as HTMLButtonElement);
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined || tabs.length === 0) return;
    event.preventDefault();
    tabs[(target + tabs.length) % tabs.length]?.focus();
  };

  return (
    <div className="page-tabs">
      <label className="visually-hidden" htmlFor="admin-filter">
        Szukaj strony po nazwie lub tekście
      </label>
      <input
        id="admin-filter"
        type="search"
        placeholder="Szukaj strony lub tekstu…"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <div ref={list} className="tab-groups" onKeyDown={onKeyDown}>
        {groups(shown).map((items) => {
          const first = items[0];
          if (!first) return null;
          const headingId = `tabs-${first.kind}`;
          return (
            <div key={first.kind} className="tab-group">
              <h2 id={headingId} className="tab-group-title">
                {first.group}
              </h2>
              <div role="tablist" aria-orientation="vertical" aria-labelledby={headingId}>
                {items.map((page) => (
                  <button
                    key={page.id}
                    id={tabId(page.id)}
                    type="button"
                    role="tab"
                    aria-selected={page.id === selected}
                    aria-controls={PANEL_ID}
                    tabIndex={page.id === focusable ? 0 : -1}
                    onClick={() => onSelect(page.id)}
                  >
                    {shortName(page)}
                    {dirty.has(page.id) && <span aria-label=" (niezapisane zmiany)"> •</span>}
                    {found(page) && <span className="tab-snippet">{found(page)}</span>}
                  </button>
                ))}
              </div>
            </div>
          );
        })}
        {shown.length === 0 && <p className="muted">Żadna strona nie pasuje do wyszukiwania.</p>}
      </div>
    </div>
  );
}
