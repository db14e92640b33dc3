// The practice's opening hours in Warsaw time, worked out in the browser (the site is static,
// so the server cannot know the hour of a visit). Pure functions of the moment they are
// given: the page passes `new Date()`, which a test may fix (Playwright's clock).

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

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const DAYS_PL = ["pon.", "wt.", "śr.", "czw.", "pt.", "sob.", "niedz."];

/** The ISO weekday and the minute of the day of `now` in Warsaw. */
export function warsaw(now: Date): { day: number; minute: number } {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Warsaw",
    weekday: "short",
    hour: "numeric",
    minute: "numeric",
    hourCycle: "h23",
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "0";
  return { day: WEEKDAYS.indexOf(part("weekday")) + 1, minute: +part("hour") * 60 + +part("minute") };
}

const minutes = (time: string) => +time.slice(0, 2) * 60 + +time.slice(3, 5);
const clock = (time: string) => time.replace(/^0/, "");

/** Whether the practice is open at `now`, and what to say of its hours. */
export function practiceState(now: Date, hours: Hours[]): PracticeState {
  const { day, minute } = warsaw(now);
  const on = (d: number) => hours.find((h) => h.days.includes(d));
  const today = on(day);
  if (today && minutes(today.opens) <= minute && minute < minutes(today.closes)) {
    return { open: true, when: `dziś ${clock(today.opens)}–${clock(today.closes)}` };
  }
  for (let ahead = 0; ahead < 8; ahead += 1) {
    const d = ((day - 1 + ahead) % 7) + 1;
    const h = on(d);
    if (!h || (ahead === 0 && minute >= minutes(h.opens))) continue;
    const at = clock(h.opens);
    const next = ahead === 0 ? `dziś od ${at}` : ahead === 1 ? `jutro od ${at}` : `od ${DAYS_PL[d - 1]} ${at}`;
    return { open: false, when: `gabinet czynny ${next}` };
  }
  return { open: false, when: "gabinet nieczynny" };
}

/** What the crisis mode says of the practice while it is open: until when. */
export function openUntil(now: Date, hours: Hours[]): string {
  const today = hours.find((h) => h.days.includes(warsaw(now).day));
  return today ? `gabinet czynny dziś do ${clock(today.closes)}` : "";
}
