// What the panel's views share when they save: the toast function they are given, the two
// messages a save ends with, and the save of a whole form (price list, facts).
import { isApiError } from "./api";
import type { useToasts } from "../toasts";

export type Toast = ReturnType<typeof useToasts>["show"];

export const SAVED = { title: "Sukces", text: "Zmiany zostały zapisane." };
export const SAVE_FAILED = { title: "Błąd", text: "Nie udało się zapisać zmian." };

/** Sends a form, says how it went (the server's own words for a refusal) and reloads it. */
export async function saveForm(
  toast: Toast,
  send: () => Promise<{ warning?: string | null }>,
  reload: () => Promise<void>,
): Promise<void> {
  try {
    const result = await send();
    toast("success", SAVED);
    if (result.warning) toast("error", { title: "Uwaga", text: result.warning });
    await reload();
  } catch (e) {
    toast(
      "error",
      isApiError(e) && [409, 422].includes(e.status) && e.error ? { title: "Błąd", text: e.error } : SAVE_FAILED,
    );
  }
}
