// The sidecar's admin API (read pages, update page), and
// what the panel edits beside the sections: settings, previews, new and deleted articles,
// drafts on the server, the price list, the practice's facts and pictures.

import { failure, offline, request, type ApiError, type CallOptions } from "./http";
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
  Picture,
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

/** The largest picture the server takes: 15 MB (defined once in Rust). */
export { MAX_IMAGE_BYTES } from "../generated/schema";

export { isApiError, offline, OFFLINE, request, SIGNED_OUT, type ApiError, type CallOptions } from "./http";

export const api = {
  pages: () => request<Editable[]>("GET", "/api/pages"),
  save: (id: string, sections: Section[], settings: Settings, version: string) =>
    request<Changed>("PUT", `/api/pages/${id}`, { content: { sections }, settings, version } satisfies SaveBody),
  remove: (id: string, version: string) =>
    request<Changed>("DELETE", `/api/pages/${id}`, { version } satisfies VersionBody),
  revisions: (id: string) => request<Revision[]>("GET", `/api/pages/${id}/revisions`),
  restore: (id: string, revision: number, version: string) =>
    request<Changed>("POST", `/api/pages/${id}/revisions/${revision}/restore`, { version } satisfies VersionBody),
  publishing: (options?: CallOptions) => request<PublishingStatus>("GET", "/api/publishing", undefined, options),
  proposeSlug: (title: string) => request<SlugProposal>("GET", `/api/articles/slug?title=${encodeURIComponent(title)}`),
  createArticle: (title: string, slug: string, author: string) =>
    request<ArticleCreated>("POST", "/api/articles", {
      title,
      slug,
      ...(author.trim() ? { author: author.trim() } : {}),
    } satisfies NewArticle),
  deleted: () => request<DeletedView[]>("GET", "/api/deleted"),
  undelete: (id: string) => request<Changed>("POST", `/api/deleted/${id}/restore`),
  drafts: () => request<ServerDraft[]>("GET", "/api/drafts"),
  putDraft: (id: string, sections: Section[], settings: Settings, version: string) =>
    request<ServerDraft>("PUT", `/api/drafts/${id}`, { content: { sections }, settings, version } satisfies Unsaved),
  dropDraft: (id: string) => request<unknown>("DELETE", `/api/drafts/${id}`),
  prices: () => request<Prices>("GET", "/api/prices"),
  savePrices: (items: PriceRow[], version: string) =>
    request<Changed>("PUT", "/api/prices", { items, version } satisfies PricesBody),
  words: () => request<WordsEditable>("GET", "/api/words"),
  saveWords: (values: Record<string, string>, version: string) =>
    request<Changed>("PUT", "/api/words", { values, version } satisfies WordsBody),
  facts: () => request<FactsEditable>("GET", "/api/facts"),
  saveFacts: (facts: PracticeFacts, version: string) =>
    request<Changed>("PUT", "/api/facts", { facts, version } satisfies FactsBody),
  images: (options?: CallOptions) => request<Picture[]>("GET", "/api/images", undefined, options),
  removeImage: (file: string) => request<unknown>("DELETE", `/api/images/${encodeURIComponent(file)}`),
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
    request<MessageList>("GET", email ? `/api/messages?email=${encodeURIComponent(email)}` : "/api/messages"),
  retry: (id: number) => request<Message>("POST", `/api/messages/${id}/retry`),
  release: (id: number) => request<Message>("POST", `/api/messages/${id}/release`),
  remove: (id: number) => request<unknown>("DELETE", `/api/messages/${id}`),
  eraseSender: (email: string) => request<Erased>("DELETE", `/api/messages?email=${encodeURIComponent(email)}`),
  exportOf: (email: string, format: ExportFormat) => download(exportUrl(email, format)),
};

/** 'Statystyki': the report of a period, and every count of it as CSV. */
export const statistics = {
  read: (period: StatsPeriod) => request<Statistics>("GET", `/api/stats?period=${period}`),
  csv: (period: StatsPeriod) => download(`/api/stats/export?period=${period}`),
};

export const team = {
  list: () => request<TeamMember[]>("GET", "/api/team"),
  save: (slug: string, profile: Profile, version: string) =>
    request<TeamChanged>("PUT", `/api/team/${slug}`, { profile, version } satisfies ProfileBody),
  create: (profile: Profile) => request<TeamChanged>("POST", "/api/team", { profile } satisfies NewProfile),
  reorder: (order: OrderItem[]) => request<TeamChanged>("PUT", "/api/team/order", { order } satisfies OrderBody),
  remove: (slug: string, version: string) =>
    request<TeamChanged>("DELETE", `/api/team/${slug}`, { version } satisfies VersionBody),
};
