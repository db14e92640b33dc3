// 'Przed publikacją strony': the go-live checklist of the panel's first screen and of 'Stan
// systemu' (GET /api/launch). A production server publishes nothing while the practice's facts
// are example data; the list says which, and what else a site that goes live needs (outgoing
// mail, backups, the second factor, HTTPS), each in the owner's words.
import { useEffect, useState } from "react";
import { Details } from "./AlertNotice";
import { request } from "./api";
import { count, TASKS } from "./plural";
import type { LaunchChecklist as Checklist } from "./generated/api";

/** How many steps are left, as Polish says it: „jedno zadanie”, „4 zadania”, „5 zadań”. */
function left(n: number): string {
  return n === 1 ? "jedno zadanie" : count(n, TASKS);
}

/**
 * The checklist as the server tells it: `undefined` while it is asked for, `null` when it could
 * not be had (signed out or offline: the rest of the panel says so). A view shows its column only
 * once this is known, so that the list does not appear later above what she is about to tap.
 */
export function useLaunchList(): Checklist | null | undefined {
  const [list, setList] = useState<Checklist | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    request<Checklist>("GET", "/api/launch", undefined, { background: true })
      .then((answer) => current && setList(answer))
      .catch(() => current && setList(null));
    return () => {
      current = false;
    };
  }, []);
  return list;
}

export default function LaunchChecklist({
  list,
  onOpenFacts,
  always = false,
  compact = false,
}: {
  /** From `useLaunchList()`. */
  list: Checklist | null;
  /** Opens 'Dane gabinetu', where the facts are confirmed. */
  onOpenFacts?: () => void;
  /** Shown also when every step is done ('Stan systemu'); the first screen shows it only while one is not. */
  always?: boolean;
  /**
   * The steps folded under one line (the first screen: unfolded, the list pushed the page tabs
   * a phone's several screens down); the state, the alert and the way to the facts stay shown.
   */
  compact?: boolean;
}) {
  if (!list) return null;
  const missing = list.items.filter((i) => !i.done).length;
  if (missing === 0 && !always) return null;
  const held = list.production && !list.published;
  const factsLeft = list.items.some((i) => i.step === "facts" && !i.done);
  const toFacts = factsLeft && onOpenFacts && (
    <button type="button" className="btn btn-secondary btn-small" onClick={onOpenFacts}>
      Przejdź do danych gabinetu
    </button>
  );
  const steps = (
    <ul className="launch-steps">
      {list.items.map((item) => (
        <li key={item.step} className={item.done ? "launch-done" : "launch-todo"}>
          <p>
            <strong>{item.title}</strong>: {item.done ? "gotowe" : "do zrobienia"}.{" "}
            <span className="muted">{item.detail}</span>
          </p>
          {item.facts.length > 0 && (
            <ul>
              {item.facts.map((fact) => (
                <li key={fact}>{fact}</li>
              ))}
            </ul>
          )}
          {!item.done && item.technical && <Details text={item.technical} />}
          {item.step === "facts" && !compact && toFacts}
        </li>
      ))}
    </ul>
  );
  return (
    <section
      className={`admin-card launch${held ? " launch-held" : ""}`}
      aria-labelledby="launch-title"
      data-testid="launch-checklist"
    >
      <h2 id="launch-title">Przed publikacją strony</h2>
      {held && (
        <p className="form-notice form-notice-error" role="alert">
          Strona nie jest opublikowana: odwiedzający widzą „Strona w przygotowaniu”, dopóki dane gabinetu są
          przykładowe.
        </p>
      )}
      {!held && list.production && missing > 0 && (
        <p>Strona jest opublikowana. Do zrobienia z listy poniżej: {left(missing)}.</p>
      )}
      {!list.production && (
        <p className="muted">
          Ten serwer działa w trybie próbnym (bez adresu https://), więc publikuje stronę także z danymi przykładowymi.
          Serwer produkcyjny opublikuje ją dopiero wtedy, gdy wszystkie dane gabinetu będą potwierdzone.
        </p>
      )}
      {missing === 0 && <p>Wszystko gotowe.</p>}
      {compact ? (
        <>
          {toFacts}
          <details className="launch-details">
            <summary>Lista kroków (zostało: {left(missing)})</summary>
            {steps}
          </details>
        </>
      ) : (
        steps
      )}
    </section>
  );
}
