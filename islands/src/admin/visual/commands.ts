// What the visual editor does to its document, apart from React: the commands of its toolbar
// and shortcuts (bold, italic, a heading, the lists), which of them are on where the cursor is,
// how a fact and a picture look in the text, the link around the cursor, and what a dialog inserts.
import type { MarkType, Node, NodeType, ResolvedPos } from "prosemirror-model";
import type { Command } from "prosemirror-state";
import type { NodeViewConstructor } from "prosemirror-view";
import {
  EditorState,
  EditorView,
  TextSelection,
  liftListItem,
  setBlockType,
  toggleMark,
  wrapInList,
} from "./framework";
import type { Placeholder } from "../api";
import { chipText } from "../placeholders";
import { parseMarkdown, schema } from "./markdownDoc";

export const nodes = schema.nodes;
export const marks = schema.marks;

/** Whether the selection's block sits in a list of `type`. */
export function inList(state: EditorState, type: NodeType): boolean {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) if ($from.node(depth).type === type) return true;
  return false;
}

export function markActive(state: EditorState, type: MarkType): boolean {
  const { from, $from, to, empty } = state.selection;
  return empty ? Boolean(type.isInSet(state.storedMarks ?? $from.marks())) : state.doc.rangeHasMark(from, to, type);
}

export const isHeading = (state: EditorState) => state.selection.$from.parent.type === nodes["heading"];

/** A second-level heading, or back to a paragraph when it already is one. */
export const toggleHeading: Command = (state, dispatch) =>
  isHeading(state)
    ? setBlockType(nodes["paragraph"]!)(state, dispatch)
    : setBlockType(nodes["heading"]!, { level: 2 })(state, dispatch);

/** The block in a list of `type`, or out of it when it already is in one. */
export const toggleList =
  (type: NodeType): Command =>
  (state, dispatch) =>
    inList(state, type) ? liftListItem(nodes["list_item"]!)(state, dispatch) : wrapInList(type)(state, dispatch);

export const bold = toggleMark(marks["strong"]!);
export const italic = toggleMark(marks["em"]!);
export const bullets = toggleList(nodes["bullet_list"]!);
export const numbers = toggleList(nodes["ordered_list"]!);

/** How the editor's state reads in the toolbar's pressed buttons. */
export interface Pressed {
  bold: boolean;
  italic: boolean;
  heading: boolean;
  bullets: boolean;
  numbers: boolean;
}

export function pressedIn(state: EditorState): Pressed {
  return {
    bold: markActive(state, marks["strong"]!),
    italic: markActive(state, marks["em"]!),
    heading: isHeading(state),
    bullets: inList(state, nodes["bullet_list"]!),
    numbers: inList(state, nodes["ordered_list"]!),
  };
}

/** A fact as a chip: its Polish name, its current value as the chip's title. */
export function chipView(known: Map<string, Placeholder>): NodeViewConstructor {
  return (node: Node) => {
    const name = String(node.attrs["name"]);
    const fact = known.get(name);
    const dom = document.createElement("span");
    dom.className = fact ? "chip" : "chip chip-unknown-inline";
    dom.contentEditable = "false";
    dom.dataset["placeholder"] = name;
    dom.textContent = fact ? chipText(fact.label) : `{{ ${name} }}`;
    if (fact) dom.title = `${fact.label}: ${fact.shown}`;
    return { dom };
  };
}

/** The editor's own attributes (its label, its problem) and how it shows facts and pictures. */
export function editorProps(of: {
  id: string;
  label: string;
  describedBy?: string | undefined;
  invalid: boolean;
  placeholders: Placeholder[];
}) {
  return {
    attributes: {
      id: of.id,
      role: "textbox",
      "aria-multiline": "true",
      "aria-label": of.label,
      ...(of.describedBy ? { "aria-describedby": of.describedBy } : {}),
      ...(of.invalid ? { "aria-invalid": "true" } : {}),
      lang: "pl",
      spellcheck: "true",
      class: "writing-area visual-area",
    },
    nodeViews: { placeholder: chipView(new Map(of.placeholders.map((p) => [p.name, p]))), image: pictureView },
  };
}

/** A picture as the site shows it: a bare file name is one of the site's pictures (`/images/…`). */
export const pictureView: NodeViewConstructor = (node: Node) => {
  const src = String(node.attrs["src"] ?? "");
  const dom = document.createElement("img");
  dom.src = /^([a-z]+:|\/)/i.test(src) ? src : `/images/${src}`;
  dom.alt = String(node.attrs["alt"] ?? "");
  dom.className = "visual-picture";
  return { dom };
};

/**
 * Takes the browser's selection into the editor's state: a selection made by keyboard just before
 * Shift+Tab left the text reaches the browser after the editor stopped listening.
 */
export function takeSelection(editor: EditorView): void {
  const chosen = document.getSelection();
  const { anchorNode, focusNode } = chosen ?? {};
  if (!chosen || !anchorNode || !focusNode || !editor.dom.contains(anchorNode) || !editor.dom.contains(focusNode))
    return;
  try {
    const anchor = editor.posAtDOM(anchorNode, chosen.anchorOffset);
    const head = editor.posAtDOM(focusNode, chosen.focusOffset);
    const now = editor.state.selection;
    if (anchor === now.anchor && head === now.head) return;
    editor.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, anchor, head)));
  } catch {
    // A selection the document cannot hold (inside a chip) stays as the editor had it.
  }
}

/** The whole link the cursor stands in (its text may be split by bold), or null. */
export function linkAround($pos: ResolvedPos, type: MarkType): { from: number; to: number } | null {
  const mark = type.isInSet($pos.nodeAfter?.marks ?? []) ?? type.isInSet($pos.nodeBefore?.marks ?? []);
  if (!mark) return null;
  const runs: { from: number; to: number }[] = [];
  $pos.parent.forEach((child, offset) => {
    if (!mark.isInSet(child.marks)) return;
    const from = $pos.start() + offset;
    const last = runs[runs.length - 1];
    if (last && last.to === from) last.to = from + child.nodeSize;
    else runs.push({ from, to: from + child.nodeSize });
  });
  return runs.find((r) => r.from <= $pos.pos && $pos.pos <= r.to) ?? null;
}

/** A link of `label` to `href`, in place of the selection; what she types next is not linked. */
export const insertLink =
  (label: string, href: string): Command =>
  (state, dispatch) => {
    const linked = schema.text(label, [marks["link"]!.create({ href })]);
    dispatch?.(state.tr.replaceSelectionWith(linked, false).removeStoredMark(marks["link"]!).scrollIntoView());
    return true;
  };

/** The fact `name` as a chip, in place of the selection. */
export const insertFact =
  (name: string): Command =>
  (state, dispatch) => {
    dispatch?.(state.tr.replaceSelectionWith(nodes["placeholder"]!.create({ name })).scrollIntoView());
    return true;
  };

/** The picture `markdown` names (`![opis](/images/plik.jpg)`), at the cursor. */
export const insertPicture =
  (markdown: string): Command =>
  (state, dispatch) => {
    let picture: Node | null = null;
    parseMarkdown(markdown).descendants((node) => {
      if (node.type === nodes["image"]) picture = node;
      return !picture;
    });
    if (!picture) return false;
    dispatch?.(state.tr.replaceSelectionWith(picture, false).scrollIntoView());
    return true;
  };
