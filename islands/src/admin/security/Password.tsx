// 'Hasło': the password changed (the other devices are signed out).
import { useState, type FormEvent } from "react";
import { security } from "../account";
import type { Toast } from "../saving";
import { errorText } from "./errors";

export default function Password({ toast }: { toast: Toast }) {
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
