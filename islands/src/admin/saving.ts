// What the panel's views share when they save: the toast function they are given, the two
// messages a save ends with, and the save of a whole form (price list, facts).
import { api, isApiError, type PublishingStatus } from "./api";
import type { useToasts } from "../toasts";

export type Toast = ReturnType<typeof useToasts>["show"];

export const SAVED = { title: "Sukces", text: "Zmiany zostały zapisane." };
export const SAVE_FAILED = { title: "Błąd", text: "Nie udało się zapisać zmian." };

/**
 * After a change, waits (at most two minutes) for the run of the CDN's commands it queued,
 * which the server does after answering, and says if that failed.
 */
export async function watchPublishing(toast: Toast, at: PublishingStatus): Promise<void> {
  let status = at;
  const until = Date.now() + 120_000;
  while (status.pending && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    status = await api.publishing().catch(() => ({ ...status, pending: false }));
  }
  if (status.failure) toast("error", { title: "Uwaga", text: status.failure });
}

/** Sends a form, says how it went (the server's own words for a refusal) and reloads it. */
export async function saveForm(
  toast: Toast,
  send: () => Promise<{ warning: string | null; publishing: PublishingStatus }>,
  reload: () => Promise<void>,
): Promise<void> {
  try {
    const result = await send();
    toast("success", SAVED);
    if (result.warning) toast("error", { title: "Uwaga", text: result.warning });
    void watchPublishing(toast, result.publishing);
    await reload();
  } catch (e) {
    toast(
      "error",
      isApiError(e) && [409, 422].includes(e.status) && e.error ? { title: "Błąd", text: e.error } : SAVE_FAILED,
    );
  }
}
