// The admin panel 'Panel Administracyjny': rendered on the client only; the
// prerendered HTML is its loading state. Beside the sections of each page it edits the page's
// settings, previews unsaved changes, keeps drafts on the server, creates, deletes and
// restores articles, and has views for the price list, the practice's facts and pictures.
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import {
  api,
  isApiError,
  openPreview,
  SIGNED_OUT,
  type DeletedView,
  type Editable,
  type Picture,
  type Section,
  type ServerDraft,
  type Settings,
  team,
} from "../admin/api";
import { GitStatusBanner } from "../admin/GitStatus";
import { toTyped } from "../admin/dates";
import { dropDraft, loadDraft, sameSections, sameSettings, saveDraft, type Draft } from "../admin/drafts";
import Conflict from "../admin/Conflict";
import Editor from "../admin/Editor";
import FactsForm from "../admin/FactsForm";
import FieldsForm from "../admin/FieldsForm";
import GitAccess from "../admin/GitAccess";
import History from "../admin/History";
import Inbox from "../admin/Inbox";
import LaunchChecklist from "../admin/LaunchChecklist";
import NewArticle from "../admin/NewArticle";
import PageTabs, { PANEL_ID, tabId } from "../admin/PageTabs";
import { ImagePicker, Pictures } from "../admin/Pictures";
import Security, { ReauthDialog, ResetForm, SecondFactorForm } from "../admin/Security";
import SystemStatus, { SystemAlertsBanner } from "../admin/SystemStatus";
import { signInWithPasskey } from "../admin/account";
import PricesForm from "../admin/PricesForm";
import Modal from "../admin/Modal";
import { listed, shortName } from "../admin/names";
import type { Place } from "../admin/problems";
import SaveMessage from "../admin/SaveMessage";
import {
  SAVED,
  SAVE_FAILED,
  SESSION_EXPIRED,
  WAITING,
  refusal,
  savedAt,
  unreached,
  untilReached,
  watchPublishing,
  type Outcome,
} from "../admin/saving";
import SettingsForm from "../admin/SettingsForm";
import Statistics from "../admin/stats/Statistics";
import Team from "../admin/Team";
import Unfinished from "../admin/Unfinished";
import WordsForm from "../admin/WordsForm";
import { isNarrow, useNarrow } from "../admin/narrow";
import { Toasts, useToasts } from "../toasts";

type Phase = "loading" | "signedOut" | "signedIn";
type View =
  "pages" | "team" | "prices" | "facts" | "words" | "pictures" | "messages" | "stats" | "security" | "git" | "system";

const VIEWS: [View, string][] = [
  ["pages", "Strony"],
  ["team", "Zespół"],
  ["prices", "Cennik"],
  ["facts", "Dane gabinetu"],
  ["words", "Napisy"],
  ["pictures", "Obrazy"],
  ["messages", "Wiadomości"],
  ["stats", "Statystyki"],
  ["security", "Bezpieczeństwo"],
  ["git", "Dostęp przez git"],
  ["system", "Stan systemu"],
];

/** What the editor holds for one page: its sections and its settings. */
interface Edit {
  sections: Section[];
  settings: Settings;
}

const LOGIN_FAILED = { title: "Błąd logowania", text: "Nieprawidłowy email lub hasło." };
const NO_ACCESS = { title: "Brak dostępu", text: "Nie masz uprawnień do wyświetlenia tej strony." };
const LOAD_FAILED = { title: "Błąd", text: "Nie udało się pobrać stron." };
const LEAVE = "Masz niezapisane zmiany na tej stronie. Przejść mimo to? Szkic zostanie zachowany w tej przeglądarce.";
const LEAVE_FORM =
  "Masz niezapisane zmiany w tym formularzu. Przejść mimo to? Szkic zostanie zachowany w tej przeglądarce i zaproponowany przy powrocie.";

function formatTime(ms: number): string {
  return new Date(ms).toLocaleString("pl-PL", { dateStyle: "long", timeStyle: "short" });
}

function LoginForm({
  onSignedIn,
  toast,
  notice = "",
}: {
  onSignedIn: () => void;
  toast: ReturnType<typeof useToasts>["show"];
  /** Why the panel asks to sign in again (the session ended), said above the form. */
  notice?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<"password" | "code" | "reset">("password");
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    try {
      const answer = await api.login(String(data.get("email") ?? ""), String(data.get("password") ?? ""));
      if ("secondFactor" in answer && answer.secondFactor) setStep("code");
      else onSignedIn();
    } catch (e) {
      if (isApiError(e) && e.status === 403) toast("error", NO_ACCESS);
      else if (isApiError(e) && e.status === 429) toast("error", { title: LOGIN_FAILED.title, text: e.error });
      else toast("error", LOGIN_FAILED);
    } finally {
      setBusy(false);
    }
  };
  const passkey = async () => {
    setBusy(true);
    try {
      await signInWithPasskey();
      onSignedIn();
    } catch (e) {
      const text =
        isApiError(e) && e.error ? e.error : e instanceof Error && e.name !== "NotAllowedError" ? e.message : "";
      toast("error", { title: LOGIN_FAILED.title, text: text || "Nie potwierdzono klucza dostępu." });
    } finally {
      setBusy(false);
    }
  };
  if (step === "code") return <SecondFactorForm onSignedIn={onSignedIn} onExpired={() => setStep("password")} />;
  if (step === "reset") {
    return (
      <ResetForm
        onDone={() => {
          toast("success", { title: "Sukces", text: "Hasło zmienione. Zaloguj się nowym hasłem." });
          setStep("password");
        }}
        onCancel={() => setStep("password")}
      />
    );
  }
  return (
    <form className="admin-login" onSubmit={submit}>
      {notice && (
        <p className="form-notice" role="alert">
          {notice}
        </p>
      )}
      <div className="field">
        <label htmlFor="admin-email">E-mail</label>
        <input id="admin-email" name="email" type="email" autoComplete="username" required />
      </div>
      <div className="field">
        <label htmlFor="admin-password">Hasło</label>
        <input id="admin-password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <button className="btn btn-primary" type="submit" disabled={busy}>
        {busy ? "Logowanie…" : "Zaloguj się"}
      </button>
      <button type="button" className="btn btn-secondary" onClick={passkey} disabled={busy}>
        Użyj klucza dostępu
      </button>
      <button type="button" className="link-button" onClick={() => setStep("reset")}>
        Nie pamiętasz hasła?
      </button>
    </form>
  );
}

function statusText(page: Editable): string | null {
  switch (page.status) {
    case "published":
      return "Opublikowany";
    case "scheduled":
      return `Zaplanowany: ukaże się ${toTyped(page.settings.date ?? "")} (czas polski)`;
    case "unpublished":
      return "Nieopublikowany (niewidoczny na stronie)";
    default:
      return null;
  }
}

function sameEdit(edit: Edit, page: Editable): boolean {
  return sameSections(edit.sections, page.content.sections) && sameSettings(edit.settings, page.settings);
}

function Deleted({ list, onRestore }: { list: DeletedView[]; onRestore: (article: DeletedView) => void }) {
  if (list.length === 0) return null;
  return (
    <details className="deleted">
      <summary>Usunięte artykuły ({list.length})</summary>
      <ul>
        {list.map((d) => (
          <li key={d.id}>
            <span>
              {d.title || d.id} <span className="muted">· usunięty {formatTime(d.deletedAt * 1000)}</span>
            </span>
            <button type="button" className="btn btn-secondary btn-small" onClick={() => onRestore(d)}>
              Przywróć<span className="visually-hidden"> artykuł {d.title || d.id}</span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}

export default function AdminPanel() {
  const [phase, setPhase] = useState<Phase>("loading");
  const [pages, setPages] = useState<Editable[]>([]);
  const [selected, setSelected] = useState("");
  const [edits, setEdits] = useState<Record<string, Edit>>({});
  const [offered, setOffered] = useState<Record<string, Draft>>({});
  const [serverDrafts, setServerDrafts] = useState<Record<string, ServerDraft>>({});
  const [deleted, setDeleted] = useState<DeletedView[]>([]);
  const [pictures, setPictures] = useState<Picture[]>([]);
  // The team's names, the default author first: who can sign an article.
  const [authors, setAuthors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const [creating, setCreating] = useState(false);
  // The section a picture goes into, and how its writing surface puts it at the cursor (the visual
  // view); without that, at the end of the section's text.
  const [insertInto, setInsertInto] = useState<{
    index: number;
    insert?: ((markdown: string) => void) | undefined;
  } | null>(null);
  const [view, setView] = useState<View>("pages");
  // 'Cennik' or 'Dane gabinetu' has unsaved changes.
  const [formDirty, setFormDirty] = useState(false);
  const [expired, setExpired] = useState(false);
  const [notice, setNotice] = useState("");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [problem, setProblem] = useState<Place | null>(null);
  // The page as saved meanwhile by someone else, when a save was refused for it.
  const [conflict, setConflict] = useState<Editable | null>(null);
  const { toasts, show: toast, dismiss } = useToasts();
  // On a phone the editor comes first and the list of pages after it.
  const narrow = useNarrow();

  const loadExtras = useCallback(async () => {
    const [drafts, gone, images, members] = await Promise.allSettled([
      api.drafts(),
      api.deleted(),
      api.images(),
      team.list(),
    ]);
    if (drafts.status === "fulfilled") setServerDrafts(Object.fromEntries(drafts.value.map((d) => [d.docId, d])));
    if (gone.status === "fulfilled") setDeleted(gone.value);
    if (images.status === "fulfilled") setPictures(images.value);
    if (members.status === "fulfilled") {
      // The default author (site.yaml's default_author) first: the one proposed for a new article.
      const team = [...members.value].sort((a, b) => Number(b.defaultAuthor) - Number(a.defaultAuthor));
      setAuthors(team.map((m) => m.profile.name));
    }
  }, []);

  const loadPages = useCallback(async () => {
    try {
      const list = await api.pages();
      setPages(list);
      // The panel opens on the home page.
      const home = list.find((p) => p.route === "/") ?? list[0];
      setSelected((current) => (list.some((p) => p.id === current) ? current : (home?.id ?? "")));
      const drafts: Record<string, Draft> = {};
      for (const page of list) {
        const draft = loadDraft(page.id);
        if (
          draft &&
          !(sameSections(draft.sections, page.content.sections) && sameSettings(draft.settings, page.settings))
        )
          drafts[page.id] = draft;
      }
      setOffered(drafts);
      void loadExtras();
    } catch (e) {
      if (isApiError(e) && e.status === 401) setPhase("signedOut");
      else toast("error", LOAD_FAILED);
    }
  }, [toast, loadExtras]);

  const signedIn = useCallback(() => {
    setNotice("");
    setPhase("signedIn");
    void loadPages();
  }, [loadPages]);

  useEffect(() => {
    api.session().then(
      (s) => (s.email ? signedIn() : setPhase("signedOut")),
      () => setPhase("signedOut"),
    );
  }, [signedIn]);

  const dirty = useMemo(() => new Set(Object.keys(edits)), [edits]);
  const unsaved = dirty.size > 0 || formDirty;
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [unsaved]);

  // A save refused for an expired session asks to sign in again here, over the kept edit.
  useEffect(() => {
    const ask = () => setExpired(true);
    window.addEventListener(SESSION_EXPIRED, ask);
    return () => window.removeEventListener(SESSION_EXPIRED, ask);
  }, []);

  // The session ended (idle, or signed out from another device) while the panel was open:
  // with unsaved edits, sign in again over them (the inbox closed); otherwise the panel is
  // cleared and the sign-in says why.
  const unsavedNow = useRef(unsaved);
  unsavedNow.current = unsaved;
  useEffect(() => {
    const ended = (event: Event) => {
      const text = (event as CustomEvent<string>).detail || "Sesja wygasła. Zaloguj się ponownie.";
      setNotice(text);
      if (unsavedNow.current) {
        setView((v) => (v === "messages" || v === "security" ? "pages" : v));
        setExpired(true);
      } else {
        setPhase("signedOut");
      }
    };
    window.addEventListener(SIGNED_OUT, ended);
    return () => window.removeEventListener(SIGNED_OUT, ended);
  }, []);

  const page = pages.find((p) => p.id === selected);
  const edit: Edit | null = page
    ? (edits[page.id] ?? { sections: page.content.sections, settings: page.settings })
    : null;

  const change = (next: Edit) => {
    if (!page) return;
    setEdits((all) => {
      const copy = { ...all };
      if (sameEdit(next, page)) {
        delete copy[page.id];
        dropDraft(page.id);
      } else {
        copy[page.id] = next;
        saveDraft(page.id, { ...next, version: page.version, at: Date.now() });
      }
      return copy;
    });
  };

  const select = (id: string) => {
    if (id === selected) return;
    if (page && dirty.has(page.id) && !window.confirm(LEAVE)) return;
    setSelected(id);
    setShowHistory(false);
    // On a phone the editor is below the list: show it, or a tap seems to do nothing.
    if (isNarrow()) {
      requestAnimationFrame(() => document.getElementById(PANEL_ID)?.scrollIntoView({ block: "start" }));
    }
    setOutcome(null);
    setProblem(null);
    setConflict(null);
  };

  const takeTheirs = (theirs: Editable) => {
    forget(theirs.id);
    setPages((all) => all.map((p) => (p.id === theirs.id ? theirs : p)));
    setConflict(null);
    setOutcome(null);
    toast("success", { title: "Sukces", text: "W edytorze jest teraz wersja zapisana w międzyczasie." });
  };

  const open = (next: View) => {
    if (next === view) return;
    if (formDirty && !window.confirm(LEAVE_FORM)) return;
    setView(next);
  };

  const forget = (id: string) => {
    setEdits((all) => {
      const copy = { ...all };
      delete copy[id];
      return copy;
    });
    dropDraft(id);
  };

  // The edits and the page shown as they are now: a save sent again once the server answers
  // sends the newest text, and stops when another page is opened.
  const editsNow = useRef(edits);
  editsNow.current = edits;
  const selectedNow = useRef(selected);
  selectedNow.current = selected;

  /**
   * Saves the edit over `version`: the page's own, or the one saved meanwhile (a conflict).
   * While the server cannot be reached, the save bar says so (the text is kept in this
   * browser) and the save is sent again by itself until the server answers.
   */
  const save = async (version = page?.version) => {
    if (!page || !edit || version === undefined) return;
    const id = page.id;
    const latest = () => editsNow.current[id] ?? edit;
    let sent = latest();
    setSaving(true);
    try {
      const result = await untilReached(
        () => {
          sent = latest();
          return api.save(id, sent.sections, sent.settings, version);
        },
        () => setOutcome(WAITING),
        () => selectedNow.current !== id,
      );
      // The server answers with the document as saved: no need to load every other one.
      const saved = result.page;
      setPages((all) => all.map((p) => (p.id === id && saved ? saved : p)));
      // What was typed while the save waited for the server stays, to be saved next.
      const now = editsNow.current[id];
      if (now === undefined || now === sent) forget(id);
      setServerDrafts(({ [id]: _, ...rest }) => rest);
      toast("success", SAVED);
      setOutcome(savedAt(saved, result.published));
      setProblem(null);
      setConflict(null);
      if (result.warning) toast("error", { title: "Uwaga", text: result.warning });
      void watchPublishing(toast, result.publishing);
    } catch (e) {
      // The edit stays in the editor and as a draft.
      saveDraft(id, { ...latest(), version: page.version, at: Date.now() });
      // Another page was opened while the server was away: this one's text waits as its draft.
      if (unreached(e)) return;
      const message = refusal(e);
      if (isApiError(e) && e.status === 401) {
        // The sign-in dialog says why, once; the save bar adds nothing to it.
        setOutcome(null);
        return;
      }
      toast("error", message);
      setOutcome({ ok: false, text: message.text, place: message.place ?? null });
      setProblem(message.place?.section !== undefined ? message.place : null);
      if (isApiError(e) && e.status === 409) {
        const fresh = await api.pages().catch(() => [] as Editable[]);
        setConflict(fresh.find((p) => p.id === id) ?? null);
      }
    } finally {
      setSaving(false);
    }
  };

  const saveOnServer = async () => {
    if (!page || !edit) return;
    try {
      const draft = await api.putDraft(page.id, edit.sections, edit.settings, page.version);
      setServerDrafts((all) => ({ ...all, [page.id]: draft }));
      toast("success", { title: "Sukces", text: "Szkic zapisano na serwerze. Strona na razie się nie zmieniła." });
    } catch (e) {
      toast("error", isApiError(e) && e.error ? { title: "Błąd", text: e.error } : SAVE_FAILED);
    }
  };

  const removeArticle = async () => {
    if (!page) return;
    if (!window.confirm(`Usunąć artykuł „${page.title}”? Zniknie ze strony; możesz go przywrócić z listy usuniętych.`))
      return;
    try {
      await api.remove(page.id, page.version);
      forget(page.id);
      setSelected("");
      await loadPages();
      toast("success", {
        title: "Sukces",
        text: "Artykuł usunięty. Możesz go przywrócić z listy „Usunięte artykuły”.",
      });
    } catch (e) {
      toast("error", isApiError(e) && e.error ? { title: "Błąd", text: e.error } : SAVE_FAILED);
    }
  };

  const undelete = async (article: DeletedView) => {
    try {
      await api.undelete(article.id);
      await loadPages();
      setSelected(article.id);
      toast("success", { title: "Sukces", text: `Przywrócono artykuł „${article.title}”.` });
    } catch (e) {
      toast("error", isApiError(e) && e.error ? { title: "Błąd", text: e.error } : SAVE_FAILED);
    }
  };

  const created = async (id: string) => {
    setCreating(false);
    toast("success", { title: "Sukces", text: "Utworzono artykuł. Uzupełnij go, zaznacz „Opublikowany” i zapisz." });
    await loadPages();
    setSelected(id);
    setView("pages");
  };

  const insertImage = (markdown: string) => {
    if (!edit || insertInto === null) return;
    if (insertInto.insert) {
      insertInto.insert(markdown);
      setInsertInto(null);
      return;
    }
    const sections = edit.sections.map((s, i) =>
      i === insertInto.index
        ? { ...s, content: s.content.trimEnd() ? `${s.content.trimEnd()}\n\n${markdown}` : markdown }
        : s,
    );
    change({ ...edit, sections });
    setInsertInto(null);
  };

  const restoreDraft = (id: string, draft: Draft) => {
    const target = pages.find((p) => p.id === id);
    if (!target) return;
    setEdits((all) => ({ ...all, [id]: { sections: draft.sections, settings: draft.settings ?? target.settings } }));
    setOffered(({ [id]: _, ...rest }) => rest);
  };
  const discardDraft = (id: string) => {
    dropDraft(id);
    setOffered(({ [id]: _, ...rest }) => rest);
  };
  const restoreServerDraft = (id: string, draft: ServerDraft) => {
    const target = pages.find((p) => p.id === id);
    if (!target) return;
    const next = { sections: draft.body.content.sections, settings: draft.body.settings ?? target.settings };
    setEdits((all) => ({ ...all, [id]: next }));
    saveDraft(id, { ...next, version: target.version, at: Date.now() });
  };
  const discardServerDraft = async (id: string) => {
    try {
      await api.dropDraft(id);
    } catch {
      // Already gone: nothing to discard.
    }
    setServerDrafts(({ [id]: _, ...rest }) => rest);
  };

  const logout = async () => {
    if (unsaved && !window.confirm(LEAVE)) return;
    await api.logout().catch(() => undefined);
    window.location.assign("/");
  };

  if (phase === "loading") {
    return (
      <div className="admin-panel">
        <p role="status">Ładowanie panelu…</p>
      </div>
    );
  }
  if (phase === "signedOut") {
    return (
      <div className="admin-panel">
        <LoginForm onSignedIn={signedIn} toast={toast} notice={notice} />
        <Toasts toasts={toasts} dismiss={dismiss} />
      </div>
    );
  }
  // The pages 'Link' offers: every document with an address, by the name the tabs use.
  const links = pages.flatMap((p) => (p.route ? [{ name: shortName(p), route: p.route }] : []));
  const draft = page ? offered[page.id] : undefined;
  const serverDraft = page ? serverDrafts[page.id] : undefined;
  const status = page ? statusText(page) : null;
  // Pages with a draft kept in this browser or on the server (not the edit being typed: the list
  // would grow above the text as she writes).
  const unfinished = new Set([...Object.keys(offered), ...Object.keys(serverDrafts)]);
  const side = (
    <div className="admin-side">
      <button type="button" className="btn btn-primary btn-block" onClick={() => setCreating(true)}>
        Nowy artykuł
      </button>
      <PageTabs pages={pages.filter(listed)} selected={selected} dirty={dirty} onSelect={select} />
      <Deleted list={deleted} onRestore={undelete} />
    </div>
  );
  return (
    <div className="admin-panel admin-signed-in">
      <div className="admin-bar">
        <nav className="admin-views" aria-label="Części panelu">
          {VIEWS.map(([key, label]) => (
            <button
              key={key}
              type="button"
              className="btn btn-secondary"
              aria-pressed={view === key}
              onClick={() => open(key)}
            >
              {label}
            </button>
          ))}
        </nav>
        <button type="button" className="btn btn-secondary" onClick={logout}>
          Wyloguj się
        </button>
      </div>
      <GitStatusBanner toast={toast} onChanged={() => void loadPages()} />
      {view !== "system" && <SystemAlertsBanner onOpen={() => open("system")} />}
      {view === "system" && <LaunchChecklist always />}
      {view === "system" && <SystemStatus />}
      {view === "messages" && <Inbox toast={toast} />}
      {view === "stats" && <Statistics />}
      {view === "security" && <Security toast={toast} />}
      {view === "git" && <GitAccess toast={toast} />}
      <ReauthDialog />
      {view === "prices" && (
        <PricesForm
          toast={toast}
          onDirty={setFormDirty}
          names={Object.fromEntries(pages.map((p) => [p.id, shortName(p)]))}
        />
      )}
      {view === "facts" && <FactsForm toast={toast} onDirty={setFormDirty} />}
      {view === "words" && <WordsForm toast={toast} onDirty={setFormDirty} />}
      {view === "team" && <Team pictures={pictures} toast={toast} onDirty={setFormDirty} />}
      {view === "pictures" && (
        <Pictures
          pictures={pictures}
          toast={toast}
          onUploaded={() => void loadExtras()}
          onDeleted={() => void loadExtras()}
        />
      )}
      {view === "pages" && <LaunchChecklist onOpenFacts={() => open("facts")} />}
      {view === "pages" && (
        <Unfinished pages={pages.filter((p) => unfinished.has(p.id))} selected={selected} onSelect={select} />
      )}
      <div className="admin-layout" hidden={view !== "pages"}>
        {!narrow && side}
        {page && edit && (
          <section id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(page.id)} className="admin-editor" tabIndex={0}>
            <div className="admin-editor-head">
              <h2>{shortName(page)}</h2>
              {shortName(page) !== page.title && (
                <p className="admin-editor-title">
                  <span className="muted">Tytuł w wyszukiwarce:</span> {page.title}
                </p>
              )}
              {narrow && (
                <a className="admin-jump" href="#admin-filter">
                  Wybierz inną stronę
                </a>
              )}
              {status && <p className={`status status-${page.status ?? ""}`}>{status}</p>}
              {page.route && page.status !== "unpublished" && page.status !== "scheduled" && (
                <a href={page.route} target="_blank" rel="noopener">
                  Zobacz stronę
                </a>
              )}
              <button
                type="button"
                className="btn btn-secondary btn-small"
                onClick={() => setShowHistory((s) => !s)}
                aria-expanded={showHistory}
              >
                Historia zmian
              </button>
            </div>
            {draft && (
              <div className="form-notice" role="status">
                <p>
                  Masz niezapisany szkic tej strony z {formatTime(draft.at)}.
                  {draft.version !== page.version && " Strona zmieniła się od tego czasu."}
                </p>
                <button
                  type="button"
                  className="btn btn-primary btn-small"
                  onClick={() => restoreDraft(page.id, draft)}
                >
                  Przywróć szkic
                </button>{" "}
                <button type="button" className="btn btn-secondary btn-small" onClick={() => discardDraft(page.id)}>
                  Odrzuć szkic
                </button>
              </div>
            )}
            {serverDraft && (
              <div className="form-notice" role="status">
                <p>
                  Na serwerze jest szkic tej strony z {formatTime(serverDraft.savedAt * 1000)} ({serverDraft.author}).
                  {serverDraft.version !== page.version && " Strona zmieniła się od tego czasu."}
                </p>
                <button
                  type="button"
                  className="btn btn-primary btn-small"
                  onClick={() => restoreServerDraft(page.id, serverDraft)}
                >
                  Wczytaj szkic z serwera
                </button>{" "}
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  onClick={() => void discardServerDraft(page.id)}
                >
                  Odrzuć szkic z serwera
                </button>
              </div>
            )}
            {showHistory && (
              <History
                doc={page.id}
                version={page.version}
                previewable
                onRestored={() => {
                  forget(page.id);
                  return loadPages();
                }}
                toast={toast}
              />
            )}
            {conflict && conflict.id === page.id && (
              <Conflict
                mine={edit.sections}
                theirs={conflict.content.sections}
                busy={saving}
                onKeepMine={() => void save(conflict.version)}
                onTakeTheirs={() => takeTheirs(conflict)}
              />
            )}
            <FieldsForm
              id={page.id}
              fields={page.fields}
              settings={edit.settings}
              onChange={(settings) => change({ ...edit, settings })}
              problem={outcome && !outcome.ok ? (outcome.place ?? null) : null}
            />
            <SettingsForm
              key={page.id}
              open={page.status === "unpublished"}
              id={page.id}
              kind={page.kind}
              settings={edit.settings}
              pictures={pictures}
              authors={authors}
              onChange={(settings) => change({ ...edit, settings })}
            />
            <Editor
              sections={edit.sections}
              onChange={(sections) => change({ ...edit, sections })}
              onSave={() => void save()}
              saving={saving}
              dirty={dirty.has(page.id)}
              onInsertImage={pictures.length > 0 ? (index, insert) => setInsertInto({ index, insert }) : undefined}
              problem={problem}
              pages={links}
              actions={
                <>
                  <button
                    type="button"
                    className="btn btn-secondary"
                    onClick={() => openPreview(page.id, edit.sections, edit.settings)}
                  >
                    Podgląd<span className="visually-hidden"> (otwiera się w nowej karcie)</span>
                  </button>
                  <button type="button" className="btn btn-secondary" onClick={saveOnServer}>
                    Zapisz jako szkic
                  </button>
                  {page.kind === "article" && (
                    <button type="button" className="btn btn-secondary btn-danger" onClick={removeArticle}>
                      Usuń artykuł
                    </button>
                  )}
                </>
              }
              message={<SaveMessage outcome={outcome} />}
            />
          </section>
        )}
        {narrow && side}
      </div>
      {creating && <NewArticle authors={authors} onCreated={created} onClose={() => setCreating(false)} />}
      {insertInto !== null && (
        <ImagePicker pictures={pictures} onPick={insertImage} onClose={() => setInsertInto(null)} />
      )}
      {expired && (
        <Modal title="Zaloguj się ponownie" onClose={() => setExpired(false)}>
          <div className="admin-dialog-body">
            <p>{notice || "Sesja wygasła."} Twoje zmiany są zachowane: po zalogowaniu zapisz je jeszcze raz.</p>
          </div>
          <LoginForm
            onSignedIn={() => {
              setNotice("");
              setExpired(false);
              toast("success", { title: "Zalogowano", text: "Zalogowano ponownie. Możesz zapisać zmiany." });
            }}
            toast={toast}
          />
        </Modal>
      )}
      <Toasts toasts={toasts} dismiss={dismiss} />
    </div>
  );
}
