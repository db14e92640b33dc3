// Where a refused save says the problem is ('Sekcja 2, wiersz 5: …', 'Pozycja 3, nazwa: …'),
// so the form can scroll to that section or row, mark it and say the problem there.

export interface Place {
  /** The section's or row's number, from 1. */
  n: number;
  /** What the message names after the number ('nazwa', 'wiersz 5'), if anything. */
  field: string | null;
  /** The problem in the server's words, from the section or row on. */
  text: string;
}

export function placeOf(message: string, word: "Sekcja" | "Pozycja"): Place | null {
  const found = new RegExp(`${word} (\\d+)(?:, ([^:]+))?:`).exec(message);
  if (!found?.[1]) return null;
  return { n: Number(found[1]), field: found[2] ?? null, text: message.slice(found.index) };
}

/** Brings a field (the one a refusal names, or any) into view and focus, once it is shown. */
export function showProblem(id: string): void {
  requestAnimationFrame(() => {
    const field = document.getElementById(id);
    field?.scrollIntoView({ block: "center" });
    field?.focus({ preventScroll: true });
  });
}
