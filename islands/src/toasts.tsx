// Notifications: announced to screen readers, dismissable, gone after about 5 s.
import { useCallback, useRef, useState } from "react";

export type ToastKind = "success" | "error";

export interface ToastContent {
  title: string;
  text: string;
}

interface Toast extends ToastContent {
  id: number;
  kind: ToastKind;
}

export const TOAST_MS = 5000;

/** Shows a notification (what `useToasts` gives the parts of a page that report). */
export type ShowToast = (kind: ToastKind, content: ToastContent) => void;

export function useToasts() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback(
    (kind: ToastKind, content: ToastContent) => {
      const id = nextId.current++;
      setToasts((list) => [...list, { id, kind, ...content }]);
      setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );
  return { toasts, show, dismiss };
}

export function Toasts({ toasts, dismiss }: { toasts: Toast[]; dismiss: (id: number) => void }) {
  return (
    <div className="toasts" aria-live="polite" aria-atomic="false">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === "error" ? "alert" : "status"}>
          <div>
            <p className="toast-title">{t.title}</p>
            <p>{t.text}</p>
          </div>
          <button
            type="button"
            className="toast-close"
            aria-label="Zamknij powiadomienie"
            onClick={() => dismiss(t.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
