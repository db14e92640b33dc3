// The short name of a page in the panel's tabs: what the owner calls it ('Strona główna',
// 'Terapia par'), not its title for search engines ('Psycholog Gdańsk – Gabinet Harmonia: …').
import type { Editable } from "./api";

export function shortName(page: Pick<Editable, "route" | "kind" | "title">): string {
  if (page.route === "/") return "Strona główna";
  // The landing page of ads, whose title is the practice's name: said what it is.
  if (page.route === "/m1") return "Wejście z reklam (/m1)";
  // An article's title is what its readers see: it stays whole.
  if (page.kind === "article") return page.title;
  const name = (page.title.split(" – ")[0] ?? "").replace(/ w Gdańsku( i online)?$/, "").trim();
  return name || page.title;
}

/** Whether the panel lists a document among the pages to edit: not the panel's own page,
 *  which has no address on the site (the server gives it none) and nothing to edit. */
export function listed(page: Pick<Editable, "route" | "kind">): boolean {
  return page.kind !== "page" || page.route !== null;
}
