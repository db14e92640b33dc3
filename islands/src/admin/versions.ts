// 'Historia zmian' of any file the panel changes: its versions, one version beside the
// current text, a version's preview address and its restore. A file is named by its id in
// the history: `folder/slug` for documents, `cennik.yaml`, `site.yaml` and `napisy.yaml` for the data.
import { request } from "./api";
import type { HistoryList, Changed, Side, Version, VersionTexts } from "./generated/api";

export const PRICES_DOC = "cennik.yaml";
export const FACTS_DOC = "site.yaml";
export const WORDS_DOC = "napisy.yaml";

// The answers' types are generated from the server's (./generated/api.ts, `make api-types`).
export type { Side, Version, VersionTexts };

const query = (doc: string, v: Pick<Version, "revision" | "side">) =>
  `doc=${encodeURIComponent(doc)}&revision=${v.revision}&side=${v.side}`;

export const history = {
  list: (doc: string) => request<HistoryList>("GET", `/api/history?doc=${encodeURIComponent(doc)}`),
  texts: (doc: string, v: Version) => request<VersionTexts>("GET", `/api/history/version?${query(doc, v)}`),
  restore: (doc: string, v: Pick<Version, "revision" | "side">, version: string) =>
    request<Changed>("POST", "/api/history/restore", {
      doc,
      revision: v.revision,
      side: v.side,
      version,
    }),
};

/** Where a document's version is shown rendered with the site's templates. */
export const previewUrl = (doc: string, v: Version) => `/api/preview/version?${query(doc, v)}`;
