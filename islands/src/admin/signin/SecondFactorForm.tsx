// The code after a right password: six digits from the app, or a recovery code.
import { useState, type FormEvent } from "react";
import { isApiError } from "../http";
import { auth, signInError } from "./auth";

export const FAILED = "Nie udało się. Spróbuj ponownie za chwilę.";

export default function SecondFactorForm({ onSignedIn, onExpired }: { onSignedIn: () => void; onExpired: () => void }) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    if (!code) return setError("Wpisz kod z aplikacji.");
    setBusy(true);
    try {
      await auth.loginCode(code);
      onSignedIn();
    } catch (e) {
      if (isApiError(e) && e.code === "expired") onExpired();
      setError(signInError(e, FAILED));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="admin-login" onSubmit={submit} noValidate>
      <p>Hasło jest poprawne. Wpisz teraz kod z aplikacji uwierzytelniającej w telefonie.</p>
      <div className="field">
        <label htmlFor="login-code">Kod z aplikacji (6 cyfr) lub kod zapasowy</label>
        <input
          id="login-code"
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "login-code-error" : undefined}
        />
      </div>
      {error && (
        <p id="login-code-error" className="form-notice form-notice-error" role="alert">
          {error}
        </p>
      )}
      <button className="btn btn-primary" type="submit" disabled={busy}>
        {busy ? "Sprawdzanie…" : "Potwierdź"}
      </button>
    </form>
  );
}
