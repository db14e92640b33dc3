// An article's state in words at the top of its editor ('Szkic', 'Zaplanowany na 3.12, 10:00',
// 'Opublikowany') and what she can do with it: 'Opublikuj teraz', 'Zaplanuj…' (a day and an
// hour from the phone's own picker) and 'Wycofaj do szkicu'. Each saves the article with its
// edit at once.
import { useState, type FormEvent } from "react";
import type { Editable } from "../api";
import { nowStored, shortMoment } from "../dates";
import Modal from "../Modal";
import type { Toast } from "../saving";
import type { Edit } from "./state";
import { save } from "./store";

/** The article's state, as she reads it. */
export function stateText(page: Pick<Editable, "status" | "settings">): string {
  switch (page.status) {
    case "scheduled":
      return `Zaplanowany na ${shortMoment(page.settings.date ?? "")}`;
    case "unpublished":
      return "Szkic";
    default:
      return "Opublikowany";
  }
}

function Schedule({ onPick, onClose }: { onPick: (stored: string) => void; onClose: () => void }) {
  const now = nowStored().replace(" ", "T");
  const [value, setValue] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value) onPick(value.replace("T", " "));
  };
  return (
    <Modal title="Zaplanuj publikację" onClose={onClose}>
      <form className="admin-dialog-body" onSubmit={submit}>
        <div className="field">
          <label htmlFor="schedule-at">Dzień i godzina (czas polski)</label>
          <input
            id="schedule-at"
            type="datetime-local"
            min={now}
            value={value}
            required
            data-autofocus
            onChange={(e) => setValue(e.target.value)}
          />
        </div>
        <p className="muted">Artykuł ukaże się na stronie sam o tej porze. Do tego czasu widzisz go tylko tutaj.</p>
        <div className="editor-actions">
          <button type="submit" className="btn btn-primary" disabled={!value}>
            Zaplanuj
          </button>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Anuluj
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** When 'Opublikuj teraz' dates the article: its own date if that has passed, now otherwise. */
export function publishedAt(date: string | undefined, now = nowStored()): string {
  return date && date.trim() !== "" && date.trim() <= now ? date : now;
}

export default function PublishBar({
  page,
  current,
  saving,
  toast,
}: {
  page: Editable;
  current: Edit;
  saving: boolean;
  toast: Toast;
}) {
  const [scheduling, setScheduling] = useState(false);
  const publish = (published: boolean, date = current.settings.date) =>
    void save(page, { ...current, settings: { ...current.settings, published, ...(date ? { date } : {}) } }, toast);
  const scheduled = page.status === "scheduled";
  return (
    <div className="publish-bar">
      <p className={`status status-${page.status ?? "published"}`}>{stateText(page)}</p>
      <div className="publish-actions">
        {page.status !== "published" && (
          <button
            type="button"
            className="btn btn-primary btn-small"
            disabled={saving}
            onClick={() => publish(true, publishedAt(current.settings.date))}
          >
            Opublikuj teraz
          </button>
        )}
        {page.status !== "published" && (
          <button
            type="button"
            className="btn btn-secondary btn-small"
            disabled={saving}
            onClick={() => setScheduling(true)}
          >
            {scheduled ? "Zmień termin…" : "Zaplanuj…"}
          </button>
        )}
        {page.status !== "unpublished" && (
          <button
            type="button"
            className="btn btn-secondary btn-small"
            disabled={saving}
            onClick={() => publish(false)}
          >
            Wycofaj do szkicu
          </button>
        )}
      </div>
      {scheduling && (
        <Schedule
          onClose={() => setScheduling(false)}
          onPick={(date) => {
            setScheduling(false);
            publish(true, date);
          }}
        />
      )}
    </div>
  );
}
