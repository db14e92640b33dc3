// 'Aplikacja uwierzytelniająca': turning the app's codes on (a QR code, then a code from the app),
// new recovery codes, turning it off.
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { GUARDS, security, withReauth, type Enrolment, type TotpStatus } from "../account";
import type { Toast } from "../saving";
import { errorText, FAILED } from "./errors";
import RecoveryCodes from "./RecoveryCodes";
import { showProblem } from "../problems";

export default function TwoFactor({ toast }: { toast: Toast }) {
  const [status, setStatus] = useState<TotpStatus | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[]>([]);
  const [error, setError] = useState("");
  const load = useCallback(() => security.totp().then(setStatus, () => setError(FAILED)), []);
  useEffect(() => void load(), [load]);
  const start = async () => {
    setError("");
    try {
      setEnrolment(await withReauth(security.setup, GUARDS.appOn));
    } catch (e) {
      setError(errorText(e));
    }
  };
  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    // A new try replaces what the last one said: never an old refusal beside a success.
    setError("");
    try {
      setCodes((await security.confirm(code)).recoveryCodes);
      setEnrolment(null);
      toast("success", { title: "Sukces", text: "Logowanie kodem z aplikacji jest włączone." });
      void load();
    } catch (e) {
      setError(errorText(e));
      showProblem("totp-code");
    }
  };
  const disable = async () => {
    if (!window.confirm("Wyłączyć logowanie kodem z aplikacji? Do panelu wystarczy wtedy samo hasło.")) return;
    setError("");
    try {
      await withReauth(security.disable, GUARDS.appOff);
      setCodes([]);
      toast("success", { title: "Sukces", text: "Logowanie kodem z aplikacji jest wyłączone." });
      void load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const renew = async () => {
    setError("");
    try {
      setCodes((await withReauth(security.renewCodes, GUARDS.newCodes)).recoveryCodes);
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
            <input
              id="totp-code"
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "totp-error" : undefined}
            />
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
        <p id="totp-error" className="form-notice form-notice-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
