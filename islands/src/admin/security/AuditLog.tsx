// 'Dziennik zdarzeń': who signed in, when and from where, and what was done with the messages.
import { useEffect, useState } from "react";
import { EVENTS, security, type AuditEntry } from "../account";
import { when } from "../time";

export default function AuditLog() {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  useEffect(() => {
    security.audit().then(setEntries, () => setEntries([]));
  }, []);
  return (
    <section className="admin-card" aria-labelledby="audit-title">
      <h2 id="audit-title">Dziennik zdarzeń</h2>
      <p className="muted">
        Kto, kiedy i skąd logował się do panelu i co robił z wiadomościami. Bez treści wiadomości.
      </p>
      {entries === null ? (
        <p className="muted">Ładowanie…</p>
      ) : (
        <div className="table-scroll cards-narrow" tabIndex={0} role="region" aria-label="Lista zdarzeń">
          <table>
            <thead>
              <tr>
                <th scope="col">Kiedy</th>
                <th scope="col">Zdarzenie</th>
                <th scope="col">Kto</th>
                <th scope="col">Adres</th>
                <th scope="col">Szczegóły</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td data-label="Kiedy">{when(e.at)}</td>
                  <td data-label="Zdarzenie" className="card-title">
                    {EVENTS[e.event] ?? e.event}
                  </td>
                  <td data-label="Kto">{e.actor}</td>
                  <td data-label="Adres">{e.client}</td>
                  <td data-label="Szczegóły">{e.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
