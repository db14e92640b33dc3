// Where a refused save says the problem is: the server sends it as data (a section, a row of
// the price list, a field, beside the sentence), so the form scrolls to it, marks it and says
// the problem there.
import type { Place } from "./generated/api";

export type { Place };

/** The first problem of a refusal that names where it is in the form, if any does. */
export function placeOf(problems: Place[] | undefined): Place | null {
  return problems?.find((p) => p.section !== undefined || p.row !== undefined || p.field !== undefined) ?? null;
}

/**
 * Brings a field (the one a refusal names, or any) into view and focus, once it is shown: a
 * field she sees stays where it is; one out of sight comes just into it, clear of the header
 * and of the save bar that sticks to the bottom of the screen. A form just opened (`start`)
 * comes with its first field at the top, the fields under it in sight.
 */
export function showProblem(id: string, block: ScrollLogicalPosition = "nearest"): void {
  requestAnimationFrame(() => {
    const field = document.getElementById(id);
    if (!field) return;
    field.scrollIntoView({ block });
    const bar = document.querySelector(".save-bar")?.getBoundingClientRect();
    const under = bar && bar.top < window.innerHeight ? field.getBoundingClientRect().bottom - bar.top : 0;
    if (under > 0) window.scrollBy(0, under + 16);
    field.focus({ preventScroll: true });
  });
}
