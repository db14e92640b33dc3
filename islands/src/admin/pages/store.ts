// The panel's one store of pages (pages/state.ts) and what changes it with the server: loading,
// editing (each edit kept as a draft in this browser), saving, drafts, deleting and restoring
// articles. The views call these; none of them holds a page's state of its own.
import { api, isApiError, team, type DeletedView, type Editable, type Picture, type ServerDraft } from "../api";
import { dropDraft, loadDraft, saveDraft, type Draft } from "../drafts";
import {
  SAVED,
  SAVE_FAILED,
  WAITING,
  refusal,
  savedAt,
  unreached,
  untilReached,
  watchPublishing,
  type Toast,
} from "../saving";
import { createStore } from "../app/store";
import { EMPTY, reduce, sameEdit, type Edit } from "./state";

export const pagesStore = createStore(reduce, EMPTY);
const { dispatch, get } = pagesStore;

const LOAD_FAILED = { title: "Błąd", text: "Nie udało się pobrać stron." };
const failed = (e: unknown) => (isApiError(e) && e.error ? { title: "Błąd", text: e.error } : SAVE_FAILED);

/** The site's own drawings: its SVG pictures that are no therapist's photo. */
export function drawingsOf(pictures: Picture[], photos: Set<string>): string[] {
  return pictures.filter((p) => p.file.endsWith(".svg") && !photos.has(p.file)).map((p) => p.file);
}

/** The pictures, the deleted articles and the team's names: below the tabs or in dialogs, so they may come later. */
export async function loadExtras(): Promise<void> {
  const [deleted, pictures, members] = await Promise.allSettled([api.deleted(), api.images(), team.list()]);
  dispatch({
    type: "extras",
    ...(deleted.status === "fulfilled" ? { deleted: deleted.value } : {}),
    ...(pictures.status === "fulfilled" ? { pictures: pictures.value } : {}),
    // The default author (site.yaml's default_author) first: the one proposed for a new article.
    ...(members.status === "fulfilled"
      ? {
          authors: [...members.value]
            .sort((a, b) => Number(b.defaultAuthor) - Number(a.defaultAuthor))
            .map((m) => m.profile.name),
        }
      : {}),
    ...(pictures.status === "fulfilled" && members.status === "fulfilled"
      ? { drawings: drawingsOf(pictures.value, new Set(members.value.map((m) => m.profile.photo))) }
      : {}),
  });
}

/** Every page, and the drafts of this browser that differ from them; then the rest. */
export async function loadPages(toast: Toast): Promise<void> {
  try {
    // The drafts kept on the server come with the pages: their list stands above the pages'
    // tabs, and shown later it would push them down under a click on its way to one.
    const [pages, serverDrafts] = await Promise.all([api.pages(), api.drafts().catch(() => undefined)]);
    const drafts: Record<string, Draft> = {};
    for (const page of pages) {
      const draft = loadDraft(page.id);
      if (draft) drafts[page.id] = draft;
    }
    dispatch({ type: "loaded", pages, drafts, ...(serverDrafts ? { serverDrafts } : {}) });
    void loadExtras();
  } catch (e) {
    // A lost session is announced by the call itself.
    if (!(isApiError(e) && e.status === 401)) toast("error", LOAD_FAILED);
  }
}

/** A picture just uploaded: in every picker at once, then the list as the server has it. */
export function addPicture(picture: Picture): void {
  const { pictures } = pagesStore.get();
  dispatch({ type: "pictures", pictures: [...pictures.filter((p) => p.file !== picture.file), picture] });
  void reloadPictures();
}

export async function reloadPictures(): Promise<void> {
  const pictures = await api.images().catch(() => null);
  if (pictures) dispatch({ type: "pictures", pictures });
}

/** The page's edit: kept in the store and as a draft in this browser, or dropped when it is the saved text. */
export function edit(page: Editable, next: Edit): void {
  if (sameEdit(next, page)) dropDraft(page.id);
  else saveDraft(page.id, { ...next, version: page.version, at: Date.now() });
  dispatch({ type: "edited", id: page.id, edit: next });
}

export function forget(id: string): void {
  dropDraft(id);
  dispatch({ type: "forgot", id });
}

/**
 * Saves the page's edit over `version`: the page's own, or the one saved meanwhile (a conflict).
 * While the server cannot be reached, the save bar says so (the text is kept in this browser)
 * and the save is sent again by itself until the server answers, with what she typed since;
 * it stops when another page is opened.
 */
export async function save(page: Editable, next: Edit, toast: Toast, version = page.version): Promise<void> {
  const id = page.id;
  // `next` may be more than the typed edit ('Opublikuj teraz'): it is sent until she types again.
  const typed = get().edits[id];
  const latest = () => {
    const now = get().edits[id];
    return now !== undefined && now !== typed ? now : next;
  };
  let sent = next;
  dispatch({ type: "saving" });
  try {
    const result = await untilReached(
      () => {
        sent = latest();
        return api.save(id, sent.sections, sent.settings, version);
      },
      () => dispatch({ type: "waiting", outcome: WAITING }),
      () => get().open !== id,
    );
    // The server answers with the document as saved: no need to load every other one.
    const saved = result.page ?? page;
    dropDraft(id);
    const now = get().edits[id];
    const kept = now !== undefined && now !== typed && now !== sent ? { kept: now } : {};
    dispatch({ type: "saved", page: saved, outcome: savedAt(saved, result.published), ...kept });
    toast("success", SAVED);
    if (result.warning) toast("error", { title: "Uwaga", text: result.warning });
    void watchPublishing(toast, result.publishing);
  } catch (e) {
    // The edit stays in the editor and as a draft.
    saveDraft(id, { ...latest(), version: page.version, at: Date.now() });
    // Another page was opened while the server was away, or the session ended (the sign-in
    // dialog says why, once): nothing more beside the save button.
    if (unreached(e) || (isApiError(e) && e.status === 401)) {
      if (!unreached(e)) refusal(e);
      dispatch({ type: "stopped" });
      return;
    }
    const message = refusal(e);
    toast("error", message);
    const conflict =
      isApiError(e) && e.status === 409
        ? ((await api.pages().catch(() => [] as Editable[])).find((p) => p.id === page.id) ?? null)
        : null;
    dispatch({ type: "refused", outcome: { ok: false, text: message.text, place: message.place ?? null }, conflict });
  }
}

export function takeTheirs(theirs: Editable, toast: Toast): void {
  dropDraft(theirs.id);
  dispatch({ type: "tookTheirs", page: theirs });
  toast("success", { title: "Sukces", text: "W edytorze jest teraz wersja zapisana w międzyczasie." });
}

export async function saveOnServer(page: Editable, next: Edit, toast: Toast): Promise<void> {
  try {
    const draft = await api.putDraft(page.id, next.sections, next.settings, page.version);
    dispatch({ type: "serverDraft", id: page.id, draft });
    toast("success", { title: "Sukces", text: "Szkic zapisano na serwerze. Strona na razie się nie zmieniła." });
  } catch (e) {
    toast("error", failed(e));
  }
}

export function takeDraft(page: Editable, draft: Draft): void {
  dispatch({
    type: "draftTaken",
    id: page.id,
    edit: { sections: draft.sections, settings: draft.settings ?? page.settings },
  });
}

export function dropOffered(id: string): void {
  dropDraft(id);
  dispatch({ type: "draftDropped", id });
}

export function takeServerDraft(page: Editable, draft: ServerDraft): void {
  const next = { sections: draft.body.content.sections, settings: draft.body.settings ?? page.settings };
  saveDraft(page.id, { ...next, version: page.version, at: Date.now() });
  dispatch({ type: "draftTaken", id: page.id, edit: next });
}

export async function dropServerDraft(id: string): Promise<void> {
  await api.dropDraft(id).catch(() => undefined);
  dispatch({ type: "serverDraft", id, draft: null });
}

/** Deletes an article (asked first); `true` when it went. */
export async function removeArticle(page: Editable, toast: Toast): Promise<boolean> {
  const question = `Usunąć artykuł „${page.title}”? Zniknie ze strony; możesz go przywrócić z listy usuniętych.`;
  if (!window.confirm(question)) return false;
  try {
    await api.remove(page.id, page.version);
    forget(page.id);
    await loadPages(toast);
    toast("success", { title: "Sukces", text: "Artykuł usunięty. Możesz go przywrócić z listy „Usunięte artykuły”." });
    return true;
  } catch (e) {
    toast("error", failed(e));
    return false;
  }
}

/** Makes a deleted article again; `true` when it is back. */
export async function undelete(article: DeletedView, toast: Toast): Promise<boolean> {
  try {
    await api.undelete(article.id);
    await loadPages(toast);
    toast("success", { title: "Sukces", text: `Przywrócono artykuł „${article.title}”.` });
    return true;
  } catch (e) {
    toast("error", failed(e));
    return false;
  }
}
