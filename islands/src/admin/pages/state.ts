// What 'Strony' holds, changed only by `reduce`: the documents as saved, the edit of each one
// that differs from it, the drafts offered back (this browser's and the server's), the deleted
// articles, the site's pictures and the team's names, and how the last save of the open page
// ended. Pure: the panel's tests run it without a browser (islands/test/panel.test.mjs).
import type { DeletedView, Editable, Picture, Section, ServerDraft, Settings } from "../api";
import { sameSections, sameSettings, type Draft } from "../drafts";
import type { Place } from "../problems";
import type { Outcome } from "../saving";

/** What the editor holds for one page: its sections and its settings. */
export interface Edit {
  sections: Section[];
  settings: Settings;
}

export interface PagesState {
  loaded: boolean;
  pages: Editable[];
  edits: Record<string, Edit>;
  /** Drafts kept in this browser that differ from the page, offered back. */
  offered: Record<string, Draft>;
  serverDrafts: Record<string, ServerDraft>;
  deleted: DeletedView[];
  pictures: Picture[];
  /** The team's names, the default author first: who can sign an article. */
  authors: string[];
  /** The site's own drawings (its SVG pictures that are no therapist's photo): an article's picture when she has none. */
  drawings: string[];
  /** The page open in the editor: a save waiting for the server stops when another is opened. */
  open: string | null;
  saving: boolean;
  outcome: Outcome | null;
  /** The section a refused save named. */
  problem: Place | null;
  /** The page as saved meanwhile by someone else, when a save was refused for it. */
  conflict: Editable | null;
  showHistory: boolean;
}

export const EMPTY: PagesState = {
  loaded: false,
  pages: [],
  edits: {},
  offered: {},
  serverDrafts: {},
  deleted: [],
  pictures: [],
  authors: [],
  drawings: [],
  open: null,
  saving: false,
  outcome: null,
  problem: null,
  conflict: null,
  showHistory: false,
};

export type Action =
  | {
      type: "loaded";
      pages: Editable[];
      /** Kept in this browser. */
      drafts: Record<string, Draft>;
      /** Kept on the server; absent when they could not be had. */
      serverDrafts?: ServerDraft[];
    }
  | {
      type: "extras";
      deleted?: DeletedView[];
      pictures?: Picture[];
      authors?: string[];
      drawings?: string[];
    }
  | { type: "edited"; id: string; edit: Edit }
  | { type: "forgot"; id: string }
  | { type: "opened"; id: string | null }
  | { type: "saving" }
  /** The save waits for the server, which cannot be reached: `outcome` says so. */
  | { type: "waiting"; outcome: Outcome }
  /** The save ended with nothing to say beside it (another page opened, or the session ended). */
  | { type: "stopped" }
  /** Saved; `kept` is what she typed while the save waited, to be saved next. */
  | { type: "saved"; page: Editable; outcome: Outcome; kept?: Edit }
  | { type: "refused"; outcome: Outcome; conflict?: Editable | null }
  | { type: "tookTheirs"; page: Editable }
  | { type: "serverDraft"; id: string; draft: ServerDraft | null }
  | { type: "draftTaken"; id: string; edit: Edit }
  | { type: "draftDropped"; id: string }
  | { type: "history"; open: boolean }
  | { type: "pictures"; pictures: Picture[] };

/** The page's saved sections and settings. */
export const saved = (page: Editable): Edit => ({ sections: page.content.sections, settings: page.settings });

export function sameEdit(edit: Edit, page: Editable): boolean {
  return sameSections(edit.sections, page.content.sections) && sameSettings(edit.settings, page.settings);
}

/** The drafts of this browser worth offering: those that differ from their page. */
export function offeredDrafts(pages: Editable[], drafts: Record<string, Draft>): Record<string, Draft> {
  const out: Record<string, Draft> = {};
  for (const page of pages) {
    const draft = drafts[page.id];
    if (draft && !(sameSections(draft.sections, page.content.sections) && sameSettings(draft.settings, page.settings)))
      out[page.id] = draft;
  }
  return out;
}

/** The page a route opens: the one it names, or the home page. */
export function openPage<P extends { id: string; route: string | null }>(
  pages: P[],
  doc: string | null,
): P | undefined {
  return pages.find((p) => p.id === doc) ?? pages.find((p) => p.route === "/") ?? pages[0];
}

function without<T>(all: Record<string, T>, id: string): Record<string, T> {
  if (!(id in all)) return all;
  const { [id]: _, ...rest } = all;
  return rest;
}

const fresh = { outcome: null, problem: null, conflict: null };

export function reduce(state: PagesState, action: Action): PagesState {
  switch (action.type) {
    case "loaded":
      return {
        ...state,
        loaded: true,
        pages: action.pages,
        offered: offeredDrafts(action.pages, action.drafts),
        ...(action.serverDrafts
          ? { serverDrafts: Object.fromEntries(action.serverDrafts.map((d) => [d.docId, d])) }
          : {}),
      };
    case "extras":
      return {
        ...state,
        ...(action.deleted ? { deleted: action.deleted } : {}),
        ...(action.pictures ? { pictures: action.pictures } : {}),
        ...(action.authors ? { authors: action.authors } : {}),
        ...(action.drawings ? { drawings: action.drawings } : {}),
      };
    case "pictures":
      return { ...state, pictures: action.pictures };
    case "edited": {
      const page = state.pages.find((p) => p.id === action.id);
      if (!page) return state;
      // An edit typed back to the saved text is no edit.
      const edits = sameEdit(action.edit, page)
        ? without(state.edits, action.id)
        : { ...state.edits, [action.id]: action.edit };
      return { ...state, edits };
    }
    case "forgot":
      return { ...state, edits: without(state.edits, action.id) };
    case "opened":
      return { ...state, ...fresh, open: action.id, showHistory: false };
    case "saving":
      return { ...state, saving: true };
    case "waiting":
      return { ...state, outcome: action.outcome };
    case "stopped":
      return { ...state, saving: false, outcome: null };
    case "saved":
      return {
        ...state,
        ...fresh,
        outcome: action.outcome,
        saving: false,
        pages: state.pages.map((p) => (p.id === action.page.id ? action.page : p)),
        edits: action.kept ? { ...state.edits, [action.page.id]: action.kept } : without(state.edits, action.page.id),
        serverDrafts: without(state.serverDrafts, action.page.id),
        offered: without(state.offered, action.page.id),
      };
    case "refused": {
      const place = action.outcome.place ?? null;
      return {
        ...state,
        saving: false,
        outcome: action.outcome,
        problem: place?.section !== undefined ? place : null,
        conflict: action.conflict ?? null,
      };
    }
    case "tookTheirs":
      return {
        ...state,
        ...fresh,
        pages: state.pages.map((p) => (p.id === action.page.id ? action.page : p)),
        edits: without(state.edits, action.page.id),
      };
    case "serverDraft":
      return {
        ...state,
        serverDrafts: action.draft
          ? { ...state.serverDrafts, [action.id]: action.draft }
          : without(state.serverDrafts, action.id),
      };
    case "draftTaken":
      return {
        ...state,
        edits: { ...state.edits, [action.id]: action.edit },
        offered: without(state.offered, action.id),
      };
    case "draftDropped":
      return { ...state, offered: without(state.offered, action.id) };
    case "history":
      return { ...state, showHistory: action.open };
  }
}
