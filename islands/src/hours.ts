// The practice's opening hours in Warsaw time, worked out in the browser (the site is static,
// so the server cannot know the hour of a visit). Pure functions of the moment they are
// given: the page passes `new Date()`, which a test may fix (Playwright's clock). Public
// holidays and the practice's own days off come from the build (content::holidays) as
// `closed` dates: on them the practice is closed all day, as at night.

export interface Hours {
  /** ISO weekdays: 1 Monday … 7 Sunday. */
  days: number[];
  /** "HH:MM" */
  opens: string;
  closes: string;
}

export interface PracticeState {
  /** Open at this moment. */
  open: boolean;
  /** Today's hours ("dziś 9:00–20:00"), or when it opens next ("czynny jutro od 9:00"). */
  when: string;
}

const DAYS_PL = ["pon.", "wt.", "śr.", "czw.", "pt.", "sob.", "niedz."];
/** How far ahead the next opening is looked for (a long holiday of the practice included). */
const LOOK_AHEAD_DAYS = 62;

/** The calendar day `ahead` days after `date` ("YYYY-MM-DD"): its date, ISO weekday and "D.MM". */
function dayAfter(date: string, ahead = 0): { iso: string; day: number; label: string } {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + ahead);
  const iso = d.toISOString().slice(0, 10);
  return { iso, day: ((d.getUTCDay() + 6) % 7) + 1, label: `${d.getUTCDate()}.${iso.slice(5, 7)}` };
}

/** The date ("YYYY-MM-DD"), ISO weekday and minute of the day of `now` in Warsaw. */
export function warsaw(now: Date): { date: string; day: number; minute: number } {
  // Swedish writes a moment as ISO does: "2026-11-30 10:05:00".
  const local = now.toLocaleString("sv-SE", { timeZone: "Europe/Warsaw", hourCycle: "h23" });
  const date = local.slice(0, 10);
  return { date, day: dayAfter(date).day, minute: +local.slice(11, 13) * 60 + +local.slice(14, 16) };
}

const minutes = (time: string) => +time.slice(0, 2) * 60 + +time.slice(3, 5);
const clock = (time: string) => time.replace(/^0/, "");

/** Whether the practice is open at `now`, and what to say of its hours. */
export function practiceState(now: Date, hours: Hours[], closed: string[] = []): PracticeState {
  const { date, day, minute } = warsaw(now);
  const shut = new Set(closed);
  const on = (d: number) => hours.find((h) => h.days.includes(d));
  const today = shut.has(date) ? undefined : on(day);
  if (today && minutes(today.opens) <= minute && minute < minutes(today.closes)) {
    return { open: true, when: `dziś ${clock(today.opens)}–${clock(today.closes)}` };
  }
  for (let ahead = 0; ahead < LOOK_AHEAD_DAYS; ahead += 1) {
    const next = dayAfter(date, ahead);
    const h = shut.has(next.iso) ? undefined : on(next.day);
    if (!h || (ahead === 0 && minute >= minutes(h.opens))) continue;
    const at = clock(h.opens);
    const when =
      ahead === 0
        ? `dziś od ${at}`
        : ahead === 1
          ? `jutro od ${at}`
          : ahead < 7
            ? `od ${DAYS_PL[next.day - 1]} ${at}`
            : `od ${next.label} ${at}`;
    return { open: false, when: `gabinet czynny ${when}` };
  }
  return { open: false, when: "gabinet nieczynny" };
}

/** What the crisis mode says of the practice while it is open: until when. */
export function openUntil(now: Date, hours: Hours[]): string {
  const today = hours.find((h) => h.days.includes(warsaw(now).day));
  return today ? `gabinet czynny dziś do ${clock(today.closes)}` : "";
}
