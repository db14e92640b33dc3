// What the panel's views share when they save: the toast function they are given, the
// messages a save ends with, the save of a whole form (price list, facts) and what it
// says beside its button until the next save, and the signal that the session expired.
import { isApiError } from "./api";
import type { useToasts } from "../toasts";

export type Toast = ReturnType<typeof useToasts>["show"];

export const SAVED = { title: "Sukces", text: "Zmiany zostały zapisane." };
export const SAVE_FAILED = { title: "Błąd", text: "Nie udało się zapisać zmian." };
export const EXPIRED = {
  title: "Sesja wygasła",
  text: "Sesja wygasła, więc nic nie zapisano. Twoje zmiany są w formularzu: zaloguj się ponownie w okienku i zapisz je.",
};
/** The window event that asks the panel to sign in again in place. */
export const SESSION_EXPIRED = "harmonia:session-expired";

/** How the last save ended, said beside its button until the next one. */
export interface Outcome {
  ok: boolean;
  text: string;
}

/** What a refused save says: the server's own words, or why nothing was saved. */
export function refusal(e: unknown): { title: string; text: string } {
  if (isApiError(e) && e.status === 401) {
    window.dispatchEvent(new Event(SESSION_EXPIRED));
    return EXPIRED;
  }
  return isApiError(e) && [409, 422].includes(e.status) && e.error ? { title: "Błąd", text: e.error } : SAVE_FAILED;
}

export function savedAt(): Outcome {
  const time = new Date().toLocaleTimeString("pl-PL", { hour: "2-digit", minute: "2-digit" });
  return { ok: true, text: `Zapisano i opublikowano o ${time}.` };
}

/** Sends a form, says how it went (the server's own words for a refusal) and reloads it. */
export async function saveForm(
  toast: Toast,
  send: () => Promise<{ warning?: string | null }>,
  reload: () => Promise<void>,
): Promise<Outcome> {
  try {
    const result = await send();
    toast("success", SAVED);
    if (result.warning) toast("error", { title: "Uwaga", text: result.warning });
    await reload();
    return savedAt();
  } catch (e) {
    const message = refusal(e);
    toast("error", message);
    return { ok: false, text: message.text };
  }
}
