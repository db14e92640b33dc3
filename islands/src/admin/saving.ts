// What the panel's views share when they save: the toast function they are given, the
// messages a save ends with, the save of a whole form (price list, facts) and what it
// says beside its button until the next save, and the signal that the session expired. A
// save that cannot reach the server is no refusal: it says so, keeps the text, and is sent
// again by itself until the server answers.
import { api, isApiError, OFFLINE, type Editable, type PublishingStatus } from "./api";
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
export const UNREACHED = {
  title: "Brak połączenia",
  text: "Brak połączenia z serwerem. Twój tekst jest zapisany w tej przeglądarce; spróbujemy ponownie…",
};
/** The window event that asks the panel to sign in again in place. */
export const SESSION_EXPIRED = "harmonia:session-expired";

/** How the last save ended, said beside its button until the next one. */
export interface Outcome {
  ok: boolean;
  text: string;
  /** Where the refused save's problem is in the form, when the server says. */
  place?: Place | null;
  /** Said by itself, no notification beside it (a save waiting for the server). */
  live?: boolean;
}

/** What a save says while the server cannot be reached: the one message on the screen. */
export const WAITING: Outcome = { ok: false, text: UNREACHED.text, live: true };

/** Whether `e` is a call that never reached the server. */
export function unreached(e: unknown): boolean {
  return isApiError(e) && e.code === OFFLINE;
}

/** Resolves after `ms`, or as soon as the browser says it is online again. */
function nextTry(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      window.clearTimeout(timer);
      window.removeEventListener("online", done);
      resolve();
    };
    const timer = window.setTimeout(done, ms);
    window.addEventListener("online", done);
  });
}

/**
 * Sends with `send` until the server answers: while it cannot be reached, `waiting` is told
 * (once a try), and the same save is sent again when the browser is back online, or after 2,
 * 4, 8 and then every 15 seconds. A refusal or an answer ends it, as does `stopped()`.
 */
export async function untilReached<T>(send: () => Promise<T>, waiting: () => void, stopped = () => false): Promise<T> {
  let delay = 2000;
  for (;;) {
    try {
      return await send();
    } catch (e) {
      if (!unreached(e) || stopped()) throw e;
      waiting();
      await nextTry(delay);
      delay = Math.min(delay * 2, 15_000);
    }
  }
}

/** What a refused save says: the server's own words (and where its problem is), or why nothing was saved. */
export function refusal(e: unknown): { title: string; text: string; place?: Place | null } {
  if (isApiError(e) && e.status === 401) {
    window.dispatchEvent(new Event(SESSION_EXPIRED));
    // The session's end is said once, in the server's words, in the sign-in dialog too.
    return e.error && e.code !== "reauth"
      ? { title: e.title, text: `${e.error} Nic nie zapisano: Twoje zmiany są w formularzu, zapisz je po zalogowaniu.` }
      : EXPIRED;
  }
  if (unreached(e)) return UNREACHED;
  return isApiError(e) && [409, 422].includes(e.status) && e.error
    ? { title: "Błąd", text: e.error, place: placeOf(e.problems) }
    : SAVE_FAILED;
}

/**
 * What a save that went through says: when it was published, or, for an article that is not
 * on the site yet, when it will be ('Zaplanowano na 03.12.2026 10:00') or that it is not.
 */
export function savedAt(saved?: Pick<Editable, "status" | "settings"> | null, published = true): Outcome {
  const time = new Date().toLocaleTimeString("pl-PL", { hour: "2-digit", minute: "2-digit" });
  if (!published) {
    // A production server holds the site back while the practice's facts are example data.
    return {
      ok: true,
      text: `Zapisano o ${time}. Strona nie jest jeszcze opublikowana: dane gabinetu są przykładowe (zob. „Przed publikacją strony”).`,
    };
  }
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

/**
 * The update of a form's value by what the server holds (`server`): on a load always; on the
 * reload after a save (`sent`: the value that save sent) only while the form still holds that
 * value, so that a change typed while the save was on its way stays in the form, unsaved.
 */
export function fromServer<T>(server: T, sent?: T): (now: T) => T {
  return (now) => (sent === undefined || now === sent ? server : now);
}

/**
 * {@link fromServer} for a list whose new rows the server gives their ids (sent with `id: ""`):
 * rows edited while the save was on its way stay as typed, but with the ids that save gave the
 * new ones, so that the next save does not send them as new again. Only while the list holds
 * the rows sent, in their order; a row added, removed or moved meanwhile leaves it as typed.
 */
export function rowsFromServer<T extends { id: string }>(server: T[], sent?: T[]): (now: T[]) => T[] {
  return (now) => {
    if (sent === undefined || now === sent) return server;
    const same =
      now.length === sent.length && server.length === sent.length && now.every((row, i) => row.id === sent[i]?.id);
    if (!same) return now;
    return now.map((row, i) => (row.id === "" ? { ...row, id: server[i]?.id ?? "" } : row));
  };
}

/**
 * Sends a form's value `sent`, reloads it, and says how it went (the server's own words for a
 * refusal). The reload is told what was sent, so that it keeps what she typed while the save
 * was on its way ({@link fromServer}).
 */
export async function saveForm<T>(
  toast: Toast,
  sent: T,
  send: (value: T) => Promise<{ warning: string | null; publishing: PublishingStatus; published: boolean }>,
  reload: (sent: T) => Promise<void>,
  waiting: (outcome: Outcome) => void = () => undefined,
): Promise<Outcome> {
  try {
    const result = await untilReached(
      () => send(sent),
      () => waiting(WAITING),
    );
    // The form holds what the server has before it says 'saved': a field she changes after
    // reading it is not replaced by the reload (each view's load says its own failure).
    await reload(sent);
    toast("success", SAVED);
    if (result.warning) toast("error", { title: "Uwaga", text: result.warning });
    void watchPublishing(toast, result.publishing);
    return savedAt(null, result.published);
  } catch (e) {
    const message = refusal(e);
    // A session that ended is said by the sign-in dialog: one message, not two.
    if (!(isApiError(e) && e.status === 401)) toast("error", message);
    return { ok: false, text: message.text, place: message.place ?? null };
  }
}
