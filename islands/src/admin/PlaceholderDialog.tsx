// 'Wstaw dane gabinetu': a fact of the practice put into a section as its placeholder
// (`{{ adres }}`), so that the text follows when the fact changes in 'Dane gabinetu'.
import Modal from "./Modal";
import type { Placeholder } from "./api";
import { chipText } from "./placeholders";

export default function PlaceholderDialog({
  placeholders,
  onInsert,
  onClose,
}: {
  placeholders: Placeholder[];
  onInsert: (name: string) => void;
  onClose: () => void;
}) {
  return (
    <Modal title="Wstaw dane gabinetu" onClose={onClose}>
      <div className="admin-dialog-body">
        <p className="muted">
          W tekście pojawi się znacznik, a na stronie aktualna wartość z „Dane gabinetu”: zmiana tam zmienia ją
          wszędzie.
        </p>
        {placeholders.length === 0 ? (
          <p role="status">Ładowanie danych gabinetu…</p>
        ) : (
          <ul className="placeholder-choices">
            {placeholders.map((p, i) => (
              <li key={p.name}>
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  data-autofocus={i === 0 || undefined}
                  onClick={() => onInsert(p.name)}
                >
                  <span className="chip">{chipText(p.label)}</span>
                  <span className="placeholder-value">{p.shown}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}
