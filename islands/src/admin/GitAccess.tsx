// 'Dostęp przez git': where editors clone the site's content from (GIT_HOSTED), and their
// access tokens — made here and shown once (the server keeps only their hash), listed with
// when each was made and last used, and revoked.
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { isApiError, request } from "./api";
import { GUARDS, withReauth } from "./account";
import type { GitTokenCreated, GitTokens, NewGitToken } from "./generated/api";
import type { Toast } from "./saving";

const FAILED = "Nie udało się. Spróbuj ponownie za chwilę.";

const gitAccess = {
  list: () => request<GitTokens>("GET", "/api/git/tokens"),
  create: (name: string) =>
    withReauth(
      () => request<GitTokenCreated>("POST", "/api/git/tokens", { name } satisfies NewGitToken),
      GUARDS.gitToken,
    ),
  revoke: (id: number) => request<unknown>("DELETE", `/api/git/tokens/${id}`),
};

function when(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString("pl-PL", { dateStyle: "medium", timeStyle: "short" });
}

function errorText(e: unknown): string {
  return isApiError(e) && e.error ? e.error : FAILED;
}

/** The token just made, with how to use it: shown until the administrator closes it. */
function NewToken({ made, cloneUrl, onClose }: { made: GitTokenCreated; cloneUrl: string; onClose: () => void }) {
  return (
    <div className="form-notice form-notice-success" role="status">
      <p>Token „{made.name}” (skopiuj go teraz — nie pokażemy go ponownie):</p>
      <p>
        <code className="git-token">{made.token}</code>
      </p>
      <p>
        Sklonuj repozytorium poleceniem <code>git clone {cloneUrl}</code> i przy pytaniu o hasło wklej ten token (nazwa
        użytkownika może być dowolna).
      </p>
      <button type="button" className="btn btn-secondary btn-small" onClick={onClose}>
        Zapisałam token, ukryj go
      </button>
    </div>
  );
}

export default function GitAccess({ toast }: { toast: Toast }) {
  const [data, setData] = useState<GitTokens | null>(null);
  const [made, setMade] = useState<GitTokenCreated | null>(null);
  const [error, setError] = useState("");
  const load = useCallback(() => gitAccess.list().then(setData, () => setError(FAILED)), []);
  useEffect(() => void load(), [load]);
  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get("name") ?? "").trim();
    if (!name) return setError("Podaj, czyj to token, np. „Anna, laptop”.");
    setError("");
    try {
      setMade(await gitAccess.create(name));
      form.reset();
      void load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const revoke = async (id: number, name: string) => {
    if (!window.confirm(`Unieważnić token „${name}”? Ta osoba nie wyśle już zmian tym tokenem.`)) return;
    try {
      await gitAccess.revoke(id);
      toast("success", { title: "Sukces", text: `Token „${name}” unieważniony.` });
      void load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  if (!data) return <p>{error || "Wczytywanie…"}</p>;
  if (!data.cloneUrl) {
    return (
      <section className="admin-card git-access" aria-labelledby="git-access-title">
        <h2 id="git-access-title">Dostęp przez git</h2>
        <p>
          Przez git wysyłają zmiany treści osoby, które piszą w edytorze tekstu na swoim komputerze. Ten serwer tego nie
          udostępnia; włącza to osoba, która prowadzi serwer.
        </p>
      </section>
    );
  }
  return (
    <section className="admin-card git-access" aria-labelledby="git-access-title">
      <h2 id="git-access-title">Dostęp przez git</h2>
      <p>
        Osoby, które piszą w edytorze tekstu, wysyłają zmiany treści przez git. Adres repozytorium:{" "}
        <code>{data.cloneUrl}</code> (gałąź <code>{data.branch}</code>). Każda osoba dostaje własny token: jest hasłem
        przy <code>git clone</code> i <code>git push</code>. Serwer sprawdza każdą zmianę, zanim ją przyjmie, a o
        problemach mówi od razu w terminalu.
      </p>
      {made && <NewToken made={made} cloneUrl={data.cloneUrl} onClose={() => setMade(null)} />}
      {data.tokens.length > 0 ? (
        <ul className="passkey-list">
          {data.tokens.map((t) => (
            <li key={t.id}>
              <span>
                {t.name} <span className="muted">· utworzony {when(t.createdAt)}</span>
                <span className="muted"> · {t.lastUsedAt ? `użyty ${when(t.lastUsedAt)}` : "jeszcze nieużyty"}</span>
              </span>
              <button type="button" className="btn btn-secondary btn-small" onClick={() => revoke(t.id, t.name)}>
                Unieważnij<span className="visually-hidden"> token {t.name}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>Nie ma jeszcze żadnego tokenu.</p>
      )}
      <form onSubmit={create} noValidate>
        <div className="field">
          <label htmlFor="git-token-name">Czyj to token (np. „Anna, laptop”)</label>
          <input id="git-token-name" name="name" type="text" maxLength={80} />
        </div>
        <button type="submit" className="btn btn-primary">
          Utwórz token
        </button>
      </form>
      {error && (
        <p className="form-notice form-notice-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
