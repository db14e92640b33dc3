// The short name of a page in the panel's tabs: what the owner calls it ('Strona główna',
// 'Terapia par'), not its title for search engines ('Psycholog Gdańsk – Gabinet Harmonia: …').
import type { Editable } from "./api";

export function shortName(page: Pick<Editable, "route" | "kind" | "title">): string {
  if (page.route === "/") return "Strona główna";
  // An article's title is what its readers see: it stays whole.
  if (page.kind === "article") return page.title;
  const name = (page.title.split(" – ")[0] ?? "").replace(/ w Gdańsku( i online)?$/, "").trim();
  return name || page.title;
}
