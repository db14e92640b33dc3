// Unsaved edits are kept in this browser until they are saved, so a reload, a crash or a
// failed save loses nothing.
import type { Section, Settings } from "./api";

export interface Draft {
  sections: Section[];
  /** Absent in drafts kept before settings were editable. */
  settings?: Settings;
  version: string;
  at: number;
}

const key = (id: string) => `harmonia-draft:${id}`;

export function loadDraft<T = Draft>(id: string): T | null {
  try {
    const text = localStorage.getItem(key(id));
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

export function saveDraft<T = Draft>(id: string, draft: T): void {
  try {
    localStorage.setItem(key(id), JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the edit stays in the editor.
  }
}

export function dropDraft(id: string): void {
  try {
    localStorage.removeItem(key(id));
  } catch {
    // nothing to drop
  }
}

export function sameSections(a: Section[], b: Section[]): boolean {
  return a.length === b.length && a.every((s, i) => s.type === b[i]?.type && s.content === b[i]?.content);
}

export function sameSettings(a: Settings | undefined, b: Settings): boolean {
  if (!a) return true;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof Settings>;
  return [...keys].every((k) => a[k] === b[k]);
}
