// A modal dialog of the panel (native <dialog>: focus kept inside, Escape closes it).
import { useEffect, useId, useRef, type ReactNode } from "react";

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
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog ref={dialog} className="admin-dialog" aria-labelledby={titleId} onClose={onClose}>
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
