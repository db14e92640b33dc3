// How the panel calls the sidecar's API: JSON both ways, a refusal thrown as an `ApiError` with
// the server's Polish words, and a session that ended announced to the whole panel.
import type { ErrorBody, ErrorCode } from "./generated/api";

/** A refusal as the panel handles it: the server's body with the HTTP status. */
export interface ApiError extends Pick<ErrorBody, "title" | "error" | "problems"> {
  status: number;
  /** The server's `ErrorCode`, or `offline`: the call never reached the server. */
  code?: ErrorCode | typeof OFFLINE;
}

/** The window event that says the session ended (its `detail` is the server's sentence). */
export const SIGNED_OUT = "harmonia:signed-out";

/** How a call is made: `background` for one the panel makes by itself (a refresh, a poll). */
export interface CallOptions {
  background?: boolean;
}

/** A call of the API that answers JSON. */
export async function request<T>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  // Not the administrator's own action: the server does not count it as use of the session.
  if (options.background) headers["X-Panel-Background"] = "1";
  const init: RequestInit = { method, credentials: "same-origin", headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw offline();
  }
  if (!response.ok) throw await failure(response);
  return (await response.json().catch(() => ({}))) as T;
}

/** The `code` of a call that never reached the server (no network, or the server is down). */
export const OFFLINE = "offline";

/** A call that never reached the server: nothing was refused, nothing was done. */
export function offline(): ApiError {
  return { status: 0, title: "Brak połączenia", error: "Brak połączenia z serwerem.", code: OFFLINE };
}

/** The codes of a session that ended, each with the server's sentence of why. */
const ENDED: (string | undefined)[] = ["signed_out", "signed_out_elsewhere", "password_changed"];

/** The error of a refused call, as the panel shows it; a lost session is announced. */
export async function failure(response: Response): Promise<ApiError> {
  const data = (await response.json().catch(() => ({}))) as Partial<ApiError>;
  // The edge (nginx, a CDN) answers for a server it cannot reach, in words of its own.
  if ([502, 503, 504].includes(response.status) && !data.error) return offline();
  if (response.status === 401 && ENDED.includes(data.code)) {
    window.dispatchEvent(new CustomEvent(SIGNED_OUT, { detail: data.error ?? "" }));
  }
  return {
    status: response.status,
    title: data.title ?? "Błąd",
    error: data.error ?? "",
    ...(data.code ? { code: data.code } : {}),
    ...(data.problems ? { problems: data.problems } : {}),
  };
}

export function isApiError(e: unknown): e is ApiError {
  return typeof e === "object" && e !== null && "status" in e;
}

/** The server's own words for a refusal, or `fallback` when it said none. */
export function errorText(e: unknown, fallback: string): string {
  return isApiError(e) && e.error ? e.error : fallback;
}
