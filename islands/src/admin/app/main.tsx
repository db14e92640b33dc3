// The signed-in panel: the navigation of its views, the banners above every view, the view the
// address names (loaded when first opened), the dialog that confirms who she is, and signing in
// again over unsaved edits when the session ended. Imported by the sign-in screen
// (islands/AdminPanel.tsx) once she is in; built on its own (islands/build.mjs).
import { Suspense, useCallback, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { auth } from "../signin/auth";
import LoginForm from "../signin/LoginForm";
import { GitStatusBanner } from "../GitStatus";
import Modal from "../Modal";
import { SystemAlertsBanner } from "../SystemAlerts";
import ReauthDialog from "../security/ReauthDialog";
import { SESSION_EXPIRED } from "../saving";
import { SIGNED_OUT } from "../http";
import { loadPages, pagesStore } from "../pages/store";
import { openPage } from "../pages/state";
import type { SignedInProps } from "./contract";
import { request } from "../http";
import type { GitTokens } from "../generated/api";
import { useRoute, type Route } from "./routes";
import Search from "./Search";
import { useToastsClearOfSaveButtons } from "./toastPlace";
import { VIEWS } from "./views";
import { useNarrow } from "../narrow";

const LEAVE = "Masz niezapisane zmiany na tej stronie. Przejść mimo to? Szkic zostanie zachowany w tej przeglądarce.";
const LEAVE_FORM =
  "Masz niezapisane zmiany w tym formularzu. Przejść mimo to? Szkic zostanie zachowany w tej przeglądarce i zaproponowany przy powrocie.";

export default function SignedIn({ toast, onSignedOut }: SignedInProps) {
  // 'Cennik', 'Dane gabinetu' and the other forms say here whether they have unsaved changes.
  const formDirty = useRef(false);
  const [expired, setExpired] = useState(false);
  const [notice, setNotice] = useState("");
  const mayLeave = useCallback((from: Route, to: Route) => {
    if (to.view !== from.view) return !formDirty.current || window.confirm(LEAVE_FORM);
    if (to.view !== "pages") return true;
    const { pages, edits } = pagesStore.get();
    const open = openPage(pages, from.doc);
    return !open || !(open.id in edits) || openPage(pages, to.doc)?.id === open.id || window.confirm(LEAVE);
  }, []);
  const [route, go] = useRoute(mayLeave);
  const narrow = useNarrow();
  const header = typeof document === "undefined" ? null : document.querySelector<HTMLElement>(".site-header .nav");
  const onDirty = useCallback((dirty: boolean) => {
    formDirty.current = dirty;
  }, []);
  const unsaved = () => formDirty.current || Object.keys(pagesStore.get().edits).length > 0;
  useToastsClearOfSaveButtons();

  useEffect(() => void loadPages(toast), [toast]);
  // 'Dostęp przez git' is shown only where the server hosts the content's repository.
  const [hostedGit, setHostedGit] = useState(false);
  useEffect(() => {
    request<GitTokens>("GET", "/api/git/tokens", undefined, { background: true }).then(
      (git) => setHostedGit(Boolean(git.cloneUrl)),
      () => undefined,
    );
  }, []);
  const shown = VIEWS.filter((v) => v.key !== "git" || hostedGit || route.view === "git");
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (unsaved()) event.preventDefault();
    };
    // A save refused for an expired session asks to sign in again here, over the kept edit.
    const ask = () => setExpired(true);
    // The session ended (idle, or signed out from another device) while the panel was open:
    // with unsaved edits, sign in again over them (the inbox closed); otherwise back to the
    // sign-in, which says why.
    const ended = (event: Event) => {
      const text = (event as CustomEvent<string>).detail || "Sesja wygasła. Zaloguj się ponownie.";
      if (!unsaved()) return onSignedOut(text);
      setNotice(text);
      if (["messages", "security"].includes(route.view)) go({ view: "pages", doc: null });
      setExpired(true);
    };
    window.addEventListener("beforeunload", warn);
    window.addEventListener(SESSION_EXPIRED, ask);
    window.addEventListener(SIGNED_OUT, ended);
    return () => {
      window.removeEventListener("beforeunload", warn);
      window.removeEventListener(SESSION_EXPIRED, ask);
      window.removeEventListener(SIGNED_OUT, ended);
    };
  }, [onSignedOut, route.view, go]);

  const logout = async () => {
    if (unsaved() && !window.confirm(LEAVE)) return;
    await auth.logout().catch(() => undefined);
    window.location.assign("/");
  };
  const open = VIEWS.find((v) => v.key === route.view) ?? VIEWS[0];
  // On a wide screen 'Wyloguj się' stands in the page's header beside 'Wróć na stronę', so
  // that every view's button fits the bar's one row and the editor starts high.
  const logoutButton = (
    <button type="button" className="btn btn-secondary admin-logout" onClick={logout}>
      Wyloguj się
    </button>
  );
  return (
    <>
      <div className="admin-bar">
        <nav className="admin-views" aria-label="Części panelu">
          {shown.map(({ key, label }) => (
            <button
              key={key}
              type="button"
              className="btn btn-secondary"
              aria-pressed={route.view === key}
              onClick={() => go({ view: key, doc: null })}
            >
              {label}
            </button>
          ))}
        </nav>
        <Search go={go} />
        {narrow || !header ? logoutButton : createPortal(logoutButton, header)}
      </div>
      <GitStatusBanner toast={toast} onChanged={() => void loadPages(toast)} />
      {route.view !== "system" && <SystemAlertsBanner onOpen={() => go({ view: "system", doc: null })} />}
      <Suspense fallback={<p role="status">Ładowanie…</p>}>
        {open && <open.View key={open.key} toast={toast} onDirty={onDirty} route={route} go={go} />}
      </Suspense>
      <ReauthDialog />
      {expired && (
        <Modal title="Zaloguj się ponownie" onClose={() => setExpired(false)}>
          <div className="admin-dialog-body">
            <p>{notice || "Sesja wygasła."} Twoje zmiany są zachowane: po zalogowaniu zapisz je jeszcze raz.</p>
          </div>
          <LoginForm
            onSignedIn={() => {
              setNotice("");
              setExpired(false);
              toast("success", { title: "Zalogowano", text: "Zalogowano ponownie. Możesz zapisać zmiany." });
            }}
            toast={toast}
          />
        </Modal>
      )}
    </>
  );
}
