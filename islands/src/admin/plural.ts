// Counting in Polish: a number takes one of three forms of the word after it ("1 plik",
// "2 pliki", "5 plików"). The server's rule is content::polish (Rust); both are checked on the
// same numbers (generator/content/src/polish_cases.json).

/** The three forms of a counted word: after 1, after 2–4 (but 12–14), after the rest. */
export interface Forms {
  one: string;
  few: string;
  many: string;
}

export const FILES: Forms = { one: "plik", few: "pliki", many: "plików" };
export const CHANGES: Forms = { one: "zmiana", few: "zmiany", many: "zmian" };
export const PAGES: Forms = { one: "strona", few: "strony", many: "stron" };
export const DAYS: Forms = { one: "dzień", few: "dni", many: "dni" };
export const TIMES: Forms = { one: "raz", few: "razy", many: "razy" };
export const TASKS: Forms = { one: "zadanie", few: "zadania", many: "zadań" };

/** The form `n` takes. */
export function form(n: number, forms: Forms): string {
  const tens = Math.abs(n) % 100;
  const units = Math.abs(n) % 10;
  if (n === 1) return forms.one;
  if (units >= 2 && units <= 4 && !(tens >= 12 && tens <= 14)) return forms.few;
  return forms.many;
}

/** `n` and its word: `count(5, FILES)` is "5 plików". */
export function count(n: number, forms: Forms): string {
  return `${n} ${form(n, forms)}`;
}
