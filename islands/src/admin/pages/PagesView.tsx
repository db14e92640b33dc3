// 'Strony': the pages with drafts waiting, the list of every page (grouped, searchable) and the
// editor of the one open, whose address is the view's ('#/strony/blog/terapia-cbt'). Beside the
// list, while a step of going live is left, 'Przed publikacją strony'. On a phone the editor
// comes first and the list after it, so a page's first field is on the first screen.
import { useEffect, useState } from "react";
import type { ViewProps } from "../app/views";
import { useStore } from "../app/store";
import { listed, shortName } from "../names";
import NewArticle from "../NewArticle";
import PageTabs, { PANEL_ID } from "../PageTabs";
import ImagePicker from "../ImagePicker";
import LaunchChecklist, { useLaunchList } from "../LaunchChecklist";
import Unfinished from "../Unfinished";
import { isNarrow, useNarrow } from "../narrow";
import Deleted from "./Deleted";
import PageEditor from "./PageEditor";
import { openPage, saved } from "./state";
import { edit, loadPages, pagesStore, undelete } from "./store";

/** Where a picture goes: the section, and how its writing surface puts it at the cursor. */
type Insert = { index: number; insert?: ((markdown: string) => void) | undefined };

export default function PagesView({ toast, route, go }: ViewProps) {
  const state = useStore(pagesStore);
  const narrow = useNarrow();
  const launch = useLaunchList();
  const [creating, setCreating] = useState(false);
  const [insertInto, setInsertInto] = useState<Insert | null>(null);
  const page = openPage(state.pages, route.doc);
  const pageId = page?.id;
  useEffect(() => {
    pagesStore.dispatch({ type: "opened", id: pageId ?? null });
  }, [pageId]);
  // The list of pages waits for the checklist above it too: shown later, it would push the tabs
  // down under a finger (or a click) on its way to one of them.
  if (!state.loaded || launch === undefined) return <p role="status">Ładowanie stron…</p>;

  const select = (id: string) => {
    if (id === page?.id) return;
    go({ view: "pages", doc: id });
    // On a phone the editor is below the list: show it, or a tap seems to do nothing.
    if (isNarrow()) {
      requestAnimationFrame(() => document.getElementById(PANEL_ID)?.scrollIntoView({ block: "start" }));
    }
  };
  const created = async (id: string) => {
    setCreating(false);
    toast("success", {
      title: "Sukces",
      text: "Utworzono szkic artykułu. Gdy będzie gotowy, kliknij „Opublikuj teraz”.",
    });
    await loadPages(toast);
    go({ view: "pages", doc: id });
  };
  const insertImage = (markdown: string) => {
    if (!page || insertInto === null) return;
    setInsertInto(null);
    if (insertInto.insert) return insertInto.insert(markdown);
    const current = state.edits[page.id] ?? saved(page);
    const sections = current.sections.map((s, i) =>
      i === insertInto.index
        ? { ...s, content: s.content.trimEnd() ? `${s.content.trimEnd()}\n\n${markdown}` : markdown }
        : s,
    );
    edit(page, { ...current, sections });
  };
  // The pages 'Link' offers: every document with an address, by the name the tabs use.
  const links = state.pages.flatMap((p) => (p.route ? [{ name: shortName(p), route: p.route }] : []));
  // Pages with a draft kept in this browser or on the server (not the edit being typed: the list
  // would grow above the text as she writes).
  const unfinished = new Set([...Object.keys(state.offered), ...Object.keys(state.serverDrafts)]);
  const dirty = new Set(Object.keys(state.edits));
  const side = (
    <div className="admin-side">
      <button type="button" className="btn btn-primary btn-block" onClick={() => setCreating(true)}>
        Nowy artykuł
      </button>
      <LaunchChecklist list={launch} compact onOpenFacts={() => go({ view: "facts", doc: null })} />
      <PageTabs pages={state.pages.filter(listed)} selected={page?.id ?? ""} dirty={dirty} onSelect={select} />
      <Deleted
        list={state.deleted}
        onRestore={(article) =>
          void undelete(article, toast).then((back) => back && go({ view: "pages", doc: article.id }))
        }
      />
    </div>
  );
  return (
    <>
      <Unfinished pages={state.pages.filter((p) => unfinished.has(p.id))} selected={page?.id ?? ""} onSelect={select} />
      <div className="admin-layout">
        {!narrow && side}
        {page && (
          <PageEditor
            key={page.id}
            page={page}
            state={state}
            toast={toast}
            links={links}
            narrow={narrow}
            onInsertImage={(index, insert) => setInsertInto({ index, insert })}
            onDeleted={() => go({ view: "pages", doc: null })}
          />
        )}
        {narrow && side}
      </div>
      {creating && <NewArticle authors={state.authors} onCreated={created} onClose={() => setCreating(false)} />}
      {insertInto !== null && (
        <ImagePicker pictures={state.pictures} onPick={insertImage} onClose={() => setInsertInto(null)} />
      )}
    </>
  );
}
