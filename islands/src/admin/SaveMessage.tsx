// The lasting message beside a save button: how the last save ended, until the next one.
// The toast announces it (and goes after a few seconds); this one stays to be read, so it is
// not announced a second time — unless no toast says it (a save waiting for the server).
import type { Outcome } from "./saving";

export default function SaveMessage({ outcome }: { outcome: Outcome | null }) {
  if (!outcome) return null;
  const kind = outcome.live ? "save-message-waiting" : outcome.ok ? "save-message-ok" : "save-message-error";
  return (
    <p className={`save-message ${kind}`} role={outcome.live ? "status" : undefined}>
      {outcome.text}
    </p>
  );
}
