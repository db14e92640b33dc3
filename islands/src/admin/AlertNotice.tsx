// One alert of the server, as the owner reads it: what happened, what it means and what to
// do, in her words; the program's own words (restic's, git's, paths) only folded away under
// 'Szczegóły dla informatyka', with a button that copies them for whoever she asks.
import { useState } from "react";
import type { SystemAlert } from "./generated/api";

/** The heading of the words that are not for the owner (the e-mails use the same). */
export const DETAILS = "Szczegóły dla informatyka";

/** Copies `text`: the clipboard, or (where it is refused) a selection copied the old way. */
async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const done = document.execCommand("copy");
    area.remove();
    return done;
  }
}

export function Details({ text }: { text: string }) {
  const [said, setSaid] = useState("");
  return (
    <details className="alert-details">
      <summary>{DETAILS}</summary>
      <pre>{text}</pre>
      <button
        type="button"
        className="btn btn-secondary btn-small"
        onClick={async () =>
          setSaid((await copy(text)) ? "Skopiowano." : "Nie udało się skopiować: zaznacz tekst powyżej i skopiuj go.")
        }
      >
        Kopiuj szczegóły
      </button>
      <span role="status" className="muted">
        {said}
      </span>
    </details>
  );
}

/** When, in Polish and the practice's time (Warsaw, as the e-mails say it): "28 lis 2026, 14:02". */
export function when(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString("pl-PL", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "Europe/Warsaw",
  });
}

export default function AlertNotice({ alert, since = false }: { alert: SystemAlert; since?: boolean }) {
  return (
    <div className={`alert-notice alert-${alert.level}`}>
      <p>
        <strong>{alert.title}</strong>
        {since && <span className="muted"> (od {when(alert.since)})</span>}
      </p>
      <p>{alert.meaning}</p>
      <p>
        <strong>Co zrobić:</strong> {alert.action}
      </p>
      {alert.details && <Details text={alert.details} />}
    </div>
  );
}
