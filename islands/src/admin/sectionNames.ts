// How the section navigator names a section: its number, its type as she chose it and the first
// words a visitor reads in it (a heading's, a picture's text, a fact's name), without the
// formatting's signs.
import type { Section } from "./api";
import { SECTION_TYPES } from "./sectionTypes";

/** How many characters of a section's first words its name keeps. */
export const FIRST_WORDS = 48;

/** The first line of `markdown` that has words, as a visitor reads it. */
export function firstWords(markdown: string): string {
  for (const line of markdown.split("\n")) {
    const words = line
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\{\{\s*([^}]*?)\s*\}\}/g, "$1")
      .replace(/<!--.*?-->/g, "")
      .replace(/^\s*(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)/, "")
      .replace(/[*_`]/g, "")
      .replace(/\s+/g, " ")
      .trim();
    if (words)
      return [...words].length > FIRST_WORDS ? `${[...words].slice(0, FIRST_WORDS).join("").trimEnd()}…` : words;
  }
  return "";
}

/** The section's name in the navigator: 'Sekcja 3 · Ramka wyróżniona: Numery pomocy…'. */
export function sectionName(section: Section, index: number): string {
  const type = SECTION_TYPES.find((t) => t.type === section.type)?.name ?? "Tekst";
  const words = firstWords(section.content);
  return `Sekcja ${index + 1} · ${type}: ${words || "(pusta)"}`;
}
