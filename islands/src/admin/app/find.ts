// One search through everything she can edit: the pages' texts and settings, the team's
// profiles, the price list, 'Napisy' and 'Dane gabinetu' with the footer. Each text found is
// an entry with where it is, in her words, and the field that holds it, which the panel opens.
import type { Editable, FactsEditable, Prices, TeamMember, WordsEditable } from "../api";
import { shortName } from "../names";
import type { Route } from "./routes";

export interface Entry {
  /** Where the text is, as she reads it: 'Strona główna → Sekcja 2'. */
  where: string;
  text: string;
  route: Route;
  /** The id of the field that holds it. */
  field: string;
}

export interface Corpus {
  pages: Editable[];
  team: TeamMember[];
  prices: Prices | null;
  words: WordsEditable | null;
  facts: FactsEditable | null;
}

const pageField = (id: string, name: string) => `text-${id.replace("/", "-")}-${name}`;
const settingField = (id: string, name: string) => `settings-${id.replace("/", "-")}-${name}`;

function pageEntries(page: Editable): Entry[] {
  const name = shortName(page);
  const route: Route = { view: "pages", doc: page.id };
  const sections = page.content.sections.map((s, i) => ({
    where: `${name} → Sekcja ${i + 1}`,
    text: s.content,
    route,
    field: `section-${i + 1}-content`,
  }));
  const texts = page.fields.map((f) => ({
    where: `${name} → ${f.label}`,
    text: String(page.settings[f.name as keyof typeof page.settings] ?? ""),
    route,
    field: pageField(page.id, f.name),
  }));
  const settings: [string, string, string | undefined][] = [
    ["title", "Tytuł", page.settings.title],
    ["description", "Opis dla wyszukiwarek", page.settings.description],
    ["excerpt", "Zajawka", page.settings.excerpt],
  ];
  return [
    ...texts,
    ...sections,
    ...settings.map(([key, label, text]) => ({
      where: `${name} → ${label}`,
      text: text ?? "",
      route,
      field: settingField(page.id, key),
    })),
  ];
}

function teamEntries(member: TeamMember): Entry[] {
  const route: Route = { view: "team", doc: member.slug };
  const p = member.profile;
  const where = (label: string) => `Zespół → ${p.name} → ${label}`;
  return [
    { where: where("Imię i nazwisko"), text: p.name, route, field: "profile-name" },
    { where: where("Rola"), text: p.role, route, field: "profile-role" },
    { where: where("Kwalifikacje"), text: p.qualifications.join("\n"), route, field: "profile-qualifications" },
    { where: where("Opis"), text: p.body, route, field: "profile-body" },
  ];
}

function priceEntries(prices: Prices): Entry[] {
  const route: Route = { view: "prices", doc: null };
  return prices.items.flatMap((row, i) => [
    { where: `Cennik → pozycja ${i + 1} → Nazwa`, text: row.name, route, field: `price-${i}-name` },
    { where: `Cennik → ${row.name} → Uwaga`, text: row.note, route, field: `price-${i}-note` },
  ]);
}

function wordEntries(words: WordsEditable): Entry[] {
  const route: Route = { view: "words", doc: null };
  return words.table
    .filter((w) => w.fixed === null)
    .map((w) => ({
      where: `Napisy → ${w.group} → ${w.label}`,
      text: words.values[w.key] ?? "",
      route,
      field: `word-${w.key}`,
    }));
}

function factEntries(loaded: FactsEditable): Entry[] {
  const route: Route = { view: "facts", doc: null };
  const f = loaded.facts;
  const at = (label: string, text: string, field: string): Entry => ({
    where: `Dane gabinetu → ${label}`,
    text,
    route,
    field,
  });
  return [
    at("Telefon", f.phone, "fact-phone"),
    at("E-mail", f.email, "fact-email"),
    at("Ulica i numer", f.street, "fact-street"),
    at("Miejscowość", f.city, "fact-city"),
    at("Pełna nazwa przedsiębiorcy", f.legalName, "fact-legal-name"),
    at("Stopka → Opis gabinetu", f.description, "fact-description"),
    ...f.social.map((s, i) => at(`Stopka → Profil ${i + 1}`, `${s.name} ${s.url}`, `social-${i}-url`)),
    ...(f.notice ? [at("Komunikat na każdej stronie", f.notice.text, "notice-text")] : []),
  ];
}

/** Every text she can edit, as entries. */
export function entries(corpus: Corpus): Entry[] {
  return [
    ...corpus.pages.flatMap(pageEntries),
    ...corpus.team.flatMap(teamEntries),
    ...(corpus.prices ? priceEntries(corpus.prices) : []),
    ...(corpus.words ? wordEntries(corpus.words) : []),
    ...(corpus.facts ? factEntries(corpus.facts) : []),
  ];
}

/** Text compared as she types it: lower case, without Polish letters' marks, spaces as one. */
export function folded(text: string): string {
  return text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").replace(/ł/g, "l").replace(/\s+/g, " ");
}

/** About 70 characters of `text` around where it has `wanted`, or "" when it has not. */
export function snippet(text: string, wanted: string): string {
  const flat = text.replace(/\s+/g, " ");
  const at = folded(flat).indexOf(folded(wanted));
  if (at < 0) return "";
  const start = Math.max(0, at - 30);
  const end = Math.min(flat.length, at + wanted.length + 40);
  return `${start > 0 ? "…" : ""}${flat.slice(start, end).trim()}${end < flat.length ? "…" : ""}`;
}

/** The entries that have `query` (at least 2 characters), at most `limit`. */
export function search(all: Entry[], query: string, limit = 20): (Entry & { snippet: string })[] {
  const wanted = query.trim();
  if ([...wanted].length < 2) return [];
  const found: (Entry & { snippet: string })[] = [];
  for (const entry of all) {
    const shown =
      snippet(entry.text, wanted) || (folded(entry.where).includes(folded(wanted)) ? entry.text.slice(0, 70) : "");
    if (shown) found.push({ ...entry, snippet: shown });
    if (found.length >= limit) break;
  }
  return found;
}
