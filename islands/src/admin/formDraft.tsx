// 'Cennik' and 'Dane gabinetu' keep every change in this browser until it is saved, like the
// page editor: a reload, a crash, a closed tab or another view loses nothing, and the next
// visit offers the draft back.
import { useEffect, useState } from "react";
import { dropDraft, loadDraft, saveDraft } from "./drafts";

export interface FormDraft<T> {
  value: T;
  /** The version of the file the draft was made from. */
  version: string;
  at: number;
}

export interface Loaded<T> {
  value: T;
  version: string;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function formatTime(ms: number): string {
  return new Date(ms).toLocaleString("pl-PL", { dateStyle: "long", timeStyle: "short" });
}

/**
 * The draft of a form's file `doc`: kept while `value` differs from what was loaded, offered
 * back when the form loads and the draft differs; `dirty` says whether there is anything
 * unsaved, and is reported to `onDirty` (the panel asks before leaving the form).
 */
export function useFormDraft<T>(
  doc: string,
  loaded: Loaded<T> | null,
  value: T | null,
  onDirty: (dirty: boolean) => void,
) {
  const [offered, setOffered] = useState<FormDraft<T> | null>(null);
  useEffect(() => {
    if (!loaded) return;
    const draft = loadDraft<FormDraft<T>>(doc);
    setOffered(draft && !same(draft.value, loaded.value) ? draft : null);
  }, [doc, loaded]);
  const dirty = loaded !== null && value !== null && !same(value, loaded.value);
  useEffect(() => {
    // What was just loaded is no edit; an edit typed back to the saved text is no draft.
    if (!loaded || value === null || value === loaded.value) return;
    if (dirty) saveDraft<FormDraft<T>>(doc, { value, version: loaded.version, at: Date.now() });
    else dropDraft(doc);
  }, [doc, loaded, value, dirty]);
  useEffect(() => {
    onDirty(dirty);
    return () => onDirty(false);
  }, [dirty, onDirty]);
  return {
    dirty,
    offered,
    /** The offer answered: the draft taken into the form, or dropped. */
    settle: (kept: boolean) => {
      if (!kept) dropDraft(doc);
      setOffered(null);
    },
    /** After a save: nothing unsaved is left. */
    saved: () => dropDraft(doc),
  };
}

/** The offer of a draft kept in this browser: take it back into the form, or drop it. */
export function DraftNotice({
  what,
  at,
  stale,
  onRestore,
  onDiscard,
}: {
  what: string;
  at: number;
  stale: boolean;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  return (
    <div className="form-notice" role="status">
      <p>
        Masz niezapisany szkic {what} z {formatTime(at)}.{stale && " Zapisana wersja zmieniła się od tego czasu."}
      </p>
      <button type="button" className="btn btn-primary btn-small" onClick={onRestore}>
        Przywróć szkic
      </button>{" "}
      <button type="button" className="btn btn-secondary btn-small" onClick={onDiscard}>
        Odrzuć szkic
      </button>
    </div>
  );
}
