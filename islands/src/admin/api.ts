// The sidecar's admin API (session, sign in, sign out, read pages, update page), and
// what the panel edits beside the sections: settings, previews, new and deleted articles,
// drafts on the server, the price list, the practice's facts and pictures.

import type {
  ArticleCreated,
  Changed,
  DeletedView,
  Editable,
  ErrorBody,
  Erased,
  FactsBody,
  FactsEditable,
  WordsBody,
  WordsEditable,
  Message,
  MessageList,
  NewArticle,
  NewProfile,
  OrderBody,
  OrderItem,
  PracticeFacts,
  PriceRow,
  Prices,
  PricesBody,
  Profile,
  ProfileBody,
  PublishingStatus,
  Revision,
  SaveBody,
  Section,
  ServerDraft,
  Settings,
  SlugProposal,
  Statistics,
  StatsPeriod,
  TeamChanged,
  TeamMember,
  Unsaved,
  VersionBody,
} from "./generated/api";

// The API's own types are generated from the server's (./generated/api.ts, `make api-types`).
export type * from "./generated/api";

export interface Picture {
  file: string;
  url: string;
  alt: string | null;
  bytes: number;
  /** Its lighter variants for the pages are still being made (it is shown as it is until then). */
  pending: boolean;
}

/** The largest picture the server takes: 15 MB (defined once in Rust). */
export { MAX_IMAGE_BYTES } from "../generated/schema";

/** A refusal as the panel handles it: the server's body with the HTTP status. */
export interface ApiError extends Pick<ErrorBody, "title" | "error" | "code" | "problems"> {
  status: number;
}

/** The window event that says the session ended (its `detail` is the server's sentence). */
export const SIGNED_OUT = "harmonia:signed-out";

/** How a call is made: `background` for one the panel makes by itself (a refresh, a poll). */
export interface CallOptions {
  background?: boolean;
}

async function call<T>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
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
function offline(): ApiError {
  return { status: 0, title: "Brak połączenia", error: "Brak połączenia z serwerem.", code: OFFLINE };
}

/** The codes of a session that ended, each with the server's sentence of why. */
const ENDED = ["signed_out", "signed_out_elsewhere", "password_changed"];

/** The error of a refused call, as the panel shows it; a lost session is announced. */
async function failure(response: Response): Promise<ApiError> {
  const data = (await response.json().catch(() => ({}))) as Partial<ApiError>;
  // The edge (nginx, a CDN) answers for a server it cannot reach, in words of its own.
  if ([502, 503, 504].includes(response.status) && !data.error) return offline();
  if (response.status === 401 && data.code && ENDED.includes(data.code)) {
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

/** A call of the API that answers JSON (the panel's other modules build on it). */
export const request = call;

export const api = {
  session: () => call<{ email: string | null }>("GET", "/api/auth/session"),
  login: (email: string, password: string) =>
    call<{ email: string } | { secondFactor: true }>("POST", "/api/auth/login", { email, password }),
  logout: () => fetch("/api/auth/logout", { method: "POST", credentials: "same-origin" }),
  pages: () => call<Editable[]>("GET", "/api/pages"),
  save: (id: string, sections: Section[], settings: Settings, version: string) =>
    call<Changed>("PUT", `/api/pages/${id}`, { content: { sections }, settings, version } satisfies SaveBody),
  remove: (id: string, version: string) =>
    call<Changed>("DELETE", `/api/pages/${id}`, { version } satisfies VersionBody),
  revisions: (id: string) => call<Revision[]>("GET", `/api/pages/${id}/revisions`),
  restore: (id: string, revision: number, version: string) =>
    call<Changed>("POST", `/api/pages/${id}/revisions/${revision}/restore`, { version } satisfies VersionBody),
  publishing: (options?: CallOptions) => call<PublishingStatus>("GET", "/api/publishing", undefined, options),
  proposeSlug: (title: string) => call<SlugProposal>("GET", `/api/articles/slug?title=${encodeURIComponent(title)}`),
  createArticle: (title: string, slug: string, author: string) =>
    call<ArticleCreated>("POST", "/api/articles", {
      title,
      slug,
      ...(author.trim() ? { author: author.trim() } : {}),
    } satisfies NewArticle),
  deleted: () => call<DeletedView[]>("GET", "/api/deleted"),
  undelete: (id: string) => call<Changed>("POST", `/api/deleted/${id}/restore`),
  drafts: () => call<ServerDraft[]>("GET", "/api/drafts"),
  putDraft: (id: string, sections: Section[], settings: Settings, version: string) =>
    call<ServerDraft>("PUT", `/api/drafts/${id}`, { content: { sections }, settings, version } satisfies Unsaved),
  dropDraft: (id: string) => call<unknown>("DELETE", `/api/drafts/${id}`),
  prices: () => call<Prices>("GET", "/api/prices"),
  savePrices: (items: PriceRow[], version: string) =>
    call<Changed>("PUT", "/api/prices", { items, version } satisfies PricesBody),
  words: () => call<WordsEditable>("GET", "/api/words"),
  saveWords: (values: Record<string, string>, version: string) =>
    call<Changed>("PUT", "/api/words", { values, version } satisfies WordsBody),
  facts: () => call<FactsEditable>("GET", "/api/facts"),
  saveFacts: (facts: PracticeFacts, version: string) =>
    call<Changed>("PUT", "/api/facts", { facts, version } satisfies FactsBody),
  images: (options?: CallOptions) => call<Picture[]>("GET", "/api/images", undefined, options),
  removeImage: (file: string) => call<unknown>("DELETE", `/api/images/${encodeURIComponent(file)}`),
  /** Sends a picture, telling `onProgress` the bytes sent so far (XHR: fetch cannot say). */
  upload: (file: File, alt: string, onProgress?: (sent: number, total: number) => void): Promise<Picture> =>
    new Promise((resolve, reject) => {
      const query = `name=${encodeURIComponent(file.name)}&alt=${encodeURIComponent(alt)}`;
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `/api/images?${query}`);
      xhr.withCredentials = true;
      xhr.setRequestHeader("Accept", "application/json");
      xhr.setRequestHeader("Content-Type", file.type || "application/octet-stream");
      xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
      xhr.onerror = () => reject(offline());
      xhr.onload = () => {
        let data: Partial<ApiError> & Picture;
        try {
          data = JSON.parse(xhr.responseText) as Partial<ApiError> & Picture;
        } catch {
          data = {} as Partial<ApiError> & Picture;
        }
        if (xhr.status >= 200 && xhr.status < 300) resolve(data);
        else reject({ status: xhr.status, title: data.title ?? "Błąd", error: data.error ?? "" } satisfies ApiError);
      };
      xhr.send(file);
    }),
};

/**
 * Opens the preview of unsaved sections and settings in a new tab: a form posted there, so
 * the page has its own address and the browser's own controls.
 */
export function openPreview(id: string, sections: Section[], settings: Settings): void {
  const form = document.createElement("form");
  form.method = "post";
  form.action = `/api/preview/${id}`;
  form.target = "_blank";
  const data = document.createElement("input");
  data.type = "hidden";
  data.name = "data";
  data.value = JSON.stringify({ content: { sections }, settings } satisfies Unsaved);
  form.append(data);
  document.body.append(form);
  form.submit();
  form.remove();
}

/** The forms of one sender's export: a document she reads (art. 15) or JSON (art. 20). */
export type ExportFormat = "html" | "json";

/** Where the export of one sender's messages is downloaded from. */
export const exportUrl = (email: string, format: ExportFormat) =>
  `/api/messages/export?email=${encodeURIComponent(email)}&format=${format}`;

/** A file the API answers (an export): its bytes, or the API's error as `call` throws it. */
async function download(path: string): Promise<Blob> {
  const response = await fetch(path, { credentials: "same-origin" });
  if (!response.ok) throw await failure(response);
  return response.blob();
}

export const inbox = {
  list: (email?: string) =>
    call<MessageList>("GET", email ? `/api/messages?email=${encodeURIComponent(email)}` : "/api/messages"),
  retry: (id: number) => call<Message>("POST", `/api/messages/${id}/retry`),
  release: (id: number) => call<Message>("POST", `/api/messages/${id}/release`),
  remove: (id: number) => call<unknown>("DELETE", `/api/messages/${id}`),
  eraseSender: (email: string) => call<Erased>("DELETE", `/api/messages?email=${encodeURIComponent(email)}`),
  exportOf: (email: string, format: ExportFormat) => download(exportUrl(email, format)),
};

/** 'Statystyki': the report of a period, and every count of it as CSV. */
export const statistics = {
  read: (period: StatsPeriod) => call<Statistics>("GET", `/api/stats?period=${period}`),
  csv: (period: StatsPeriod) => download(`/api/stats/export?period=${period}`),
};

export function isApiError(e: unknown): e is ApiError {
  return typeof e === "object" && e !== null && "status" in e;
}

export const team = {
  list: () => call<TeamMember[]>("GET", "/api/team"),
  save: (slug: string, profile: Profile, version: string) =>
    call<TeamChanged>("PUT", `/api/team/${slug}`, { profile, version } satisfies ProfileBody),
  create: (profile: Profile) => call<TeamChanged>("POST", "/api/team", { profile } satisfies NewProfile),
  reorder: (order: OrderItem[]) => call<TeamChanged>("PUT", "/api/team/order", { order } satisfies OrderBody),
  remove: (slug: string, version: string) =>
    call<TeamChanged>("DELETE", `/api/team/${slug}`, { version } satisfies VersionBody),
};
