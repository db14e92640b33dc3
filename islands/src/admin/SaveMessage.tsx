// The lasting message beside a save button: how the last save ended, until the next one.
// The toast announces it (and goes after a few seconds); this one stays to be read, so it is
// not announced a second time.
import type { Outcome } from "./saving";

export default function SaveMessage({ outcome }: { outcome: Outcome | null }) {
  if (!outcome) return null;
  return <p className={`save-message ${outcome.ok ? "save-message-ok" : "save-message-error"}`}>{outcome.text}</p>;
}
