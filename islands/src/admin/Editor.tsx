// The content editor of one page: its sections, each a writing surface
// (SectionEditor: its type as a Polish choice, the text as it will look or in Markdown, as this
// browser last chose with 'Widok wizualny' / 'Widok Markdown'),
// added, changed and deleted, then saved with 'Zapisz zmiany' in a bar that stays at the bottom
// of the screen while the sections scroll; other actions (preview, draft, delete) sit under it.
import { useEffect, type ReactNode } from "react";
import type { Section } from "./api";
import type { PageLink } from "./LinkDialog";
import MarkdownHelp, { Keys } from "./MarkdownHelp";
import { usePlaceholders } from "./placeholders";
import { showProblem, type Place } from "./problems";
import SectionEditor, { fieldId } from "./SectionEditor";
import SectionNav, { sectionId } from "./SectionNav";
import { DEFAULT_SECTION_TYPE } from "./sectionTypes";
import { kitOf, useVisualKit } from "./visual/kit";
import { useEditorView, VISUAL_HELP, type EditorView } from "./visual/view";

const VIEWS: [EditorView, string][] = [
  ["visual", "Widok wizualny"],
  ["markdown", "Widok ze znakami"],
];

export interface EditorProps {
  sections: Section[];
  onChange: (sections: Section[]) => void;
  onSave: () => void;
  saving: boolean;
  dirty: boolean;
  /** Asks which picture to put into section `index`: with `insert`, where it says (the cursor). */
  onInsertImage?: ((index: number, insert?: (markdown: string) => void) => void) | undefined;
  /** The other actions (preview, draft, delete), in a row under the save bar. */
  actions?: ReactNode;
  /** How the last save ended, kept in the save bar. */
  message?: ReactNode;
  /** The section a refused save named: marked, shown and focused. */
  problem?: Place | null;
  /** The site's own pages, which 'Link' offers. */
  pages: PageLink[];
}

export default function Editor({
  sections,
  onChange,
  onSave,
  saving,
  dirty,
  onInsertImage,
  actions,
  message,
  problem,
  pages,
}: EditorProps) {
  const placeholders = usePlaceholders();
  const [view, setView] = useEditorView();
  const kit = useVisualKit(view === "visual");
  const visual = kitOf(kit);
  useEffect(() => {
    if (problem?.section) showProblem(fieldId(problem.section - 1, problem.field === "type" ? "type" : "content"));
  }, [problem]);
  const update = (index: number, patch: Partial<Section>) =>
    onChange(sections.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  return (
    <div className="editor">
      <div className="editor-view" role="group" aria-label="Widok edytora">
        {VIEWS.map(([value, label]) => (
          <button
            key={value}
            type="button"
            className="btn btn-secondary btn-small"
            aria-pressed={view === value}
            onClick={() => setView(value)}
          >
            {label}
          </button>
        ))}
      </div>
      {kit === "failed" && (
        <p className="form-notice" role="alert">
          Widok wizualny się nie wczytał, dlatego teksty są w widoku ze znakami. Odśwież stronę, aby spróbować ponownie.
        </p>
      )}
      {view === "visual" && kit !== "failed" ? (
        <p id={VISUAL_HELP} className="muted editor-help">
          Tekst wygląda tu tak jak na stronie.
          <Keys>
            {" "}
            Skróty: Ctrl+B pogrubienie, Ctrl+I kursywa, Ctrl+Alt+2 śródtytuł, Ctrl+Shift+8 lista, Ctrl+Shift+7 lista
            numerowana, Ctrl+K link. Shift+Tab przechodzi z tekstu do paska przycisków.
          </Keys>
        </p>
      ) : (
        <MarkdownHelp />
      )}
      {/* The navigator comes with the sections it moves to: a section chosen before them would be nowhere. */}
      {placeholders === null || kit === "loading" ? (
        <p role="status">Ładowanie edytora…</p>
      ) : (
        <>
          <SectionNav sections={sections} />
          <ol className="editor-sections">
            {sections.map((section, i) => {
              const marked = problem?.section === i + 1;
              return (
                <li key={i} id={sectionId(i)} className={marked ? "editor-section has-problem" : "editor-section"}>
                  <SectionEditor
                    index={i}
                    section={section}
                    onChange={(patch) => update(i, patch)}
                    onRemove={() => onChange(sections.filter((_, j) => j !== i))}
                    onInsertImage={onInsertImage && ((insert) => onInsertImage(i, insert))}
                    pages={pages}
                    placeholders={placeholders}
                    problem={marked ? problem.text : null}
                    visual={visual}
                  />
                </li>
              );
            })}
          </ol>
        </>
      )}
      <button
        type="button"
        className="btn btn-secondary editor-add"
        onClick={() => onChange([...sections, { type: DEFAULT_SECTION_TYPE, content: "" }])}
      >
        Dodaj sekcję
      </button>
      <div className="editor-actions save-bar">
        <button type="button" className="btn btn-primary" onClick={onSave} disabled={saving}>
          {saving ? "Zapisywanie…" : "Zapisz zmiany"}
        </button>
        {dirty && <span className="muted">Masz niezapisane zmiany.</span>}
        {message}
      </div>
      {actions && <div className="editor-actions">{actions}</div>}
    </div>
  );
}
