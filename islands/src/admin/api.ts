// The sidecar's admin API (SPEC §7: session, sign in, sign out, read pages, update page).

export interface Section {
  type: string;
  content: string;
}

export interface Page {
  /** `folder/slug`, for example `blog/terapia-cbt`: the document's id in every call. */
  id: string;
  kind: "page" | "service" | "article";
  /** The heading of its group of tabs. */
  group: string;
  /** Where it is shown on the public site. */
  route: string | null;
  title: string;
  content: { sections: Section[] };
  version: string;
}

export interface Revision {
  id: number;
  savedAt: number;
  author: string;
}

export type Delivery = "pending" | "delivered" | "failed";
export type SpamReason = "honeypot" | "too_fast" | "bad_token";

/** A contact message as the inbox shows it. */
export interface Message {
  id: number;
  receivedAt: number;
  name: string;
  email: string;
  phone: string;
  countryCode: string;
  fullPhone: string;
  message: string;
  status: Delivery;
  attempts: number;
  lastError: string | null;
  deliveredAt: number | null;
  spam: SpamReason | null;
  held: boolean;
}

export interface ApiError {
  status: number;
  title: string;
  error: string;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers = { ...init.headers, "Content-Type": "application/json" };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = (await response.json().catch(() => ({}))) as Partial<ApiError>;
  if (!response.ok) {
    throw { status: response.status, title: data.title ?? "Błąd", error: data.error ?? "" } satisfies ApiError;
  }
  return data as T;
}

export const api = {
  session: () => call<{ email: string | null }>("GET", "/api/auth/session"),
  login: (email: string, password: string) => call<{ email: string }>("POST", "/api/auth/login", { email, password }),
  logout: () => fetch("/api/auth/logout", { method: "POST", credentials: "same-origin" }),
  pages: () => call<Page[]>("GET", "/api/pages"),
  save: (id: string, sections: Section[], version: string) =>
    call<{ version: string; warning: string | null }>("PUT", `/api/pages/${id}`, { content: { sections }, version }),
  revisions: (id: string) => call<Revision[]>("GET", `/api/pages/${id}/revisions`),
  restore: (id: string, revision: number, version: string) =>
    call<{ version: string; warning: string | null }>("POST", `/api/pages/${id}/revisions/${revision}/restore`, {
      version,
    }),
};

/** Where the JSON export of one sender's messages is downloaded from. */
export const exportUrl = (email: string) => `/api/messages/export?email=${encodeURIComponent(email)}`;

export const inbox = {
  list: (email?: string) =>
    call<{ messages: Message[] }>("GET", email ? `/api/messages?email=${encodeURIComponent(email)}` : "/api/messages"),
  retry: (id: number) => call<Message>("POST", `/api/messages/${id}/retry`),
  release: (id: number) => call<Message>("POST", `/api/messages/${id}/release`),
  remove: (id: number) => call<unknown>("DELETE", `/api/messages/${id}`),
  eraseSender: (email: string) =>
    call<{ deleted: number }>("DELETE", `/api/messages?email=${encodeURIComponent(email)}`),
};

export function isApiError(e: unknown): e is ApiError {
  return typeof e === "object" && e !== null && "status" in e;
}
