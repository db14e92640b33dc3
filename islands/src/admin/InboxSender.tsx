// One sender's messages in 'Wiadomości': shown alone, exported for them (a document to read, or
// data to take elsewhere), or erased with every copy on the server (RODO art. 15, 17, 20).
import { useState, type FormEvent } from "react";
import { inbox, isApiError, type Erased, type ExportFormat } from "./api";
import { GUARDS, withReauth } from "./account";
import Modal from "./Modal";
import type { Toast } from "./saving";

const FAILED = { title: "Błąd", text: "Nie udało się wykonać tej operacji." };

const EXPORTS: Record<ExportFormat, { label: string; file: string }> = {
  html: { label: "Pobierz dokument dla tej osoby", file: "dane-osobowe.html" },
  json: { label: "Pobierz dane do przeniesienia (JSON)", file: "dane-osobowe.json" },
};

/** What an erasure did and what is left to her: the backups and the practice's mailbox. */
function ErasureReport({ erased }: { erased: Erased }) {
  return (
    <div className="inbox-erased" role="status">
      <p>
        Usunięto z serwera wiadomości: {erased.deleted}, kopie e-maili: {erased.files}.
      </p>
      <p>{erased.backups}</p>
      <p>
        <strong>{erased.mailbox}</strong>
      </p>
    </div>
  );
}

export default function InboxSender({
  onShow,
  onErased,
  toast,
}: {
  onShow: (email: string) => void;
  onErased: () => void;
  toast: Toast;
}) {
  const [email, setEmail] = useState("");
  const [erased, setErased] = useState<Erased | null>(null);
  const show = (event: FormEvent) => {
    event.preventDefault();
    onShow(email.trim());
  };
  const [asking, setAsking] = useState(false);
  const erase = async () => {
    const who = email.trim();
    setAsking(false);
    if (!who) return;
    try {
      setErased(await withReauth(() => inbox.eraseSender(who), GUARDS.personalData));
      onErased();
    } catch (e) {
      toast("error", isApiError(e) && e.error ? { title: "Błąd", text: e.error } : FAILED);
    }
  };
  // The export is fetched (the server may first want the password again), then saved.
  const download = async (format: ExportFormat) => {
    try {
      const file = await withReauth(() => inbox.exportOf(email.trim(), format), GUARDS.personalData);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(file);
      link.download = EXPORTS[format].file;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (e) {
      toast("error", isApiError(e) && e.error ? { title: "Błąd", text: e.error } : FAILED);
    }
  };
  return (
    <form className="inbox-sender" onSubmit={show}>
      <div className="field">
        <label htmlFor="inbox-sender">Wiadomości jednej osoby (e-mail)</label>
        <input
          id="inbox-sender"
          type="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setErased(null);
          }}
        />
      </div>
      <p className="muted">
        Gdy ktoś prosi o swoje dane, pobierz dokument dla niego (czytelny, do wydruku) i, jeśli chce przenieść dane,
        plik JSON. Gdy prosi o usunięcie, „Usuń wszystkie” kasuje wiadomości i ich kopie na serwerze.
      </p>
      <div className="editor-actions">
        <button type="submit" className="btn btn-secondary btn-small">
          Pokaż
        </button>
        {email.trim() &&
          (["html", "json"] as const).map((format) => (
            <button key={format} type="button" className="btn btn-secondary btn-small" onClick={() => download(format)}>
              {EXPORTS[format].label}
            </button>
          ))}
        <button
          type="button"
          className="btn btn-secondary btn-small btn-danger"
          onClick={() => setAsking(true)}
          disabled={!email.trim()}
        >
          Usuń wszystkie
        </button>
        {email.trim() && (
          <button type="button" className="link-button" onClick={() => onShow("")}>
            Pokaż wszystkie osoby
          </button>
        )}
      </div>
      {erased && <ErasureReport erased={erased} />}
      {asking && (
        <Modal title="Usunąć na zawsze?" onClose={() => setAsking(false)}>
          <div className="admin-dialog-body">
            <p>
              Wszystkie wiadomości od <strong>{email.trim()}</strong> i ich kopie na serwerze znikną na zawsze. Tego nie
              da się cofnąć.
            </p>
            <div className="editor-actions">
              <button type="button" className="btn btn-danger-solid" onClick={() => void erase()}>
                Usuń na zawsze
              </button>
              <button type="button" className="btn btn-secondary" data-autofocus onClick={() => setAsking(false)}>
                Anuluj
              </button>
            </div>
          </div>
        </Modal>
      )}
    </form>
  );
}
