// 'Nie pamiętasz hasła?': a code sent to the administrator's e-mail sets a new password.
import { useState, type FormEvent } from "react";
import { auth, signInError } from "./auth";
import { FAILED } from "./SecondFactorForm";

/** 'Nie pamiętasz hasła?': a code sent to the administrator's e-mail sets a new password. */
export default function ResetForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState("");
  const [error, setError] = useState("");
  const ask = async (event: FormEvent) => {
    event.preventDefault();
    setError("");
    try {
      setSent((await auth.requestReset(email.trim())).message);
    } catch (e) {
      setError(signInError(e, FAILED));
    }
  };
  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get("password") ?? "");
    if (password !== String(data.get("repeat") ?? "")) return setError("Hasła nie są takie same.");
    setError("");
    try {
      await auth.confirmReset(
        email.trim(),
        String(data.get("code") ?? "").trim(),
        password,
        String(data.get("second") ?? "").trim(),
      );
      onDone();
    } catch (e) {
      setError(signInError(e, FAILED));
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
