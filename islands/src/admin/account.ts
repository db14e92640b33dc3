// The administrator's account: passkeys, the authenticator app and its recovery codes,
// sessions, the password, the audit log, and
// confirming who you are before exports and erasures (`withReauth`).
import { isApiError, request } from "./http";
import { NO_PASSKEYS } from "./signin/auth";

import type {
  AuditEntry,
  Ended,
  Enrolment,
  PasskeyInfo,
  RecoveryCodes,
  SessionInfo,
  SignedIn,
  TotpStatus,
} from "./generated/api";
import { AUDIT_EVENTS } from "../generated/schema";

// The answers' types are generated from the server's (./generated/api.ts, `make api-types`).
export type { AuditEntry, Enrolment, PasskeyInfo, SessionInfo, TotpStatus };

/** The options the server sends (`accounts::webauthn`), as the browser's JSON forms of them. */
interface CreationOptions {
  publicKey: PublicKeyCredentialCreationOptionsJSON;
}

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

export const security = {
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
  passkeys: () => request<PasskeyInfo[]>("GET", "/api/auth/passkeys"),
  removePasskey: (id: number) =>
    withReauth(() => request<unknown>("DELETE", `/api/auth/passkeys/${id}`), GUARDS.signIn),
  audit: (before?: number) => request<AuditEntry[]>("GET", before ? `/api/audit?before=${before}` : "/api/audit"),
};

/** What the reauthentication dialog answers, asked `why` (one sentence): whether she confirmed. */
type Asker = (why: string) => Promise<boolean>;
let asker: Asker = async () => false;

/** The panel registers the dialog that asks for the password again. */
export function setReauthAsker(ask: Asker) {
  asker = ask;
}

/** Why the panel asks again, for each action it guards: the dialog's first sentence. */
export const GUARDS = {
  personalData: "Chcesz pobrać albo usunąć wiadomości z danymi osobowymi osób, które napisały do gabinetu.",
  signIn: "Chcesz zmienić sposób logowania do panelu (aplikację uwierzytelniającą, kody zapasowe albo klucze dostępu).",
  appOn: "Chcesz włączyć logowanie kodem z aplikacji uwierzytelniającej.",
  appOff: "Chcesz wyłączyć logowanie kodem z aplikacji: do panelu wystarczy wtedy samo hasło.",
  newCodes: "Chcesz utworzyć nowe kody zapasowe: dotychczasowe przestaną działać.",
  gitToken:
    "Chcesz utworzyć token dostępu przez git: kto go ma, może zmieniać teksty strony bez logowania do panelu, dopóki token nie zostanie unieważniony.",
} as const;

/**
 * Runs `action`; if the server wants the administrator to confirm who they are first, asks
 * (password, and the app's code when it is on), saying `why` in one sentence of what she is
 * doing, and runs it once more.
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
