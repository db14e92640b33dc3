// A date field of the panel: typed as people write dates (24.12.2026, optionally 10:00) or
// picked from the browser's calendar; the form gets it as the files keep it (2026-12-24).
import { useEffect, useState } from "react";
import { dayOf, toStored, toTyped, withDay } from "./dates";

export default function DateField({
  id,
  label,
  value,
  hint,
  onChange,
}: {
  id: string;
  label: string;
  /** As the files keep it: RRRR-MM-DD, optionally with GG:MM. */
  value: string;
  hint: string;
  onChange: (stored: string) => void;
}) {
  const [text, setText] = useState(() => toTyped(value));
  // A value from outside (a restored draft, a reload) replaces what is typed.
  useEffect(() => {
    setText((typed) => (toStored(typed) === value ? typed : toTyped(value)));
  }, [value]);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="date-field">
        <input
          id={id}
          type="text"
          inputMode="numeric"
          value={text}
          placeholder="DD.MM.RRRR"
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            setText(e.target.value);
            onChange(toStored(e.target.value));
          }}
        />
        <input
          type="date"
          className="date-picker"
          aria-label={`${label}: wybierz z kalendarza`}
          value={dayOf(value)}
          onChange={(e) => onChange(withDay(value, e.target.value))}
        />
      </div>
      <p id={`${id}-hint`} className="muted">
        {hint}
      </p>
    </div>
  );
}
