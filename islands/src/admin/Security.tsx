// 'Bezpieczeństwo': the authenticator app (set up from a QR code, with recovery codes shown
// once, to save as a text file or print), the password, the active sessions (each device in
// words, this one marked; 'Wyloguj wszędzie') and the audit log; and the
// dialogs the sign-in and the inbox use: the code after the password, the forgotten-password
// reset, and confirming who you are before exports and erasures.
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { createPortal } from "react-dom";
import { isApiError } from "./api";
import Modal from "./Modal";
import type { Toast } from "./saving";
import {
  addPasskey,
  EVENTS,
  GUARDS,
  security,
  setReauthAsker,
  withReauth,
  type AuditEntry,
  type Enrolment,
  type PasskeyInfo,
  type SessionInfo,
  type TotpStatus,
} from "./account";

const FAILED = "Nie udało się. Spróbuj ponownie za chwilę.";

function when(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString("pl-PL", { dateStyle: "medium", timeStyle: "short" });
}

function errorText(e: unknown): string {
  if (isApiError(e) && e.error) return e.error;
  // The browser's own refusals (a cancelled fingerprint, no authenticator).
  if (e instanceof Error && e.name === "NotAllowedError") return "Nie potwierdzono klucza dostępu.";
  return e instanceof Error && e.message ? e.message : FAILED;
}

/** The code after a right password: six digits from the app, or a recovery code. */
export function SecondFactorForm({ onSignedIn, onExpired }: { onSignedIn: () => void; onExpired: () => void }) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    if (!code) return setError("Wpisz kod z aplikacji.");
    setBusy(true);
    try {
      await security.loginCode(code);
      onSignedIn();
    } catch (e) {
      if (isApiError(e) && e.error.startsWith("Logowanie trwało")) onExpired();
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="admin-login" onSubmit={submit} noValidate>
      <p>Hasło jest poprawne. Wpisz teraz kod z aplikacji uwierzytelniającej w telefonie.</p>
      <div className="field">
        <label htmlFor="login-code">Kod z aplikacji (6 cyfr) lub kod zapasowy</label>
        <input id="login-code" name="code" type="text" inputMode="numeric" autoComplete="one-time-code" autoFocus />
      </div>
      {error && (
        <p className="form-notice form-notice-error" role="alert">
          {error}
        </p>
      )}
      <button className="btn btn-primary" type="submit" disabled={busy}>
        {busy ? "Sprawdzanie…" : "Potwierdź"}
      </button>
    </form>
  );
}

/** 'Nie pamiętasz hasła?': a code sent to the administrator's e-mail sets a new password. */
export function ResetForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState("");
  const [error, setError] = useState("");
  const ask = async (event: FormEvent) => {
    event.preventDefault();
    setError("");
    try {
      setSent((await security.requestReset(email.trim())).message);
    } catch (e) {
      setError(errorText(e));
    }
  };
  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get("password") ?? "");
    if (password !== String(data.get("repeat") ?? "")) return setError("Hasła nie są takie same.");
    setError("");
    try {
      await security.confirmReset(
        email.trim(),
        String(data.get("code") ?? "").trim(),
        password,
        String(data.get("second") ?? "").trim(),
      );
      onDone();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section className="admin-login" aria-labelledby="reset-title">
      <h2 id="reset-title">Nowe hasło</h2>
      {!sent ? (
        <form onSubmit={ask}>
          <div className="field">
            <label htmlFor="reset-email">E-mail administratora</label>
            <input
              id="reset-email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <button className="btn btn-primary" type="submit">
            Wyślij kod
          </button>
        </form>
      ) : (
        <form onSubmit={confirm} noValidate>
          <p role="status">{sent}</p>
          <div className="field">
            <label htmlFor="reset-code">Kod z e-maila</label>
            <input id="reset-code" name="code" type="text" inputMode="numeric" autoComplete="one-time-code" />
          </div>
          <div className="field">
            <label htmlFor="reset-second">Kod z aplikacji (jeśli jej używasz)</label>
            <input id="reset-second" name="second" type="text" inputMode="numeric" />
          </div>
          <div className="field">
            <label htmlFor="reset-password">Nowe hasło (co najmniej 12 znaków)</label>
            <input id="reset-password" name="password" type="password" autoComplete="new-password" />
          </div>
          <div className="field">
            <label htmlFor="reset-repeat">Powtórz nowe hasło</label>
            <input id="reset-repeat" name="repeat" type="password" autoComplete="new-password" />
          </div>
          <button className="btn btn-primary" type="submit">
            Ustaw nowe hasło
          </button>
        </form>
      )}
      {error && (
        <p className="form-notice form-notice-error" role="alert">
          {error}
        </p>
      )}
      <button type="button" className="link-button" onClick={onCancel}>
        Wróć do logowania
      </button>
    </section>
  );
}

/** Asks for the password (and the app's code) when the server wants to be sure. */
export function ReauthDialog() {
  // Why it asks (what the action guards), while it asks.
  const [why, setWhy] = useState<string | null>(null);
  const [error, setError] = useState("");
  const answer = useRef<((ok: boolean) => void) | null>(null);
  useEffect(() => {
    setReauthAsker(
      (reason) =>
        new Promise<boolean>((resolve) => {
          answer.current = resolve;
          setError("");
          setWhy(reason);
        }),
    );
  }, []);
  const close = (ok: boolean) => {
    setWhy(null);
    answer.current?.(ok);
    answer.current = null;
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    try {
      await security.reauth(String(data.get("password") ?? ""), String(data.get("code") ?? "").trim());
      close(true);
    } catch (e) {
      setError(errorText(e));
    }
  };
  if (why === null) return null;
  return (
    <Modal title="Potwierdź, że to Ty" onClose={() => close(false)}>
      <form className="admin-dialog-body" onSubmit={submit} noValidate>
        <p>{why}</p>
        <p>Dlatego upewniamy się, że to Ty: podaj hasło, a jeśli używasz aplikacji uwierzytelniającej, także kod.</p>
        <div className="field">
          <label htmlFor="reauth-password">Hasło</label>
          <input id="reauth-password" name="password" type="password" autoComplete="current-password" autoFocus />
        </div>
        <div className="field">
          <label htmlFor="reauth-code">Kod z aplikacji (jeśli jej używasz)</label>
          <input id="reauth-code" name="code" type="text" inputMode="numeric" autoComplete="one-time-code" />
        </div>
        {error && (
          <p className="form-notice form-notice-error" role="alert">
            {error}
          </p>
        )}
        <div className="editor-actions">
          <button type="submit" className="btn btn-primary">
            Potwierdź
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => close(false)}>
            Anuluj
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The recovery codes as a text file: what the file says, line by line. */
export function recoveryCodesText(codes: string[], made: Date): string {
  const day = made.toLocaleDateString("pl-PL", { dateStyle: "long" });
  return [
    `Kody zapasowe do panelu strony gabinetu (utworzone ${day})`,
    "",
    "Każdy kod działa raz, zamiast kodu z aplikacji, gdy nie masz telefonu pod ręką.",
    "Przechowuj je poza telefonem, np. wydrukowane w szufladzie.",
    "",
    ...codes,
    "",
  ].join("\r\n");
}

function saveCodes(codes: string[]) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(
    new Blob([recoveryCodesText(codes, new Date())], { type: "text/plain;charset=utf-8" }),
  );
  link.download = "kody-zapasowe-panelu.txt";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** A sheet with the codes alone: on paper nothing else of the panel is printed. */
// It covers the panel on screen and, put straight into <body>, is all that is printed.
function PrintSheet({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), []);
  return createPortal(
    <section className="recovery-sheet" aria-labelledby="recovery-sheet-title">
      <h3 id="recovery-sheet-title" tabIndex={-1} ref={title}>
        Kody zapasowe do panelu strony gabinetu
      </h3>
      <p>
        Utworzone {new Date().toLocaleDateString("pl-PL", { dateStyle: "long" })}. Każdy kod działa raz, zamiast kodu z
        aplikacji. Przechowuj tę kartkę poza telefonem.
      </p>
      <ol className="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="editor-actions recovery-sheet-actions">
        <button type="button" className="btn btn-primary" onClick={() => window.print()}>
          Drukuj
        </button>
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Zamknij widok do druku
        </button>
      </div>
    </section>,
    document.body,
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  const [printing, setPrinting] = useState(false);
  return (
    <div className="form-notice" role="status">
      <p>
        <strong>Kody zapasowe</strong> – zapisz je teraz i przechowuj poza telefonem. Każdy działa raz, gdy nie masz
        telefonu pod ręką. Nie pokażemy ich ponownie.
      </p>
      <ul className="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="editor-actions">
        <button type="button" className="btn btn-secondary btn-small" onClick={() => saveCodes(codes)}>
          Pobierz kody jako plik tekstowy
        </button>
        <button type="button" className="btn btn-secondary btn-small" onClick={() => setPrinting(true)}>
          Widok do druku
        </button>
      </div>
      {printing && <PrintSheet codes={codes} onClose={() => setPrinting(false)} />}
    </div>
  );
}

function TwoFactor({ toast }: { toast: Toast }) {
  const [status, setStatus] = useState<TotpStatus | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[]>([]);
  const [error, setError] = useState("");
  const load = useCallback(() => security.totp().then(setStatus, () => setError(FAILED)), []);
  useEffect(() => void load(), [load]);
  const start = async () => {
    setError("");
    try {
      setEnrolment(await withReauth(security.setup, GUARDS.signIn));
    } catch (e) {
      setError(errorText(e));
    }
  };
  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    try {
      setCodes((await security.confirm(code)).recoveryCodes);
      setEnrolment(null);
      toast("success", { title: "Sukces", text: "Logowanie kodem z aplikacji jest włączone." });
      void load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const disable = async () => {
    if (!window.confirm("Wyłączyć logowanie kodem z aplikacji? Do panelu wystarczy wtedy samo hasło.")) return;
    try {
      await withReauth(security.disable, GUARDS.signIn);
      setCodes([]);
      toast("success", { title: "Sukces", text: "Logowanie kodem z aplikacji jest wyłączone." });
      void load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const renew = async () => {
    try {
      setCodes((await withReauth(security.renewCodes, GUARDS.signIn)).recoveryCodes);
      void load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section className="admin-card" aria-labelledby="totp-title">
      <h2 id="totp-title">Aplikacja uwierzytelniająca</h2>
      {status === null ? (
        <p className="muted">Ładowanie…</p>
      ) : status.enabled ? (
        <>
          <p>Włączona: po haśle panel prosi o kod z aplikacji. Pozostałe kody zapasowe: {status.recoveryCodesLeft}.</p>
          <div className="editor-actions">
            <button type="button" className="btn btn-secondary" onClick={renew}>
              Nowe kody zapasowe
            </button>
            <button type="button" className="btn btn-secondary" onClick={disable}>
              Wyłącz
            </button>
          </div>
        </>
      ) : enrolment ? (
        <form onSubmit={confirm} noValidate>
          <p>
            Zeskanuj kod QR aplikacją (np. Google Authenticator, Microsoft Authenticator, Aegis) albo wpisz w niej klucz
            ręcznie, a potem podaj kod, który pokaże.
          </p>
          <div
            className="qr"
            role="img"
            aria-label="Kod QR do zeskanowania w aplikacji"
            dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
          />
          <p>
            Klucz: <code className="totp-secret">{enrolment.secret}</code>
          </p>
          <div className="field">
            <label htmlFor="totp-code">Kod z aplikacji</label>
            <input id="totp-code" name="code" type="text" inputMode="numeric" autoComplete="one-time-code" />
          </div>
          <button type="submit" className="btn btn-primary">
            Włącz
          </button>
        </form>
      ) : (
        <>
          <p>Wyłączona. Z aplikacją do panelu nie wejdzie nikt, kto zna tylko hasło.</p>
          <button type="button" className="btn btn-primary" onClick={start}>
            Włącz logowanie kodem z aplikacji
          </button>
        </>
      )}
      {codes.length > 0 && <RecoveryCodes codes={codes} />}
      {error && (
        <p className="form-notice form-notice-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function Passkeys({ toast }: { toast: Toast }) {
  const [list, setList] = useState<PasskeyInfo[]>([]);
  const [error, setError] = useState("");
  const load = useCallback(() => security.passkeys().then(setList, () => setError(FAILED)), []);
  useEffect(() => void load(), [load]);
  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setError("");
    try {
      await addPasskey(String(new FormData(form).get("name") ?? "").trim());
      form.reset();
      toast("success", { title: "Sukces", text: "Dodano klucz dostępu." });
      void load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const remove = async (key: PasskeyInfo) => {
    if (!window.confirm(`Usunąć klucz „${key.name}”?`)) return;
    try {
      await security.removePasskey(key.id);
      void load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section className="admin-card" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Klucze dostępu</h2>
      <p>
        Klucz dostępu to logowanie odciskiem palca, twarzą lub kodem PIN telefonu albo komputera, bez hasła. Działa
        tylko na adresie tego panelu, więc nikt nie wyłudzi go fałszywą stroną.
      </p>
      {list.length > 0 && (
        <ul className="passkey-list">
          {list.map((k) => (
            <li key={k.id}>
              <span>
                {k.name} <span className="muted">· dodany {when(k.createdAt)}</span>
                {k.lastUsedAt && <span className="muted"> · użyty {when(k.lastUsedAt)}</span>}
              </span>
              <button type="button" className="btn btn-secondary btn-small" onClick={() => remove(k)}>
                Usuń<span className="visually-hidden"> klucz {k.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={add} noValidate>
        <div className="field">
          <label htmlFor="passkey-name">Nazwa klucza (np. „Telefon Magdy”)</label>
          <input id="passkey-name" name="name" type="text" maxLength={60} />
        </div>
        <button type="submit" className="btn btn-primary">
          Dodaj klucz dostępu
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

function Password({ toast }: { toast: Toast }) {
  const [error, setError] = useState("");
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const password = String(data.get("password") ?? "");
    if (password !== String(data.get("repeat") ?? "")) return setError("Nowe hasła nie są takie same.");
    setError("");
    try {
      await security.changePassword(String(data.get("current") ?? ""), password);
      form.reset();
      toast("success", { title: "Sukces", text: "Hasło zmienione. Inne urządzenia zostały wylogowane." });
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section className="admin-card" aria-labelledby="password-title">
      <h2 id="password-title">Hasło</h2>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="pw-current">Obecne hasło</label>
          <input id="pw-current" name="current" type="password" autoComplete="current-password" />
        </div>
        <div className="field">
          <label htmlFor="pw-new">Nowe hasło (co najmniej 12 znaków)</label>
          <input id="pw-new" name="password" type="password" autoComplete="new-password" />
        </div>
        <div className="field">
          <label htmlFor="pw-repeat">Powtórz nowe hasło</label>
          <input id="pw-repeat" name="repeat" type="password" autoComplete="new-password" />
        </div>
        {error && (
          <p className="form-notice form-notice-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary">
          Zmień hasło
        </button>
      </form>
    </section>
  );
}

function Sessions({ toast }: { toast: Toast }) {
  const [list, setList] = useState<SessionInfo[]>([]);
  const load = useCallback(
    () => security.sessions().then(setList, () => toast("error", { title: "Błąd", text: FAILED })),
    [toast],
  );
  useEffect(() => void load(), [load]);
  const end = async (session: SessionInfo) => {
    await security.endSession(session.id).catch(() => undefined);
    void load();
  };
  const endOthers = async () => {
    try {
      const { ended } = await security.endOthers();
      toast("success", { title: "Sukces", text: `Wylogowano inne urządzenia: ${ended}.` });
      void load();
    } catch (e) {
      toast("error", { title: "Błąd", text: errorText(e) });
    }
  };
  return (
    <section className="admin-card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Aktywne sesje</h2>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Lista sesji">
        <table>
          <thead>
            <tr>
              <th scope="col">Zalogowano</th>
              <th scope="col">Ostatnio</th>
              <th scope="col">Adres IP</th>
              <th scope="col">Urządzenie</th>
              <th scope="col">
                <span className="visually-hidden">Działania</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((s) => (
              <tr key={s.id}>
                <td>{when(s.createdAt)}</td>
                <td>{when(s.lastSeenAt)}</td>
                <td>{s.client || "–"}</td>
                <td>
                  {s.device}
                  {s.current && (
                    <>
                      {" "}
                      <strong className="session-current">(ta sesja – to urządzenie)</strong>
                    </>
                  )}
                </td>
                <td>
                  {!s.current && (
                    <button type="button" className="btn btn-secondary btn-small" onClick={() => end(s)}>
                      Zakończ<span className="visually-hidden"> sesję z {when(s.createdAt)}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button type="button" className="btn btn-secondary" onClick={endOthers}>
        Wyloguj wszędzie
      </button>
      <p className="muted">Kończy wszystkie sesje poza tą, na każdym innym urządzeniu.</p>
    </section>
  );
}

function AuditLog() {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  useEffect(() => {
    security.audit().then(setEntries, () => setEntries([]));
  }, []);
  return (
    <section className="admin-card" aria-labelledby="audit-title">
      <h2 id="audit-title">Dziennik zdarzeń</h2>
      <p className="muted">
        Kto, kiedy i skąd logował się do panelu i co robił z wiadomościami. Bez treści wiadomości.
      </p>
      {entries === null ? (
        <p className="muted">Ładowanie…</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Lista zdarzeń">
          <table>
            <thead>
              <tr>
                <th scope="col">Kiedy</th>
                <th scope="col">Zdarzenie</th>
                <th scope="col">Kto</th>
                <th scope="col">Adres</th>
                <th scope="col">Szczegóły</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td>{when(e.at)}</td>
                  <td>{EVENTS[e.event] ?? e.event}</td>
                  <td>{e.actor}</td>
                  <td>{e.client}</td>
                  <td>{e.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export default function Security({ toast }: { toast: Toast }) {
  return (
    <div className="security">
      <Passkeys toast={toast} />
      <TwoFactor toast={toast} />
      <Password toast={toast} />
      <Sessions toast={toast} />
      <AuditLog />
    </div>
  );
}
