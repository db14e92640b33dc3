// 'Potwierdź, że to Ty': the password (and the app's code, when she uses the app) again, when the
// server wants to be sure before an export, an erasure or a change of how she signs in. The
// dialog says what it is for, in one sentence of what she is doing.
import { useEffect, useRef, useState, type FormEvent } from "react";
import Modal from "../Modal";
import { security, setReauthAsker } from "../account";
import { isApiError } from "../api";
import { placeOf } from "../problems";
import { errorText } from "./errors";

/** Whether the app's code is asked for: known once the server said whether the app is on. */
type App = "asking" | "on" | "off" | "unknown";

const CODE_LABEL: Record<App, string> = {
  asking: "",
  on: "Kod z aplikacji (6 cyfr) lub kod zapasowy",
  off: "",
  unknown: "Kod z aplikacji (jeśli jej używasz)",
};

/** What the dialog asks for: the app's code only when she uses the app. */
const ASK: Record<App, string> = {
  asking: "podaj hasło.",
  on: "podaj hasło i kod z aplikacji uwierzytelniającej.",
  off: "podaj hasło.",
  unknown: "podaj hasło, a jeśli używasz aplikacji uwierzytelniającej, także kod.",
};

/** Asks for the password (and the app's code) when the server wants to be sure. */
export default function ReauthDialog() {
  const [why, setWhy] = useState<string | null>(null);
  const [app, setApp] = useState<App>("asking");
  const [error, setError] = useState("");
  const answer = useRef<((ok: boolean) => void) | null>(null);
  useEffect(() => {
    setReauthAsker(
      (reason) =>
        new Promise<boolean>((resolve) => {
          answer.current = resolve;
          setError("");
          setApp("asking");
          setWhy(reason);
          security.totp().then(
            (status) => setApp(status.enabled ? "on" : "off"),
            () => setApp("unknown"),
          );
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
    setError("");
    try {
      await security.reauth(String(data.get("password") ?? ""), String(data.get("code") ?? "").trim());
      close(true);
    } catch (e) {
      setError(errorText(e));
      // The cursor goes to what was refused (the server names it), its text selected to type again.
      const field = isApiError(e) ? placeOf(e.problems)?.field : undefined;
      const id = field === "code" ? "reauth-code" : field === "password" ? "reauth-password" : null;
      requestAnimationFrame(() => {
        const input = id ? document.getElementById(id) : null;
        if (input instanceof HTMLInputElement) {
          input.focus();
          input.select();
        }
      });
    }
  };
  if (why === null) return null;
  const code = CODE_LABEL[app];
  return (
    <Modal title="Potwierdź, że to Ty" onClose={() => close(false)}>
      <form className="admin-dialog-body" onSubmit={submit} noValidate>
        <p>{why}</p>
        <p>Dlatego upewniamy się, że to Ty: {ASK[app]} Potwierdzenie wystarczy na 10 minut.</p>
        <div className="field">
          <label htmlFor="reauth-password">Hasło</label>
          <input id="reauth-password" name="password" type="password" autoComplete="current-password" autoFocus />
        </div>
        {code && (
          <div className="field">
            <label htmlFor="reauth-code">{code}</label>
            <input id="reauth-code" name="code" type="text" inputMode="numeric" autoComplete="one-time-code" />
          </div>
        )}
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
