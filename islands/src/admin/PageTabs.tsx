// One tab per page, labelled with its title (WAI-ARIA tabs, vertical, manual activation),
// with a filter so that 30 and more pages stay easy to reach.
import { useRef, useState, type KeyboardEvent } from "react";
import { KIND_LABEL, type Page } from "./api";

export interface PageTabsProps {
  pages: Page[];
  selected: string;
  dirty: Set<string>;
  onSelect: (slug: string) => void;
}

export const tabId = (slug: string) => `tab-${slug.replace("/", "-")}`;
export const PANEL_ID = "admin-tabpanel";

export default function PageTabs({ pages, selected, dirty, onSelect }: PageTabsProps) {
  const [filter, setFilter] = useState("");
  const list = useRef<HTMLDivElement>(null);
  const shown = pages.filter((p) => p.title.toLowerCase().includes(filter.trim().toLowerCase()));

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
        Szukaj strony
      </label>
      <input
        id="admin-filter"
        type="search"
        placeholder="Szukaj strony…"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <div ref={list} role="tablist" aria-orientation="vertical" aria-label="Strony" onKeyDown={onKeyDown}>
        {shown.map((page) => {
          const active = page.slug === selected;
          return (
            <button
              key={page.slug}
              id={tabId(page.slug)}
              type="button"
              role="tab"
              aria-selected={active}
              aria-controls={PANEL_ID}
              tabIndex={active || (!shown.some((p) => p.slug === selected) && page === shown[0]) ? 0 : -1}
              onClick={() => onSelect(page.slug)}
            >
              <span className="tab-kind">{KIND_LABEL[page.slug.split("/")[0] ?? ""] ?? ""}</span> {page.title}
              {dirty.has(page.slug) && <span aria-label=" (niezapisane zmiany)"> •</span>}
            </button>
          );
        })}
        {shown.length === 0 && <p className="muted">Żadna strona nie pasuje do wyszukiwania.</p>}
      </div>
    </div>
  );
}
