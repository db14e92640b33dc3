// Signing in: the session, the password and its second step, a passkey, the forgotten-password
// reset, signing out. The sign-in screen loads this and nothing else of the panel.
import { request } from "../http";
import type { Notice, SignedIn } from "../generated/api";

export const NO_PASSKEYS = "Ta przeglądarka nie obsługuje kluczy dostępu.";

interface RequestOptions {
  publicKey: PublicKeyCredentialRequestOptionsJSON;
}

export const auth = {
  session: () => request<{ email: string | null }>("GET", "/api/auth/session"),
  login: (email: string, password: string) =>
    request<{ email: string } | { secondFactor: true }>("POST", "/api/auth/login", { email, password }),
  loginCode: (code: string) => request<SignedIn>("POST", "/api/auth/login/code", { code }),
  logout: () => fetch("/api/auth/logout", { method: "POST", credentials: "same-origin" }),
  requestReset: (email: string) => request<Notice>("POST", "/api/auth/reset", { email }),
  confirmReset: (email: string, code: string, password: string, secondCode: string) =>
    request<unknown>("POST", "/api/auth/reset/confirm", { email, code, password, secondCode }),
};

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

/** What a refusal of the sign-in says: the server's words, or the browser's about a passkey. */
export function signInError(e: unknown, fallback: string): string {
  if (typeof e === "object" && e !== null && "error" in e && typeof e.error === "string" && e.error) return e.error;
  // The browser's own refusals (a cancelled fingerprint, no authenticator).
  if (e instanceof Error && e.name === "NotAllowedError") return "Nie potwierdzono klucza dostępu.";
  return e instanceof Error && e.message ? e.message : fallback;
}
