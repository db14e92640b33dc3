// The sidecar's admin API (SPEC §7: session, sign in, sign out, read pages, update page), and
// what the panel edits beside the sections: settings, previews, new and deleted articles,
// drafts on the server, the price list, the practice's facts and pictures.

export interface Section {
  type: string;
  content: string;
}

/** The front-matter fields edited beside the sections; the last five only for articles. */
export interface Settings {
  title: string;
  description: string;
  image: string;
  imageAlt: string;
  date?: string;
  excerpt?: string;
  listed?: boolean;
  featured?: boolean;
  published?: boolean;
}

export type Status = "published" | "scheduled" | "unpublished";

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
  settings: Settings;
  /** Articles only: whether it is on the site now. */
  status?: Status;
  version: string;
}

export interface Revision {
  id: number;
  savedAt: number;
  author: string;
  action: "save" | "create" | "delete" | "restore";
}

export interface Saved {
  version: string;
  warning: string | null;
}

export interface DeletedArticle {
  id: string;
  title: string;
  deletedAt: number;
  author: string;
}

export interface ServerDraft {
  docId: string;
  author: string;
  savedAt: number;
  version: string;
  body: { content: { sections: Section[] }; settings: Settings | null };
}

export interface PriceRow {
  name: string;
  price: number;
  from: boolean;
  duration: string;
  link: string;
  note: string;
  /** Where the row was in the file, so an unchanged row keeps its lines; null when new. */
  origin: number | null;
}

export interface Prices {
  items: PriceRow[];
  services: { route: string; title: string }[];
  version: string;
}

export interface Hours {
  days: string[];
  opens: string;
  closes: string;
}

export interface Notice {
  text: string;
  from: string;
  until: string;
}

export interface Facts {
  phone: string;
  email: string;
  street: string;
  postalCode: string;
  city: string;
  openingHours: Hours[];
  bookingUrl: string;
  therapistBooking: Record<string, string>;
  notice: Notice | null;
}

export interface FactsEditable {
  facts: Facts;
  therapists: Record<string, string>;
  /** Facts of site.yaml that are still example data, by their Polish names. */
  exampleData: string[];
  version: string;
}

export interface Picture {
  file: string;
  url: string;
  alt: string | null;
  bytes: number;
}

/** The largest picture the server takes: 15 MB. */
export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;

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
  /** What to do before trying again: `reauth` (confirm who you are). */
  code?: string;
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
    throw {
      status: response.status,
      title: data.title ?? "Błąd",
      error: data.error ?? "",
      ...(data.code ? { code: data.code } : {}),
    } satisfies ApiError;
  }
  return data as T;
}

/** A call of the API that answers JSON (the panel's other modules build on it). */
export const request = call;

export const api = {
  session: () => call<{ email: string | null }>("GET", "/api/auth/session"),
  login: (email: string, password: string) =>
    call<{ email: string } | { secondFactor: true }>("POST", "/api/auth/login", { email, password }),
  logout: () => fetch("/api/auth/logout", { method: "POST", credentials: "same-origin" }),
  pages: () => call<Page[]>("GET", "/api/pages"),
  save: (id: string, sections: Section[], settings: Settings, version: string) =>
    call<Saved>("PUT", `/api/pages/${id}`, { content: { sections }, settings, version }),
  remove: (id: string, version: string) => call<Saved>("DELETE", `/api/pages/${id}`, { version }),
  revisions: (id: string) => call<Revision[]>("GET", `/api/pages/${id}/revisions`),
  restore: (id: string, revision: number, version: string) =>
    call<{ version: string; warning: string | null }>("POST", `/api/pages/${id}/revisions/${revision}/restore`, {
      version,
    }),
  proposeSlug: (title: string) =>
    call<{ slug: string; route: string | null; taken: boolean }>(
      "GET",
      `/api/articles/slug?title=${encodeURIComponent(title)}`,
    ),
  createArticle: (title: string, slug: string) =>
    call<Saved & { id: string; route: string }>("POST", "/api/articles", { title, slug }),
  deleted: () => call<DeletedArticle[]>("GET", "/api/deleted"),
  undelete: (id: string) => call<Saved>("POST", `/api/deleted/${id}/restore`),
  drafts: () => call<ServerDraft[]>("GET", "/api/drafts"),
  putDraft: (id: string, sections: Section[], settings: Settings, version: string) =>
    call<ServerDraft>("PUT", `/api/drafts/${id}`, { content: { sections }, settings, version }),
  dropDraft: (id: string) => call<unknown>("DELETE", `/api/drafts/${id}`),
  prices: () => call<Prices>("GET", "/api/prices"),
  savePrices: (items: PriceRow[], version: string) => call<Saved>("PUT", "/api/prices", { items, version }),
  facts: () => call<FactsEditable>("GET", "/api/facts"),
  saveFacts: (facts: Facts, version: string) => call<Saved>("PUT", "/api/facts", { facts, version }),
  images: () => call<Picture[]>("GET", "/api/images"),
  removeImage: (file: string) => call<unknown>("DELETE", `/api/images/${encodeURIComponent(file)}`),
  upload: async (file: File, alt: string): Promise<Picture> => {
    const query = `name=${encodeURIComponent(file.name)}&alt=${encodeURIComponent(alt)}`;
    const response = await fetch(`/api/images?${query}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json", "Content-Type": file.type || "application/octet-stream" },
      body: file,
    });
    const data = (await response.json().catch(() => ({}))) as Partial<ApiError> & Picture;
    if (!response.ok) {
      throw { status: response.status, title: data.title ?? "Błąd", error: data.error ?? "" } satisfies ApiError;
    }
    return data;
  },
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
  data.value = JSON.stringify({ content: { sections }, settings });
  form.append(data);
  document.body.append(form);
  form.submit();
  form.remove();
}

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
