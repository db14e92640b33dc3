// 'Zaloguj się': e-mail and password (or a passkey), then the app's code when it is on; and
// 'Nie pamiętasz hasła?'. The first screen of the panel, and the dialog that signs in again over
// unsaved edits when the session ended.
import { useState, type FormEvent } from "react";
import { isApiError } from "../http";
import type { ShowToast } from "../../toasts";
import { auth, signInError, signInWithPasskey } from "./auth";
import ResetForm from "./ResetForm";
import SecondFactorForm from "./SecondFactorForm";

const LOGIN_FAILED = { title: "Błąd logowania", text: "Nieprawidłowy email lub hasło." };
const NO_ACCESS = { title: "Brak dostępu", text: "Nie masz uprawnień do wyświetlenia tej strony." };

export interface LoginFormProps {
  onSignedIn: () => void;
  toast: ShowToast;
  /** Why the panel asks to sign in again (the session ended), said above the form. */
  notice?: string;
}

export default function LoginForm({ onSignedIn, toast, notice = "" }: LoginFormProps) {
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<"password" | "code" | "reset">("password");
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    try {
      const answer = await auth.login(String(data.get("email") ?? ""), String(data.get("password") ?? ""));
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
      const cancelled = e instanceof Error && e.name === "NotAllowedError";
      const text = cancelled ? "" : signInError(e, "");
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
