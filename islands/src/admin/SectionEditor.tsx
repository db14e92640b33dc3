// The writing surface of one section: its type as a Polish choice, a toolbar that writes plain
// Markdown around the selection ('Pogrubienie', 'Nagłówek', 'Lista', 'Link', the practice's
// facts, a picture), and a native text area that grows with the text, so undo, spell-check
// and screen readers work as everywhere. The facts the text names are shown under it as
// labelled chips with their current values.
import { useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { Placeholder, Section } from "./api";
import { useGrowing } from "./growing";
import LinkDialog, { type PageLink } from "./LinkDialog";
import PlaceholderDialog from "./PlaceholderDialog";
import { bold, heading, insertAt, link, list, placeholdersIn, type Selection, type TextEdit } from "./markdownEdits";
import { chipText } from "./placeholders";
import { SECTION_TYPES } from "./sectionTypes";
import type { VisualKit } from "./visual/kit";
import { VISUAL_HELP } from "./visual/view";
import WritingToolbar, { type Tool } from "./WritingToolbar";

export const fieldId = (i: number, part: "type" | "content") => `section-${i + 1}-${part}`;

/**
 * Makes `edit` in the text area as typing would: through the browser's own editing, so that
 * Ctrl+Z takes it back; where that is not available, by setting the text and saying so.
 */
function apply(area: HTMLTextAreaElement, edit: TextEdit): void {
  area.focus();
  area.setSelectionRange(edit.from, edit.to);
  const done =
    edit.insert === ""
      ? edit.from === edit.to || document.execCommand("delete")
      : document.execCommand("insertText", false, edit.insert);
  if (!done) {
    area.setRangeText(edit.insert, edit.from, edit.to);
    area.dispatchEvent(new Event("input", { bubbles: true }));
  }
  area.setSelectionRange(edit.select.start, edit.select.end);
}

type Dialog = { kind: "link"; selection: Selection; label: string } | { kind: "placeholder"; selection: Selection };

export interface SectionEditorProps {
  index: number;
  section: Section;
  onChange: (patch: Partial<Section>) => void;
  onRemove: () => void;
  /** Asks for a picture: put at the end of the text, or by `insert` (the visual view, at its cursor). */
  onInsertImage?: ((insert?: (markdown: string) => void) => void) | undefined;
  /** The site's own pages, for 'Link'. */
  pages: PageLink[];
  placeholders: Placeholder[];
  /** What a refused save says about this section, if anything. */
  problem: string | null;
  /** The visual view, once loaded: the text as it will look (a text it cannot keep as written stays in Markdown). */
  visual?: VisualKit | null;
}

export default function SectionEditor({
  index,
  section,
  onChange,
  onRemove,
  onInsertImage,
  pages,
  placeholders,
  problem,
  visual = null,
}: SectionEditorProps) {
  const n = index + 1;
  const area = useRef<HTMLTextAreaElement>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  useGrowing(area, section.content);
  // What the visual view wrote it keeps; any other text is shown there only if it comes back as written.
  const fromVisual = useRef<string | null>(null);
  const Visual = useMemo(
    () =>
      visual && (section.content === fromVisual.current || visual.keepsMarkdown(section.content))
        ? visual.VisualEditor
        : null,
    [visual, section.content],
  );

  const selection = (): Selection => ({
    start: area.current?.selectionStart ?? section.content.length,
    end: area.current?.selectionEnd ?? section.content.length,
  });
  const run = (make: (text: string, selection: Selection) => TextEdit) => {
    const el = area.current;
    if (el) apply(el, make(el.value, selection()));
  };
  const openLink = () => {
    const chosen = selection();
    setDialog({ kind: "link", selection: chosen, label: section.content.slice(chosen.start, chosen.end) });
  };
  /** Back to writing where the dialog was opened from (the selection as it was), with `edit` made. */
  const closeDialog = (from: Selection, edit?: TextEdit) => {
    setDialog(null);
    requestAnimationFrame(() => {
      const el = area.current;
      if (!el) return;
      if (edit) return apply(el, edit);
      el.focus();
      el.setSelectionRange(from.start, from.end);
    });
  };

  const tools: Tool[] = [
    { label: "Pogrubienie", keys: "Control+B", act: () => run(bold) },
    { label: "Nagłówek", act: () => run(heading) },
    { label: "Lista", act: () => run(list) },
    { label: "Link", keys: "Control+K", act: openLink },
    { label: "Wstaw dane", act: () => setDialog({ kind: "placeholder", selection: selection() }) },
    ...(onInsertImage ? [{ label: "Wstaw obraz", act: () => onInsertImage() }] : []),
  ];
  const shortcut = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const key = event.key.toLowerCase();
    if (key === "b") {
      event.preventDefault();
      run(bold);
    } else if (key === "k") {
      event.preventDefault();
      openLink();
    }
  };

  const known = new Map(placeholders.map((p) => [p.name, p]));
  const used = placeholdersIn(section.content);
  const typeKnown = SECTION_TYPES.some((t) => t.type === section.type);
  const described = [problem ? `${fieldId(index, "content")}-problem` : null, `${fieldId(index, "type")}-hint`]
    .filter(Boolean)
    .join(" ");
  const hint = SECTION_TYPES.find((t) => t.type === section.type)?.hint ?? "Wyświetlany na stronie jak zwykły tekst.";

  return (
    <fieldset>
      <legend>Sekcja {n}</legend>
      {problem && (
        <p id={`${fieldId(index, "content")}-problem`} className="field-problem">
          {problem}
        </p>
      )}
      <div className="field section-type">
        <label htmlFor={fieldId(index, "type")}>Typ sekcji {n}</label>
        <select
          id={fieldId(index, "type")}
          value={section.type}
          aria-describedby={`${fieldId(index, "type")}-hint`}
          onChange={(e) => onChange({ type: e.target.value })}
        >
          {SECTION_TYPES.map((t) => (
            <option key={t.type} value={t.type}>
              {t.name}
            </option>
          ))}
          {!typeKnown && <option value={section.type}>Inny typ („{section.type}”), wyświetlany jak tekst</option>}
        </select>
        <p id={`${fieldId(index, "type")}-hint`} className="muted">
          {hint}
        </p>
      </div>
      {Visual ? (
        <Visual
          id={fieldId(index, "content")}
          n={n}
          value={section.content}
          onChange={(content) => {
            fromVisual.current = content;
            onChange({ content });
          }}
          describedBy={`${described} ${VISUAL_HELP}`.trim()}
          invalid={Boolean(problem)}
          pages={pages}
          placeholders={placeholders}
          onInsertImage={onInsertImage}
        />
      ) : (
        <>
          {visual && (
            <p id={`${fieldId(index, "content")}-markdown`} className="form-notice">
              Tej sekcji nie da się pokazać w widoku wizualnym bez zmiany jej zapisu, dlatego jest tu w widoku ze
              znakami.
            </p>
          )}
          <WritingToolbar n={n} controls={fieldId(index, "content")} tools={tools} />
          <textarea
            ref={area}
            id={fieldId(index, "content")}
            className="writing-area"
            aria-describedby={described || undefined}
            aria-invalid={problem ? true : undefined}
            rows={5}
            spellCheck
            lang="pl"
            value={section.content}
            placeholder="Treść sekcji"
            aria-label={`Treść sekcji ${n}`}
            onChange={(e) => onChange({ content: e.target.value })}
            onKeyDown={shortcut}
          />
        </>
      )}
      {used.length > 0 && (
        <ul className="chips" aria-label={`Dane gabinetu w sekcji ${n}`}>
          {used.map((name) => {
            const fact = known.get(name);
            // Before the facts are loaded (or if they cannot be), a name is shown as written.
            const unknown = !fact && placeholders.length > 0;
            return (
              <li key={name} className={unknown ? "chip-row chip-unknown" : "chip-row"}>
                <span className="chip">{fact ? chipText(fact.label) : `{{ ${name} }}`}</span>{" "}
                {(fact || unknown) && (
                  <span className="chip-value">
                    {fact ? fact.shown : "nieznana nazwa danych: zapis zostanie odrzucony, popraw ją albo usuń"}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div className="editor-section-actions">
        <button type="button" className="btn btn-secondary btn-small" onClick={onRemove}>
          Usuń sekcję<span className="visually-hidden"> {n}</span>
        </button>
      </div>
      {dialog?.kind === "link" && (
        <LinkDialog
          pages={pages}
          label={dialog.label}
          onInsert={(label, url) => closeDialog(dialog.selection, link(dialog.selection, label, url))}
          onClose={() => closeDialog(dialog.selection)}
        />
      )}
      {dialog?.kind === "placeholder" && (
        <PlaceholderDialog
          placeholders={placeholders}
          onInsert={(name) => closeDialog(dialog.selection, insertAt(dialog.selection, `{{ ${name} }}`))}
          onClose={() => closeDialog(dialog.selection)}
        />
      )}
    </fieldset>
  );
}
