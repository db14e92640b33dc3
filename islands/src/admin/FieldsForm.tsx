// The texts a visitor reads outside the sections — the home page's headline, subtitle and
// free-consultation line, a service's intro, card and button label — as labelled fields.
// Which fields a document has, their labels, limits and whether they may be empty come from
// the server (the same table the build checks), so the form never offers a field the page
// does not show. A refused save that names a field is said under that field.
import { useEffect } from "react";
import type { Settings, TextField } from "./api";
import { showProblem, type Place } from "./problems";

export interface FieldsFormProps {
  id: string;
  fields: TextField[];
  settings: Settings;
  onChange: (settings: Settings) => void;
  /** Where the last refusal's problem is, if the last save was refused and the server said. */
  problem: Place | null;
}

/** One line: a new line typed or pasted becomes a space. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ");

/** The field a refusal names, if it names one of these (and not a section of the text). */
function fieldOf(fields: TextField[], place: Place | null): TextField | null {
  if (!place || place.section !== undefined) return null;
  return fields.find((f) => f.name === place.field) ?? null;
}

type TextKey = keyof Settings;

export default function FieldsForm({ id, fields, settings, onChange, problem }: FieldsFormProps) {
  const fieldId = (name: string) => `text-${id.replace("/", "-")}-${name}`;
  const marked = fieldOf(fields, problem);
  const markedId = marked ? fieldId(marked.name) : null;
  useEffect(() => {
    if (markedId) showProblem(markedId);
  }, [markedId, problem]);
  if (fields.length === 0) return null;
  return (
    <fieldset className="settings page-texts">
      <legend>Teksty na stronie</legend>
      {fields.map((f) => {
        const key = f.name as TextKey;
        const value = String(settings[key] ?? "");
        const length = [...value].length;
        const inputId = fieldId(f.name);
        const isMarked = marked?.name === f.name;
        const describedBy = [`${inputId}-hint`, isMarked ? `${inputId}-problem` : ""].filter(Boolean).join(" ");
        const props = {
          id: inputId,
          value,
          required: f.required,
          "aria-describedby": describedBy,
          "aria-invalid": isMarked || undefined,
          onChange: (e: { target: { value: string } }) => onChange({ ...settings, [key]: oneLine(e.target.value) }),
        };
        return (
          <div key={f.name} className={isMarked ? "field has-problem" : "field"}>
            <label htmlFor={inputId}>
              {f.label}
              {!f.required && <span className="muted"> (nieobowiązkowe)</span>}
            </label>
            {f.max > 100 ? <textarea rows={2} {...props} /> : <input type="text" {...props} />}
            <p id={`${inputId}-hint`} className={length > f.max ? "muted settings-warning" : "muted"}>
              {f.hint} {length}/{f.max} znaków.
            </p>
            {isMarked && problem && (
              <p id={`${inputId}-problem`} className="field-problem">
                {problem.text}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
