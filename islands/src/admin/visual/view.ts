// Which view the section editors show, 'visual' (the text as it will look, the default) or
// 'markdown' (the text with its Markdown signs): remembered per browser, as each person likes.
import { useState } from "react";

export type EditorView = "visual" | "markdown";

export const VIEW_KEY = "harmonia-editor-view";

/** The id of the visual view's short guide to its shortcuts, which its text areas point to. */
export const VISUAL_HELP = "visual-editor-keys";

/** The view this browser last chose, else the visual one. */
export function storedView(): EditorView {
  try {
    return localStorage.getItem(VIEW_KEY) === "markdown" ? "markdown" : "visual";
  } catch {
    return "visual";
  }
}

/** The view chosen in this browser, and how to choose another (kept for the next visit). */
export function useEditorView(): [EditorView, (view: EditorView) => void] {
  const [view, setView] = useState<EditorView>(storedView);
  const choose = (next: EditorView) => {
    setView(next);
    try {
      localStorage.setItem(VIEW_KEY, next);
    } catch {
      // A browser that keeps nothing still switches, for this visit.
    }
  };
  return [view, choose];
}
