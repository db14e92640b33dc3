// The inbox 'Wiadomości': every contact message, newest first, with its delivery state and
// why it may be spam; one can be opened, sent again, released from quarantine or deleted,
// and all messages of one sender exported (a document she reads, or JSON) or erased with
// every copy on the server (RODO art. 15, 17, 20).
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { inbox, isApiError, type Erased, type ExportFormat, type Message } from "./api";
import { GUARDS, withReauth } from "./account";
import type { Toast } from "./saving";

const DELIVERY: Record<Message["status"], string> = {
  pending: "czeka na wysłanie",
  delivered: "wysłana",
  failed: "nie udało się wysłać",
};

const SPAM: Record<NonNullable<Message["spam"]>, string> = {
  honeypot: "wypełnione ukryte pole (pułapka na boty)",
  too_fast: "wysłana szybciej, niż człowiek zdąży pisać",
  bad_token: "brak lub błąd znacznika formularza",
};

const FAILED = { title: "Błąd", text: "Nie udało się wykonać tej operacji." };

function when(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString("pl-PL", { dateStyle: "medium", timeStyle: "short" });
}

function state(m: Message): string {
  return m.held ? "w kwarantannie (niewysłana)" : DELIVERY[m.status];
}

function Details({ message, onDone, toast }: { message: Message; onDone: () => void; toast: Toast }) {
  const act = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      toast("success", { title: "Sukces", text: done });
      onDone();
    } catch (e) {
      toast("error", isApiError(e) && e.error ? { title: "Błąd", text: e.error } : FAILED);
    }
  };
  const remove = () => {
    if (!window.confirm(`Usunąć wiadomość od ${message.name}? Tego nie da się cofnąć.`)) return;
    void act(() => inbox.remove(message.id), "Wiadomość usunięta.");
  };
  return (
    <section className="inbox-message" aria-labelledby="inbox-message-title">
      <h3 id="inbox-message-title">Wiadomość od {message.name}</h3>
      <dl className="inbox-facts">
        <dt>Otrzymana</dt>
        <dd>{when(message.receivedAt)}</dd>
        <dt>E-mail</dt>
        <dd>
          <a href={`mailto:${message.email}`}>{message.email}</a>
        </dd>
        <dt>Telefon</dt>
        <dd>{message.fullPhone || "nie podano"}</dd>
        <dt>Stan</dt>
        <dd>
          {state(message)}
          {message.lastError && ` (${message.lastError})`}
        </dd>
        {message.spam && (
          <>
            <dt>Podejrzenie spamu</dt>
            <dd>{SPAM[message.spam]}</dd>
          </>
        )}
      </dl>
      <p className="inbox-text">{message.message}</p>
      <div className="editor-actions">
        {message.status === "failed" && !message.held && (
          <button
            type="button"
            className="btn btn-primary btn-small"
            onClick={() => act(() => inbox.retry(message.id), "Wiadomość zostanie wysłana ponownie.")}
          >
            Wyślij ponownie
          </button>
        )}
        {message.held && (
          <button
            type="button"
            className="btn btn-primary btn-small"
            onClick={() => act(() => inbox.release(message.id), "Wiadomość zwolniona z kwarantanny i wysłana.")}
          >
            Zwolnij z kwarantanny i wyślij
          </button>
        )}
        <button type="button" className="btn btn-secondary btn-small" onClick={remove}>
          Usuń wiadomość
        </button>
      </div>
    </section>
  );
}

const EXPORTS: Record<ExportFormat, { label: string; file: string }> = {
  html: { label: "Pobierz dokument dla tej osoby", file: "dane-osobowe.html" },
  json: { label: "Pobierz dane do przeniesienia (JSON)", file: "dane-osobowe.json" },
};

/** What an erasure did and what is left to her: the backups and the practice's mailbox. */
function ErasureReport({ erased }: { erased: Erased }) {
  return (
    <div className="inbox-erased" role="status">
      <p>
        Usunięto z serwera wiadomości: {erased.deleted}, pliki poczty: {erased.files}.
      </p>
      <p>{erased.backups}</p>
      <p>
        <strong>{erased.mailbox}</strong>
      </p>
    </div>
  );
}

function Sender({ onShow, onErased, toast }: { onShow: (email: string) => void; onErased: () => void; toast: Toast }) {
  const [email, setEmail] = useState("");
  const [erased, setErased] = useState<Erased | null>(null);
  const show = (event: FormEvent) => {
    event.preventDefault();
    onShow(email.trim());
  };
  const erase = async () => {
    const who = email.trim();
    const question = `Usunąć wszystkie wiadomości od ${who} razem z ich kopiami na serwerze? Tego nie da się cofnąć.`;
    if (!who || !window.confirm(question)) return;
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
        <button type="button" className="btn btn-secondary btn-small" onClick={erase} disabled={!email.trim()}>
          Usuń wszystkie
        </button>
        {email.trim() && (
          <button type="button" className="link-button" onClick={() => onShow("")}>
            Pokaż wszystkie osoby
          </button>
        )}
      </div>
      {erased && <ErasureReport erased={erased} />}
    </form>
  );
}

export default function Inbox({ toast }: { toast: Toast }) {
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [sender, setSender] = useState("");
  const [openId, setOpenId] = useState<number | null>(null);

  const load = useCallback(async () => {
    try {
      setMessages((await inbox.list(sender || undefined)).messages);
    } catch {
      toast("error", { title: "Błąd", text: "Nie udało się pobrać wiadomości." });
    }
  }, [sender, toast]);

  useEffect(() => {
    void load();
  }, [load]);

  const open = messages?.find((m) => m.id === openId);
  return (
    <section className="inbox" aria-labelledby="inbox-title">
      <h2 id="inbox-title">Wiadomości</h2>
      <Sender onShow={setSender} onErased={() => void load()} toast={toast} />
      {messages === null && <p className="muted">Ładowanie wiadomości…</p>}
      {messages?.length === 0 && <p className="muted">Brak wiadomości.</p>}
      {messages && messages.length > 0 && (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Lista wiadomości">
          <table className="inbox-list">
            <thead>
              <tr>
                <th scope="col">Otrzymana</th>
                <th scope="col">Imię</th>
                <th scope="col">E-mail</th>
                <th scope="col">Telefon</th>
                <th scope="col">Stan</th>
                <th scope="col">Podejrzenie spamu</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((m) => (
                <tr
                  key={m.id}
                  className={
                    [m.spam ? "inbox-suspect" : "", m.id === openId ? "inbox-open" : ""].join(" ").trim() || undefined
                  }
                >
                  <td>{when(m.receivedAt)}</td>
                  <td>
                    <button type="button" className="link-button" onClick={() => setOpenId(m.id)}>
                      {m.name}
                    </button>
                  </td>
                  <td>{m.email}</td>
                  <td>{m.fullPhone || "–"}</td>
                  <td>{state(m)}</td>
                  <td>{m.spam ? SPAM[m.spam] : "nie"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {open && (
        <Details
          message={open}
          toast={toast}
          onDone={() => {
            setOpenId(null);
            void load();
          }}
        />
      )}
    </section>
  );
}
