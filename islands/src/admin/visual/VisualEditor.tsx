// The visual writing surface of one section: the text as it will look (śródtytuły, pogrubienia,
// listy, linki, obrazy, the practice's facts as chips with their Polish names), edited in a
// ProseMirror view and kept as the same plain Markdown (markdownDoc.ts). Its toolbar is one stop
// of Tab (the arrow keys move within it); every button also has a keyboard shortcut.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { Command, Transaction } from "prosemirror-state";
import {
  EditorState,
  EditorView,
  TextSelection,
  baseKeymap,
  history,
  keymap,
  redo,
  setBlockType,
  splitListItem,
  undo,
} from "./framework";
import type { Placeholder } from "../api";
import LinkDialog, { type PageLink } from "../LinkDialog";
import PlaceholderDialog from "../PlaceholderDialog";
import WritingToolbar, { type Tool } from "../WritingToolbar";
import {
  bold,
  bullets,
  editorProps,
  insertFact,
  insertLink,
  insertPicture,
  italic,
  linkAround,
  marks,
  nodes,
  numbers,
  pressedIn,
  takeSelection,
  toggleHeading,
  type Pressed,
} from "./commands";
import { parseMarkdown, schema, serializeMarkdown } from "./markdownDoc";

type Dialog = { kind: "link"; label: string } | { kind: "placeholder" };

export interface VisualEditorProps {
  /** The editable area's id (a refused save focuses it). */
  id: string;
  /** The section's number, for the names of its area and toolbar. */
  n: number;
  /** The area's name when it is no section ('Stopka: numery pomocy'): one paragraph, no headings or lists. */
  label?: string | undefined;
  value: string;
  onChange: (markdown: string) => void;
  describedBy?: string | undefined;
  invalid: boolean;
  pages: PageLink[];
  placeholders: Placeholder[];
  /** Asks for a picture, which `insert` puts at the cursor. */
  onInsertImage?: ((insert: (markdown: string) => void) => void) | undefined;
}

export default function VisualEditor({
  id,
  n,
  label,
  value,
  onChange,
  describedBy,
  invalid,
  pages,
  placeholders,
  onInsertImage,
}: VisualEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The Markdown this editor last wrote: a value that differs came from elsewhere (a picture
  // added, a draft restored) and replaces the document.
  const written = useRef(value);
  const change = useRef(onChange);
  change.current = onChange;
  const [pressed, setPressed] = useState<Pressed>(() => pressedIn(EditorState.create({ schema })));
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const openLink = useRef<() => void>(() => undefined);

  const stateFor = (markdown: string) =>
    EditorState.create({
      doc: parseMarkdown(markdown),
      plugins: [
        history(),
        keymap({
          "Mod-z": undo,
          "Mod-y": redo,
          "Mod-Shift-z": redo,
          "Mod-b": bold,
          "Mod-i": italic,
          "Mod-Alt-2": toggleHeading,
          "Mod-Alt-0": setBlockType(nodes["paragraph"]!),
          "Mod-Shift-8": bullets,
          "Mod-Shift-7": numbers,
          "Mod-k": () => {
            openLink.current();
            return true;
          },
          Enter: splitListItem(nodes["list_item"]!),
        }),
        keymap(baseKeymap),
      ],
    });

  // How the editor shows itself and its chips: given when it is made too, so that its first
  // frame already has the facts' names and its label.
  const shown = useMemo(
    () => editorProps({ id, label: label ?? `Treść sekcji ${n}`, describedBy, invalid, placeholders }),
    [id, n, label, describedBy, invalid, placeholders],
  );

  useLayoutEffect(() => {
    if (!host.current) return;
    const editor = new EditorView(host.current, {
      ...shown,
      state: stateFor(value),
      dispatchTransaction(tr: Transaction) {
        const next = editor.state.apply(tr);
        editor.updateState(next);
        setPressed(pressedIn(next));
        if (tr.docChanged) {
          written.current = serializeMarkdown(next.doc);
          change.current(written.current);
        }
      },
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The view is made once; the props below reach it through setProps.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    view.current?.setProps(shown);
  }, [shown]);

  useEffect(() => {
    const editor = view.current;
    if (!editor || value === written.current) return;
    written.current = value;
    editor.updateState(stateFor(value));
    setPressed(pressedIn(editor.state));
  }, [value]);

  /** Runs `command` on the editor and gives it the focus back. */
  const run = (command: Command) => {
    const editor = view.current;
    if (!editor) return;
    if (!editor.hasFocus()) takeSelection(editor);
    command(editor.state, editor.dispatch);
    editor.focus();
  };
  /** Opens a dialog whose answer goes where her selection is now: taken into the state first
   * (made by keyboard just before Ctrl+K or Shift+Tab, it may not be there yet), since the
   * dialog takes the browser's selection away and its answer is written on the state's. */
  const asking = (open: (editor: EditorView) => void) => {
    const editor = view.current;
    if (!editor) return;
    takeSelection(editor);
    open(editor);
  };
  openLink.current = () =>
    asking((editor) => {
      // In a link, 'Link' is about that link: its text is offered and the new one replaces it.
      const around = editor.state.selection.empty ? linkAround(editor.state.selection.$from, marks["link"]!) : null;
      if (around) {
        editor.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, around.from, around.to)));
      }
      const { from, to } = editor.state.selection;
      setDialog({ kind: "link", label: editor.state.doc.textBetween(from, to, " ") });
    });
  /** Back to writing where the dialog was opened from, with `command` done there. Both at once:
   * the edit on the selection the dialog was opened from, the dialog gone (the page behind it is
   * inert while it is open) and the focus back, so that a key pressed next lands after the edit. */
  const closeDialog = (command?: Command) => {
    const editor = view.current;
    if (editor && command) command(editor.state, editor.dispatch);
    flushSync(() => setDialog(null));
    view.current?.focus();
  };
  const tools: Tool[] = [
    { label: "Pogrubienie", keys: "Control+B", act: () => run(bold), pressed: pressed.bold },
    { label: "Kursywa", keys: "Control+I", act: () => run(italic), pressed: pressed.italic },
    ...(label
      ? []
      : [
          { label: "Śródtytuł", keys: "Control+Alt+2", act: () => run(toggleHeading), pressed: pressed.heading },
          { label: "Lista", keys: "Control+Shift+8", act: () => run(bullets), pressed: pressed.bullets },
          { label: "Lista numerowana", keys: "Control+Shift+7", act: () => run(numbers), pressed: pressed.numbers },
        ]),
    { label: "Link", keys: "Control+K", act: () => openLink.current() },
    { label: "Wstaw dane", act: () => asking(() => setDialog({ kind: "placeholder" })) },
    ...(onInsertImage
      ? [
          {
            label: "Wstaw obraz",
            act: () => asking(() => onInsertImage((markdown) => closeDialog(insertPicture(markdown)))),
          },
        ]
      : []),
  ];
  return (
    <>
      <WritingToolbar n={n} label={label} controls={id} tools={tools} keepFocus />
      <div ref={host} className="visual-host" />
      {dialog?.kind === "link" && (
        <LinkDialog
          pages={pages}
          label={dialog.label}
          onInsert={(label, url) => closeDialog(insertLink(label, url))}
          onClose={() => closeDialog()}
        />
      )}
      {dialog?.kind === "placeholder" && (
        <PlaceholderDialog
          placeholders={placeholders}
          onInsert={(name) => closeDialog(insertFact(name))}
          onClose={() => closeDialog()}
        />
      )}
    </>
  );
}
