// 'Aktywne sesje': where she is signed in, this device marked; one ended, or all the others.
import { useCallback, useEffect, useState } from "react";
import { security, type SessionInfo } from "../account";
import type { Toast } from "../saving";
import { when } from "../time";
import { errorText, FAILED } from "./errors";

export default function Sessions({ toast }: { toast: Toast }) {
  const [list, setList] = useState<SessionInfo[]>([]);
  const load = useCallback(
    () => security.sessions().then(setList, () => toast("error", { title: "Błąd", text: FAILED })),
    [toast],
  );
  useEffect(() => void load(), [load]);
  const end = async (session: SessionInfo) => {
    await security.endSession(session.id).catch(() => undefined);
    void load();
  };
  const endOthers = async () => {
    try {
      const { ended } = await security.endOthers();
      toast("success", { title: "Sukces", text: `Wylogowano inne urządzenia: ${ended}.` });
      void load();
    } catch (e) {
      toast("error", { title: "Błąd", text: errorText(e) });
    }
  };
  return (
    <section className="admin-card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Aktywne sesje</h2>
      <div className="table-scroll cards-narrow" tabIndex={0} role="region" aria-label="Lista sesji">
        <table>
          <thead>
            <tr>
              <th scope="col">Urządzenie</th>
              <th scope="col">Zalogowano</th>
              <th scope="col">Ostatnio</th>
              <th scope="col">Adres IP</th>
              <th scope="col">
                <span className="visually-hidden">Działania</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((s) => (
              <tr key={s.id}>
                <td data-label="Urządzenie" className="card-title">
                  {s.device}
                  {s.current && (
                    <>
                      {" "}
                      <strong className="session-current">(ta sesja – to urządzenie)</strong>
                    </>
                  )}
                </td>
                <td data-label="Zalogowano">{when(s.createdAt)}</td>
                <td data-label="Ostatnio">{when(s.lastSeenAt)}</td>
                <td data-label="Adres IP">{s.client || "–"}</td>
                <td className="card-actions">
                  {!s.current && (
                    <button type="button" className="btn btn-secondary btn-small" onClick={() => end(s)}>
                      Zakończ
                      <span className="visually-hidden">
                        {" "}
                        sesję: {s.device}, od {when(s.createdAt)}
                      </span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button type="button" className="btn btn-secondary" onClick={endOthers}>
        Wyloguj wszędzie
      </button>
      <p className="muted">Kończy wszystkie sesje poza tą, na każdym innym urządzeniu.</p>
    </section>
  );
}
