// The drafts of the open page offered back: one kept in this browser, one kept on the server
// ('Zapisz jako szkic'), each taken into the editor or dropped.
import type { Editable, ServerDraft } from "../api";
import type { Draft } from "../drafts";
import { formatTime } from "../time";
import { dropOffered, dropServerDraft, takeDraft, takeServerDraft } from "./store";

export default function DraftOffers({
  page,
  draft,
  serverDraft,
}: {
  page: Editable;
  draft: Draft | undefined;
  serverDraft: ServerDraft | undefined;
}) {
  return (
    <>
      {draft && (
        <div className="form-notice" role="status">
          <p>
            Masz niezapisany szkic tej strony z {formatTime(draft.at)}.
            {draft.version !== page.version && " Strona zmieniła się od tego czasu."}
          </p>
          <button type="button" className="btn btn-primary btn-small" onClick={() => takeDraft(page, draft)}>
            Przywróć szkic
          </button>{" "}
          <button type="button" className="btn btn-secondary btn-small" onClick={() => dropOffered(page.id)}>
            Odrzuć szkic
          </button>
        </div>
      )}
      {serverDraft && (
        <div className="form-notice" role="status">
          <p>
            Na serwerze jest szkic tej strony z {formatTime(serverDraft.savedAt * 1000)} ({serverDraft.author}).
            {serverDraft.version !== page.version && " Strona zmieniła się od tego czasu."}
          </p>
          <button
            type="button"
            className="btn btn-primary btn-small"
            onClick={() => takeServerDraft(page, serverDraft)}
          >
            Wczytaj szkic z serwera
          </button>{" "}
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void dropServerDraft(page.id)}>
            Odrzuć szkic z serwera
          </button>
        </div>
      )}
    </>
  );
}
