// The content's repository (GIT_REMOTE), as the panel shows it above every view: panel
// changes not yet pushed, every step of the sync that is failing (fetch, apply, push) until
// it works again, files outside content/ waiting for a deploy, an editor's commit that was not published (it does not
// build, it needs a deploy, or it rewrote the branch) with every problem at file:line, and
// documents changed in the repository while the panel saved them, with both texts and one
// click to publish either.
import { useCallback, useEffect, useState } from "react";
import { api, isApiError, request } from "./api";
import type { GitPanel, GitStatus, Refused } from "./generated/api";
import { CHANGES, count } from "./plural";
import { SAVE_FAILED, SAVED, type Toast } from "./saving";

/** How often the panel asks again: an editor's push shows within this. */
const REFRESH_MS = 10_000;

function when(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString("pl-PL", { dateStyle: "medium", timeStyle: "short" });
}

function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
}

/** One version of a document, each paragraph the other version does not have highlighted. */
function Marked({ title, text, other }: { title: string; text: string; other: string }) {
  const theirs = new Set(paragraphs(other));
  return (
    <figure>
      <figcaption>{title}</figcaption>
      <pre>
        {paragraphs(text).map((p, i) => (
          <span key={i}>
            {i > 0 && "\n\n"}
            {theirs.has(p) ? p : <mark>{p}</mark>}
          </span>
        ))}
      </pre>
    </figure>
  );
}

function Failing({ errors }: { errors: GitStatus["errors"] }) {
  return (
    <div className="form-notice form-notice-error" role="alert">
      <p>
        <strong>Synchronizacja z repozytorium nie działa.</strong> Serwer próbuje dalej; komunikat zniknie, gdy się uda.
      </p>
      <ul>
        {errors.map((e) => (
          <li key={e.step}>
            {e.message} ({when(e.at)})
          </li>
        ))}
      </ul>
    </div>
  );
}

function RefusedNotice({ title, refused }: { title: string; refused: Refused }) {
  return (
    <div className="form-notice form-notice-error" role="alert">
      <p>
        <strong>{title}</strong> Commit {refused.commit}
        {refused.author ? ` (${refused.author})` : ""}.
      </p>
      <ul>
        {refused.problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </div>
  );
}

export function GitStatusBanner({ toast, onChanged }: { toast: Toast; onChanged: () => void }) {
  const [status, setStatus] = useState<GitStatus | null>(null);
  const load = useCallback(async () => {
    try {
      const answer = await request<GitPanel>("GET", "/api/git", undefined, { background: true });
      setStatus(answer.status);
    } catch {
      // Signed out or offline: the rest of the panel says so.
    }
  }, []);
  useEffect(() => {
    void load();
    const timer = window.setInterval(() => void load(), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [load]);

  if (!status) return null;
  const settle = async (docId: string) => {
    await request("DELETE", `/api/git/conflicts/${docId}`).catch(() => undefined);
    await load();
  };
  const keepEditors = async (docId: string) => {
    await api.dropDraft(docId).catch(() => undefined);
    await settle(docId);
    onChanged();
  };
  const publishPanels = async (docId: string) => {
    try {
      const [drafts, pages] = await Promise.all([api.drafts(), api.pages()]);
      const draft = drafts.find((d) => d.docId === docId);
      const page = pages.find((p) => p.id === docId);
      if (!draft || !page) throw new Error("no draft");
      await api.save(docId, draft.body.content.sections, draft.body.settings ?? page.settings, page.version);
      await settle(docId);
      toast("success", SAVED);
      onChanged();
    } catch (e) {
      toast("error", isApiError(e) && e.error ? { title: "Błąd", text: e.error } : SAVE_FAILED);
    }
  };
  return (
    <div className="git-status">
      {status.unpushed > 0 && (
        <p className="form-notice" role="status">
          Jeszcze nie wysłano do repozytorium: {count(status.unpushed, CHANGES)} (na stronie są już widoczne).
        </p>
      )}
      {status.errors.length > 0 && <Failing errors={status.errors} />}
      {status.broken && (
        <RefusedNotice
          title="Zmiana z repozytorium nie została opublikowana: strona nie dałaby się zbudować. Odwiedzający widzą poprzednią wersję."
          refused={status.broken}
        />
      )}
      {status.needsDeploy && (
        <RefusedNotice
          title="Pliki spoza content/ wymagają wdrożenia: serwer użyje ich dopiero po wdrożeniu (deploy). Treść z tych commitów jest już na stronie."
          refused={status.needsDeploy}
        />
      )}
      {status.forcePush && <RefusedNotice title="Odrzucono nadpisanie historii." refused={status.forcePush} />}
      {status.conflicts.map((c) => (
        <div key={c.docId} className="form-notice git-conflict" role="alert">
          <p>
            <strong>Ten sam fragment zmieniono w repozytorium i w panelu</strong>: {c.file} (commit {c.commit},{" "}
            {c.author}). Zmiany w innych akapitach połączono. Na stronie jest wersja z repozytorium; wersja z panelu
            jest zachowana w historii i jako szkic na serwerze (możesz ją wczytać, połączyć i zapisać). Różnice są
            zaznaczone.
          </p>
          <div className="git-conflict-texts">
            <Marked title="W repozytorium" text={c.editorText} other={c.panelText} />
            <Marked title="Z panelu" text={c.panelText} other={c.editorText} />
          </div>
          <button type="button" className="btn btn-primary btn-small" onClick={() => void keepEditors(c.docId)}>
            Zostaw wersję z repozytorium
          </button>{" "}
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void publishPanels(c.docId)}>
            Opublikuj wersję z panelu
          </button>
        </div>
      ))}
    </div>
  );
}
