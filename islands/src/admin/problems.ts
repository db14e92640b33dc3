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
 * field she sees stays where it is; one out of sight comes just into it, clear of the header and
 * of the save bar (the page's scroll padding, admin.css).
 */
export function showProblem(id: string): void {
  requestAnimationFrame(() => {
    const field = document.getElementById(id);
    field?.scrollIntoView({ block: "nearest" });
    field?.focus({ preventScroll: true });
  });
}
