// 'Usunięte artykuły': the articles deleted in the panel, each one tap from coming back.
import type { DeletedView } from "../api";
import { formatTime } from "../time";

export default function Deleted({
  list,
  onRestore,
}: {
  list: DeletedView[];
  onRestore: (article: DeletedView) => void;
}) {
  if (list.length === 0) return null;
  return (
    <details className="deleted">
      <summary>Usunięte artykuły ({list.length})</summary>
      <ul>
        {list.map((d) => (
          <li key={d.id}>
            <span>
              {d.title || d.id} <span className="muted">· usunięty {formatTime(d.deletedAt * 1000)}</span>
            </span>
            <button type="button" className="btn btn-secondary btn-small" onClick={() => onRestore(d)}>
              Przywróć<span className="visually-hidden"> artykuł {d.title || d.id}</span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
