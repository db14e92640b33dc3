// The content editor of one page (SPEC §2 Admin panel): its sections, each with a type and a
// five-row text area, added, changed and deleted, then saved; a picture can be put into a
// section, and other actions (preview, draft, delete) sit beside 'Zapisz zmiany'.
import { useEffect, type ReactNode } from "react";
import type { Section } from "./api";
import { showProblem, type Place } from "./problems";

export interface EditorProps {
  sections: Section[];
  onChange: (sections: Section[]) => void;
  onSave: () => void;
  saving: boolean;
  dirty: boolean;
  /** Asks which picture to put into section `index`. */
  onInsertImage?: ((index: number) => void) | undefined;
  actions?: ReactNode;
  /** The section a refused save named: marked, shown and focused. */
  problem?: Place | null;
}

const fieldId = (i: number, part: "type" | "content") => `section-${i + 1}-${part}`;

export default function Editor({
  sections,
  onChange,
  onSave,
  saving,
  dirty,
  onInsertImage,
  actions,
  problem,
}: EditorProps) {
  useEffect(() => {
    if (problem) showProblem(fieldId(problem.n - 1, /^Sekcja \d+: typ\b/.test(problem.text) ? "type" : "content"));
  }, [problem]);
  const update = (index: number, patch: Partial<Section>) =>
    onChange(sections.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  return (
    <div className="editor">
      <ol className="editor-sections">
        {sections.map((section, i) => {
          const marked = problem?.n === i + 1;
          const described = marked ? `section-${i + 1}-problem` : undefined;
          return (
            <li key={i} className={marked ? "editor-section has-problem" : "editor-section"}>
              <fieldset>
                <legend>Sekcja {i + 1}</legend>
                {marked && (
                  <p id={described} className="field-problem">
                    {problem.text}
                  </p>
                )}
                <input
                  id={fieldId(i, "type")}
                  aria-describedby={described}
                  aria-invalid={marked || undefined}
                  type="text"
                  value={section.type}
                  placeholder="Typ sekcji"
                  aria-label={`Typ sekcji ${i + 1}`}
                  onChange={(e) => update(i, { type: e.target.value })}
                />
                <textarea
                  id={fieldId(i, "content")}
                  aria-describedby={described}
                  aria-invalid={marked || undefined}
                  rows={5}
                  value={section.content}
                  placeholder="Treść sekcji"
                  aria-label={`Treść sekcji ${i + 1}`}
                  onChange={(e) => update(i, { content: e.target.value })}
                />
                <div className="editor-section-actions">
                  {onInsertImage && (
                    <button type="button" className="btn btn-secondary btn-small" onClick={() => onInsertImage(i)}>
                      Wstaw obraz<span className="visually-hidden"> do sekcji {i + 1}</span>
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn btn-secondary btn-small"
                    onClick={() => onChange(sections.filter((_, j) => j !== i))}
                  >
                    Usuń sekcję<span className="visually-hidden"> {i + 1}</span>
                  </button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div className="editor-actions">
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => onChange([...sections, { type: "text", content: "" }])}
        >
          Dodaj sekcję
        </button>
        <button type="button" className="btn btn-primary" onClick={onSave} disabled={saving}>
          {saving ? "Zapisywanie…" : "Zapisz zmiany"}
        </button>
        {actions}
        {dirty && <span className="muted">Masz niezapisane zmiany.</span>}
      </div>
    </div>
  );
}
