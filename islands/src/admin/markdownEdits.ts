// What the writing surface's toolbar does to a section's text: plain Markdown around or in
// front of the selection ('**…**', '## …', '- …', '[…](…)'), so the files stay what editors
// commit. Each edit names the range it replaces and the selection it leaves.

export interface Selection {
  start: number;
  end: number;
}

/** Replace `from`–`to` of the text with `insert`, then select `select` (offsets in the new text). */
export interface TextEdit {
  from: number;
  to: number;
  insert: string;
  select: Selection;
}

const BOLD_HINT = "pogrubiony tekst";

/** Bold around the selection, or bold taken off when the selection already is bold. */
export function bold(text: string, { start, end }: Selection): TextEdit {
  const chosen = text.slice(start, end);
  // Words are bolded without the spaces a double-click or Ctrl+Shift+Arrow takes along.
  const lead = chosen.length - chosen.trimStart().length;
  const trail = chosen.length - chosen.trimEnd().length;
  const from = start + lead;
  const to = Math.max(from, end - trail);
  const word = text.slice(from, to);
  if (text.slice(from - 2, from) === "**" && text.slice(to, to + 2) === "**") {
    return { from: from - 2, to: to + 2, insert: word, select: { start: from - 2, end: to - 2 } };
  }
  if (word.length > 4 && word.startsWith("**") && word.endsWith("**")) {
    const inner = word.slice(2, -2);
    return { from, to, insert: inner, select: { start: from, end: from + inner.length } };
  }
  const inner = word || BOLD_HINT;
  return { from, to, insert: `**${inner}**`, select: { start: from + 2, end: from + 2 + inner.length } };
}

/** The start of the line `at` is on, and the end of the line `to` is on. */
function lineRange(text: string, { start, end }: Selection): { from: number; to: number } {
  const from = text.lastIndexOf("\n", start - 1) + 1;
  // A selection that ends just after a line break ends on the line before.
  const last = end > start && text[end - 1] === "\n" ? end - 1 : end;
  const next = text.indexOf("\n", last);
  return { from, to: next === -1 ? text.length : next };
}

/** Every line of the selection starts with `prefix`, or none does when all did. */
function prefixLines(text: string, selection: Selection, prefix: RegExp, add: string): TextEdit {
  const { from, to } = lineRange(text, selection);
  const lines = text.slice(from, to).split("\n");
  const all = lines.every((l) => prefix.test(l) || l.trim() === "");
  const changed = lines.map((l) => {
    if (l.trim() === "" && lines.length > 1) return l;
    return all ? l.replace(prefix, "") : add + l.replace(prefix, "");
  });
  const insert = changed.join("\n");
  return { from, to, insert, select: { start: from, end: from + insert.length } };
}

/** The lines of the selection as a second-level heading ('## '), or back to a paragraph. */
export function heading(text: string, selection: Selection): TextEdit {
  return prefixLines(text, selection, /^#{1,6} /, "## ");
}

/** The lines of the selection as a bulleted list ('- '), or back to paragraphs. */
export function list(text: string, selection: Selection): TextEdit {
  return prefixLines(text, selection, /^[-*+] /, "- ");
}

/** Square brackets in a link's text would end it early. */
function linkText(label: string): string {
  return label.replace(/[[\]]/g, "").replace(/\s+/g, " ").trim();
}

/** The selection as a link to `url` with `label` as its text. */
export function link(selection: Selection, label: string, url: string): TextEdit {
  // The cursor goes after the link, to write on.
  return insertAt(selection, `[${linkText(label) || url}](${url})`);
}

/** `snippet` at the cursor (in place of the selection), the cursor after it. */
export function insertAt({ start, end }: Selection, snippet: string): TextEdit {
  const after = start + snippet.length;
  return { from: start, to: end, insert: snippet, select: { start: after, end: after } };
}

/** An address outside the site as a link takes it: with its scheme, or null if it is none. */
export function outsideAddress(typed: string): string | null {
  const value = typed.trim();
  if (!value || /\s/.test(value)) return null;
  if (/^(https?:\/\/|mailto:|tel:)/i.test(value)) {
    return /^https?:\/\/[^/.]+\.[^/]+/i.test(value) || /^(mailto|tel):.+/i.test(value) ? value : null;
  }
  // 'www.example.pl' or 'example.pl/x' is a web address without its scheme.
  return /^[\p{L}\d-]+(\.[\p{L}\d-]+)+(\/.*)?$/u.test(value) ? `https://${value}` : null;
}

/** A fact named in a text, as the generator reads it (`generator/content/src/named.rs`): a price too. */
export const PLACEHOLDER = /\{\{\s*([A-Za-z_]+(?:\.[a-z0-9-]+)?)\s*\}\}/g;

/** The placeholders a text names (`{{ adres }}`, `{{ cena.terapia-par }}`), each once, in the order they appear. */
export function placeholdersIn(text: string): string[] {
  const names = [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? "");
  return [...new Set(names.filter(Boolean))];
}
