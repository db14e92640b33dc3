// What the panel's views share when they save: the toast function they are given, the
// messages a save ends with, the save of a whole form (price list, facts) and what it
// says beside its button until the next save, and the signal that the session expired.
import { api, isApiError, type Editable, type PublishingStatus } from "./api";
import { toTyped } from "./dates";
import { placeOf, type Place } from "./problems";
import type { ShowToast } from "../toasts";

export type Toast = ShowToast;

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
  /** Where the refused save's problem is in the form, when the server says. */
  place?: Place | null;
}

/** What a refused save says: the server's own words (and where its problem is), or why nothing was saved. */
export function refusal(e: unknown): { title: string; text: string; place?: Place | null } {
  if (isApiError(e) && e.status === 401) {
    window.dispatchEvent(new Event(SESSION_EXPIRED));
    return EXPIRED;
  }
  return isApiError(e) && [409, 422].includes(e.status) && e.error
    ? { title: "Błąd", text: e.error, place: placeOf(e.problems) }
    : SAVE_FAILED;
}

/**
 * What a save that went through says: when it was published, or, for an article that is not
 * on the site yet, when it will be ('Zaplanowano na 03.12.2026 10:00') or that it is not.
 */
export function savedAt(saved?: Pick<Editable, "status" | "settings"> | null): Outcome {
  const time = new Date().toLocaleTimeString("pl-PL", { hour: "2-digit", minute: "2-digit" });
  switch (saved?.status) {
    case "scheduled":
      return {
        ok: true,
        text: `Zapisano o ${time}. Zaplanowano na ${toTyped(saved.settings.date ?? "")} (czas polski): wtedy artykuł ukaże się sam.`,
      };
    case "unpublished":
      return { ok: true, text: `Zapisano o ${time}. Artykuł nie jest opublikowany.` };
    default:
      return { ok: true, text: `Zapisano i opublikowano o ${time}.` };
  }
}

/**
 * After a change, waits (at most two minutes) for the run of the CDN's commands it queued,
 * which the server does after answering, and says if that failed.
 */
export async function watchPublishing(toast: Toast, at: PublishingStatus): Promise<void> {
  let status = at;
  const until = Date.now() + 120_000;
  while (status.pending && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    status = await api.publishing({ background: true }).catch(() => ({ ...status, pending: false }));
  }
  if (status.failure) toast("error", { title: "Uwaga", text: status.failure });
}

/** Sends a form, says how it went (the server's own words for a refusal) and reloads it. */
export async function saveForm(
  toast: Toast,
  send: () => Promise<{ warning: string | null; publishing: PublishingStatus }>,
  reload: () => Promise<void>,
): Promise<Outcome> {
  try {
    const result = await send();
    toast("success", SAVED);
    if (result.warning) toast("error", { title: "Uwaga", text: result.warning });
    void watchPublishing(toast, result.publishing);
    await reload();
    return savedAt();
  } catch (e) {
    const message = refusal(e);
    toast("error", message);
    return { ok: false, text: message.text, place: message.place ?? null };
  }
}
