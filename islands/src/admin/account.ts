// The administrator's account: the second step of signing in, the authenticator app and its
// recovery codes, sessions, the password, the audit log, the forgotten-password reset, and
// confirming who you are before exports and erasures (`withReauth`).
import { isApiError, request } from "./api";

import type {
  AuditEntry,
  Ended,
  Enrolment,
  Notice,
  PasskeyInfo,
  RecoveryCodes,
  SessionInfo,
  SignedIn,
  TotpStatus,
} from "./generated/api";
import { AUDIT_EVENTS } from "../generated/schema";

// The answers' types are generated from the server's (./generated/api.ts, `make api-types`).
export type { AuditEntry, Enrolment, PasskeyInfo, SessionInfo, TotpStatus };

/** The options `webauthn-rs` sends, as the browser's JSON forms of them. */
interface CreationOptions {
  publicKey: PublicKeyCredentialCreationOptionsJSON;
}
interface RequestOptions {
  publicKey: PublicKeyCredentialRequestOptionsJSON;
}

export const NO_PASSKEYS = "Ta przeglądarka nie obsługuje kluczy dostępu.";

/** Makes a new passkey in this browser's authenticator and keeps it on the server. */
export async function addPasskey(name: string): Promise<void> {
  if (!window.PublicKeyCredential?.parseCreationOptionsFromJSON) throw new Error(NO_PASSKEYS);
  const options = await withReauth(
    () => request<CreationOptions>("POST", "/api/auth/passkeys/register", {}),
    GUARDS.signIn,
  );
  const credential = await navigator.credentials.create({
    publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options.publicKey),
  });
  if (!(credential instanceof PublicKeyCredential)) throw new Error("Nie utworzono klucza.");
  await request<unknown>("POST", "/api/auth/passkeys/register/finish", { name, credential: credential.toJSON() });
}

/** Signs in with a passkey of this browser's authenticator. */
export async function signInWithPasskey(): Promise<void> {
  if (!window.PublicKeyCredential?.parseRequestOptionsFromJSON) throw new Error(NO_PASSKEYS);
  const options = await request<RequestOptions>("POST", "/api/auth/passkeys/login", {});
  const credential = await navigator.credentials.get({
    publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey),
  });
  if (!(credential instanceof PublicKeyCredential)) throw new Error("Nie wybrano klucza.");
  await request<unknown>("POST", "/api/auth/passkeys/login/finish", { credential: credential.toJSON() });
}

export const security = {
  loginCode: (code: string) => request<SignedIn>("POST", "/api/auth/login/code", { code }),
  totp: () => request<TotpStatus>("GET", "/api/auth/totp"),
  setup: () => request<Enrolment>("POST", "/api/auth/totp/setup", {}),
  confirm: (code: string) => request<RecoveryCodes>("POST", "/api/auth/totp/confirm", { code }),
  disable: () => request<unknown>("DELETE", "/api/auth/totp"),
  renewCodes: () => request<RecoveryCodes>("POST", "/api/auth/totp/recovery-codes", {}),
  sessions: () => request<SessionInfo[]>("GET", "/api/auth/sessions"),
  endSession: (id: string) => request<unknown>("DELETE", `/api/auth/sessions/${encodeURIComponent(id)}`),
  endOthers: () => request<Ended>("DELETE", "/api/auth/sessions/others"),
  changePassword: (current: string, password: string) =>
    request<SignedIn>("POST", "/api/auth/password", { current, password }),
  reauth: (password: string, code: string) => request<unknown>("POST", "/api/auth/reauth", { password, code }),
  requestReset: (email: string) => request<Notice>("POST", "/api/auth/reset", { email }),
  confirmReset: (email: string, code: string, password: string, secondCode: string) =>
    request<unknown>("POST", "/api/auth/reset/confirm", { email, code, password, secondCode }),
  passkeys: () => request<PasskeyInfo[]>("GET", "/api/auth/passkeys"),
  removePasskey: (id: number) =>
    withReauth(() => request<unknown>("DELETE", `/api/auth/passkeys/${id}`), GUARDS.signIn),
  audit: (before?: number) => request<AuditEntry[]>("GET", before ? `/api/audit?before=${before}` : "/api/audit"),
};

/** What the reauthentication dialog answers: whether the administrator confirmed. */
type Asker = (why: string) => Promise<boolean>;
let asker: Asker = async () => false;

/** The panel registers the dialog that asks for the password again. */
export function setReauthAsker(ask: Asker) {
  asker = ask;
}

/** Why the panel asks again, for each kind of action it guards: said in the dialog. */
export const GUARDS = {
  personalData: "Chcesz pobrać albo usunąć wiadomości z danymi osobowymi osób, które napisały do gabinetu.",
  signIn: "Chcesz zmienić sposób logowania do panelu (aplikację uwierzytelniającą, kody zapasowe albo klucze dostępu).",
  gitToken:
    "Chcesz utworzyć token dostępu przez git: kto go ma, może zmieniać teksty strony bez logowania do panelu, dopóki token nie zostanie unieważniony.",
} as const;

/**
 * Runs `action`; if the server wants the administrator to confirm who they are first, asks
 * (password, and the app's code when it is on), saying `why`, and runs it once more.
 */
export async function withReauth<T>(action: () => Promise<T>, why: string): Promise<T> {
  try {
    return await action();
  } catch (e) {
    if (!(isApiError(e) && e.code === "reauth")) throw e;
    if (!(await asker(why))) throw e;
    return action();
  }
}

/** Polish names of what the audit log records (defined once in Rust: accounts::audit). */
export const EVENTS: Record<string, string> = AUDIT_EVENTS;
