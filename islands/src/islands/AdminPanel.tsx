// The admin panel 'Panel Administracyjny' (SPEC §2, §4, §8): rendered on the client only; the
// prerendered HTML is its loading state.
import { useCallback, useEffect, useMemo, useState, type FormEvent } from "react";
import { api, isApiError, type Page, type Revision, type Section } from "../admin/api";
import { dropDraft, loadDraft, sameSections, saveDraft, type Draft } from "../admin/drafts";
import Editor from "../admin/Editor";
import Inbox from "../admin/Inbox";
import PageTabs, { PANEL_ID, tabId } from "../admin/PageTabs";
import { Toasts, useToasts } from "../toasts";

type Phase = "loading" | "signedOut" | "signedIn";
type View = "pages" | "messages";

const LOGIN_FAILED = { title: "Błąd logowania", text: "Nieprawidłowy email lub hasło." };
const NO_ACCESS = { title: "Brak dostępu", text: "Nie masz uprawnień do wyświetlenia tej strony." };
const LOAD_FAILED = { title: "Błąd", text: "Nie udało się pobrać stron." };
const SAVE_FAILED = { title: "Błąd", text: "Nie udało się zapisać zmian." };
const SAVED = { title: "Sukces", text: "Zmiany zostały zapisane." };
const LEAVE = "Masz niezapisane zmiany na tej stronie. Przejść mimo to? Szkic zostanie zachowany w tej przeglądarce.";

function formatTime(ms: number): string {
  return new Date(ms).toLocaleString("pl-PL", { dateStyle: "long", timeStyle: "short" });
}

function LoginForm({ onSignedIn, toast }: { onSignedIn: () => void; toast: ReturnType<typeof useToasts>["show"] }) {
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    try {
      await api.login(String(data.get("email") ?? ""), String(data.get("password") ?? ""));
      onSignedIn();
    } catch (e) {
      if (isApiError(e) && e.status === 403) toast("error", NO_ACCESS);
      else if (isApiError(e) && e.status === 429) toast("error", { title: LOGIN_FAILED.title, text: e.error });
      else toast("error", LOGIN_FAILED);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="admin-login" onSubmit={submit}>
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
    </form>
  );
}

function History({
  page,
  onRestored,
  toast,
}: {
  page: Page;
  onRestored: () => void;
  toast: ReturnType<typeof useToasts>["show"];
}) {
  const [revisions, setRevisions] = useState<Revision[] | null>(null);
  useEffect(() => {
    api.revisions(page.id).then(setRevisions, () => toast("error", LOAD_FAILED));
  }, [page.id, page.version, toast]);
  const restore = async (revision: Revision) => {
    if (!window.confirm(`Przywrócić wersję z ${formatTime(revision.savedAt * 1000)}?`)) return;
    try {
      await api.restore(page.id, revision.id, page.version);
      dropDraft(page.id);
      toast("success", { title: "Sukces", text: "Przywrócono wybraną wersję." });
      onRestored();
    } catch (e) {
      toast("error", isApiError(e) && e.status === 409 ? { title: "Błąd", text: e.error } : SAVE_FAILED);
    }
  };
  if (revisions === null) return <p className="muted">Ładowanie historii…</p>;
  if (revisions.length === 0) return <p className="muted">Ta strona nie była jeszcze zapisywana w panelu.</p>;
  return (
    <ol className="history">
      {revisions.map((r) => (
        <li key={r.id}>
          <span>
            {formatTime(r.savedAt * 1000)} · {r.author}
          </span>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => restore(r)}>
            Przywróć tę wersję<span className="visually-hidden"> z {formatTime(r.savedAt * 1000)}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}

export default function AdminPanel() {
  const [phase, setPhase] = useState<Phase>("loading");
  const [pages, setPages] = useState<Page[]>([]);
  const [selected, setSelected] = useState("");
  const [edits, setEdits] = useState<Record<string, Section[]>>({});
  const [offered, setOffered] = useState<Record<string, Draft>>({});
  const [saving, setSaving] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const [view, setView] = useState<View>("pages");
  const { toasts, show: toast, dismiss } = useToasts();

  const loadPages = useCallback(async () => {
    try {
      const list = await api.pages();
      setPages(list);
      setSelected((current) => (list.some((p) => p.id === current) ? current : (list[0]?.id ?? "")));
      const drafts: Record<string, Draft> = {};
      for (const page of list) {
        const draft = loadDraft(page.id);
        if (draft && !sameSections(draft.sections, page.content.sections)) drafts[page.id] = draft;
      }
      setOffered(drafts);
    } catch (e) {
      if (isApiError(e) && e.status === 401) setPhase("signedOut");
      else toast("error", LOAD_FAILED);
    }
  }, [toast]);

  const signedIn = useCallback(() => {
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
  useEffect(() => {
    if (dirty.size === 0) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const page = pages.find((p) => p.id === selected);
  const sections = page ? (edits[page.id] ?? page.content.sections) : [];

  const change = (next: Section[]) => {
    if (!page) return;
    setEdits((all) => {
      const copy = { ...all };
      if (sameSections(next, page.content.sections)) {
        delete copy[page.id];
        dropDraft(page.id);
      } else {
        copy[page.id] = next;
        saveDraft(page.id, { sections: next, version: page.version, at: Date.now() });
      }
      return copy;
    });
  };

  const select = (id: string) => {
    if (id === selected) return;
    if (page && dirty.has(page.id) && !window.confirm(LEAVE)) return;
    setSelected(id);
    setShowHistory(false);
  };

  const save = async () => {
    if (!page) return;
    setSaving(true);
    try {
      const result = await api.save(page.id, sections, page.version);
      setPages((all) =>
        all.map((p) => (p.id === page.id ? { ...p, version: result.version, content: { sections } } : p)),
      );
      setEdits((all) => {
        const copy = { ...all };
        delete copy[page.id];
        return copy;
      });
      dropDraft(page.id);
      toast("success", SAVED);
      if (result.warning) toast("error", { title: "Uwaga", text: result.warning });
    } catch (e) {
      // The edit stays in the editor and as a draft.
      saveDraft(page.id, { sections, version: page.version, at: Date.now() });
      if (isApiError(e) && e.status === 401) setPhase("signedOut");
      toast(
        "error",
        isApiError(e) && [409, 422].includes(e.status) && e.error ? { title: "Błąd", text: e.error } : SAVE_FAILED,
      );
    } finally {
      setSaving(false);
    }
  };

  const restoreDraft = (id: string, draft: Draft) => {
    setEdits((all) => ({ ...all, [id]: draft.sections }));
    setOffered(({ [id]: _, ...rest }) => rest);
  };
  const discardDraft = (id: string) => {
    dropDraft(id);
    setOffered(({ [id]: _, ...rest }) => rest);
  };

  const logout = async () => {
    if (dirty.size > 0 && !window.confirm(LEAVE)) return;
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
        <LoginForm onSignedIn={signedIn} toast={toast} />
        <Toasts toasts={toasts} dismiss={dismiss} />
      </div>
    );
  }
  const draft = page ? offered[page.id] : undefined;
  return (
    <div className="admin-panel admin-signed-in">
      <div className="admin-bar">
        <nav className="admin-views" aria-label="Części panelu">
          <button
            type="button"
            className="btn btn-secondary"
            aria-pressed={view === "pages"}
            onClick={() => setView("pages")}
          >
            Strony
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            aria-pressed={view === "messages"}
            onClick={() => setView("messages")}
          >
            Wiadomości
          </button>
        </nav>
        <button type="button" className="btn btn-secondary" onClick={logout}>
          Wyloguj się
        </button>
      </div>
      {view === "messages" && <Inbox toast={toast} />}
      <div className="admin-layout" hidden={view !== "pages"}>
        <PageTabs pages={pages} selected={selected} dirty={dirty} onSelect={select} />
        {page && (
          <section id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(page.id)} className="admin-editor" tabIndex={0}>
            <div className="admin-editor-head">
              <h2>{page.title}</h2>
              {page.route && (
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
            {showHistory && <History page={page} onRestored={loadPages} toast={toast} />}
            <Editor sections={sections} onChange={change} onSave={save} saving={saving} dirty={dirty.has(page.id)} />
          </section>
        )}
      </div>
      <Toasts toasts={toasts} dismiss={dismiss} />
    </div>
  );
}
