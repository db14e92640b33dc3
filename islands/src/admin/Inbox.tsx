// The inbox 'Wiadomości': every contact message, newest first, with its delivery state and
// why it may be spam; one can be opened, sent again, released from quarantine or deleted,
// and all messages of one sender exported (a document she reads, or JSON) or erased with
// every copy on the server (RODO art. 15, 17, 20).
import { useCallback, useEffect, useState } from "react";
import { inbox, isApiError, type Message } from "./api";
import InboxSender from "./InboxSender";
import type { Toast } from "./saving";
import { when } from "./time";

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
      <InboxSender onShow={setSender} onErased={() => void load()} toast={toast} />
      {messages === null && <p className="muted">Ładowanie wiadomości…</p>}
      {messages?.length === 0 && <p className="muted">Brak wiadomości.</p>}
      {messages && messages.length > 0 && (
        <div className="table-scroll cards-narrow" tabIndex={0} role="region" aria-label="Lista wiadomości">
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
                  <td data-label="Otrzymana">{when(m.receivedAt)}</td>
                  <td data-label="Imię" className="card-title">
                    <button type="button" className="link-button" onClick={() => setOpenId(m.id)}>
                      {m.name}
                    </button>
                  </td>
                  <td data-label="E-mail">{m.email}</td>
                  <td data-label="Telefon">{m.fullPhone || "–"}</td>
                  <td data-label="Stan">{state(m)}</td>
                  <td data-label="Podejrzenie spamu">{m.spam ? SPAM[m.spam] : "nie"}</td>
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
