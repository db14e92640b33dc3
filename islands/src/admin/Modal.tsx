// A modal dialog of the panel (native <dialog>: the page behind is inert, Escape closes it).
// The focus starts on the element marked `data-autofocus`, if there is one, and Tab goes
// round within the dialog instead of out to the browser's own controls.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from "react";

const FOCUSABLE = "button, input, select, textarea, a[href], [tabindex]";

/** What Tab stops at inside `root`, in order (of a group of radio buttons, the checked one). */
function tabStops(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => {
    if (el.tabIndex < 0 || el.matches(":disabled") || el.getClientRects().length === 0) return false;
    if (el instanceof HTMLInputElement && el.type === "radio" && el.name) {
      const group = [...root.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${CSS.escape(el.name)}"]`)];
      return group.some((r) => r.checked) ? el.checked : group[0] === el;
    }
    return true;
  });
}

/** Keeps Tab and Shift+Tab inside the dialog: from its last stop to its first, and back. */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== "Tab") return;
  const stops = tabStops(event.currentTarget);
  const first = stops[0];
  const last = stops[stops.length - 1];
  const here = document.activeElement;
  if (!first || !last) return;
  if (!event.shiftKey && here === last) {
    event.preventDefault();
    first.focus();
  } else if (event.shiftKey && here === first) {
    event.preventDefault();
    last.focus();
  }
}

export interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
}

export default function Modal({ title, onClose, children }: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) {
      d.showModal();
      d.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="admin-dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      onKeyDown={keepFocusInside}
    >
      <div className="booking-dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="dialog-close" aria-label="Zamknij" onClick={onClose}>
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
            <path d="M5 5l14 14M19 5L5 19" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      {children}
    </dialog>
  );
}
