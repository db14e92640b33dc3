// Dates as people type them ('24.12.2026', '24.12.2026 10:00') and as the content files keep
// them ('2026-12-24', '2026-12-24 10:00'): the panel shows and accepts the first, writes the
// second.

const TYPED = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(:\d{2})?)?$/;
const STORED = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(:\d{2})?)?$/;

const two = (n: string) => n.padStart(2, "0");

/** A typed day (DD.MM.RRRR, optionally with GG:MM) as the files keep it; other text unchanged. */
export function toStored(typed: string): string {
  const text = typed.trim();
  const m = TYPED.exec(text);
  if (!m) return text;
  const [, day = "", month = "", year = "", hour, minute, second = ""] = m;
  const date = `${year}-${two(month)}-${two(day)}`;
  return hour && minute ? `${date} ${two(hour)}:${minute}${second}` : date;
}

/** A stored date as people read it (DD.MM.RRRR, with GG:MM[:SS] if it has one); other text unchanged. */
export function toTyped(stored: string): string {
  const m = STORED.exec(stored.trim());
  if (!m) return stored;
  const [, year, month, day, hour, minute, second = ""] = m;
  return hour && minute ? `${day}.${month}.${year} ${hour}:${minute}${second}` : `${day}.${month}.${year}`;
}

/** The day part (RRRR-MM-DD) of a stored date, for a date picker; empty if there is none. */
export function dayOf(stored: string): string {
  return STORED.exec(stored.trim()) ? stored.trim().slice(0, 10) : "";
}

/** A stored date with its day replaced by `day` (RRRR-MM-DD), keeping its time. */
export function withDay(stored: string, day: string): string {
  const time = STORED.exec(stored.trim())?.[4] ? stored.trim().slice(10) : "";
  return day ? `${day}${time}` : stored;
}

/** Now in Warsaw, as the files keep a moment ('2026-12-03 10:00'). */
export function nowStored(at: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat("sv-SE", {
    timeZone: "Europe/Warsaw",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  }).format(at);
  return parts.replace(",", "").slice(0, 16);
}

/** A stored moment as the panel says it, short: '3.12, 10:00' (with the year when it is another). */
export function shortMoment(stored: string, at: Date = new Date()): string {
  const m = STORED.exec(stored.trim());
  if (!m) return stored;
  const [, year, month, day, hour, minute] = m;
  const sameYear = year === nowStored(at).slice(0, 4);
  const date = `${Number(day)}.${month}${sameYear ? "" : `.${year}`}`;
  return hour && minute ? `${date}, ${hour}:${minute}` : date;
}
