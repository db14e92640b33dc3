// How 'Statystyki' writes its numbers: in Polish, with the change from the period before.

export const number = (n: number) => n.toLocaleString("pl-PL");

/** The change from `before` to `now`, as the owner reads it: '+12%', '−5%', 'bez zmian', 'nowe'. */
export function change(now: number, before: number): string {
  if (now === before) return "bez zmian";
  if (before === 0) return "wcześniej 0";
  const percent = Math.round(((now - before) / before) * 100);
  if (percent === 0) return "bez zmian";
  return percent > 0 ? `+${percent}%` : `−${Math.abs(percent)}%`;
}

/** The stretch before the one shown, as the summary names it. */
export const BEFORE: Record<string, string> = {
  day: "w poprzednich 30 dniach",
  week: "w poprzednich 12 tygodniach",
  month: "w poprzednich 12 miesiącach",
};

/** What the summary says of the stretch before: its figure, and the change when it says more. */
export function compared(now: number, before: number, period: string): string {
  const said = `${number(before)} ${BEFORE[period] ?? ""}`;
  return before > 0 && now !== before ? `${said}, zmiana ${change(now, before)}` : said;
}
