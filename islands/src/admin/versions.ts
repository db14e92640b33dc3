// 'Historia zmian' of any file the panel changes: its versions, one version beside the
// current text, a version's preview address and its restore. A file is named by its id in
// the history: `folder/slug` for documents, `cennik.yaml` and `site.yaml` for the data.
import { request } from "./api";

export const PRICES_DOC = "cennik.yaml";
export const FACTS_DOC = "site.yaml";

/** Which text of a revision a version is: the one it saved, or the one it replaced. */
export type Side = "after" | "before";

export interface Version {
  revision: number;
  side: Side;
  savedAt: number;
  author: string;
  action: "save" | "create" | "delete" | "restore";
  /** The file has this text now. */
  current: boolean;
}

const query = (doc: string, v: Pick<Version, "revision" | "side">) =>
  `doc=${encodeURIComponent(doc)}&revision=${v.revision}&side=${v.side}`;

export const history = {
  list: (doc: string) =>
    request<{ doc: string; entries: Version[] }>("GET", `/api/history?doc=${encodeURIComponent(doc)}`),
  texts: (doc: string, v: Version) =>
    request<{ text: string; current: string }>("GET", `/api/history/version?${query(doc, v)}`),
  restore: (doc: string, v: Pick<Version, "revision" | "side">, version: string) =>
    request<{ version: string; warning: string | null }>("POST", "/api/history/restore", {
      doc,
      revision: v.revision,
      side: v.side,
      version,
    }),
};

/** Where a document's version is shown rendered with the site's templates. */
export const previewUrl = (doc: string, v: Version) => `/api/preview/version?${query(doc, v)}`;
