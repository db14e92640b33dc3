// The admin panel 'Panel Administracyjny': rendered on the client only; the prerendered HTML is
// its loading state. This island is the sign-in and nothing more, so the first screen loads only
// React and the form. Once signed in it imports the panel itself (admin/app/main.tsx, its own
// build, at PANEL_APP), which loads each view when it is opened.
import { useCallback, useEffect, useState, type ComponentType } from "react";
import type { SignedInProps } from "../admin/app/contract";
import LoginForm from "../admin/signin/LoginForm";
import { auth } from "../admin/signin/auth";
import { Toasts, useToasts } from "../toasts";

type Phase = "loading" | "signedOut" | "signedIn";
type Loaded = { Panel: ComponentType<SignedInProps> } | { failed: true } | null;

/** The signed-in panel's module, asked for once. */
let panel: Promise<{ default: ComponentType<SignedInProps> }> | null = null;
function loadPanel() {
  panel ??= import(PANEL_APP) as Promise<{ default: ComponentType<SignedInProps> }>;
  return panel;
}

export default function AdminPanel() {
  const [phase, setPhase] = useState<Phase>("loading");
  const [notice, setNotice] = useState("");
  const [loaded, setLoaded] = useState<Loaded>(null);
  const { toasts, show: toast, dismiss } = useToasts();

  const signedIn = useCallback(() => {
    setNotice("");
    setPhase("signedIn");
    loadPanel().then(
      (module) => setLoaded({ Panel: module.default }),
      () => setLoaded({ failed: true }),
    );
  }, []);
  const signedOut = useCallback((why: string) => {
    setNotice(why);
    setPhase("signedOut");
  }, []);

  useEffect(() => {
    auth.session().then(
      (s) => (s.email ? signedIn() : setPhase("signedOut")),
      () => setPhase("signedOut"),
    );
  }, [signedIn]);

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
        <LoginForm onSignedIn={signedIn} toast={toast} notice={notice} />
        <Toasts toasts={toasts} dismiss={dismiss} />
      </div>
    );
  }
  return (
    <div className="admin-panel admin-signed-in">
      {loaded === null && <p role="status">Ładowanie panelu…</p>}
      {loaded && "failed" in loaded && (
        <p className="form-notice form-notice-error" role="alert">
          Nie udało się wczytać panelu. Sprawdź połączenie z internetem i odśwież stronę.
        </p>
      )}
      {loaded && "Panel" in loaded && <loaded.Panel toast={toast} onSignedOut={signedOut} />}
      <Toasts toasts={toasts} dismiss={dismiss} />
    </div>
  );
}
