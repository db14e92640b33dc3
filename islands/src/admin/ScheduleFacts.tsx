// 'Godziny pracy' and 'Dni bez przyjęć' in 'Dane gabinetu': the rows of opening hours (days and
// times) and the practice's days off, on which the call control gives the crisis numbers.
import type { Hours, PracticeFacts } from "./api";
import DateField from "./DateField";
import FactText from "./FactText";

const DAYS: [string, string][] = [
  ["Monday", "pon."],
  ["Tuesday", "wt."],
  ["Wednesday", "śr."],
  ["Thursday", "czw."],
  ["Friday", "pt."],
  ["Saturday", "sob."],
  ["Sunday", "niedz."],
];
const DAY_NAMES: Record<string, string> = {
  Monday: "poniedziałek",
  Tuesday: "wtorek",
  Wednesday: "środa",
  Thursday: "czwartek",
  Friday: "piątek",
  Saturday: "sobota",
  Sunday: "niedziela",
};

export default function ScheduleFacts({
  facts,
  set,
}: {
  facts: PracticeFacts;
  set: (patch: Partial<PracticeFacts>) => void;
}) {
  const setHours = (i: number, patch: Partial<Hours>) =>
    set({ openingHours: facts.openingHours.map((h, j) => (j === i ? { ...h, ...patch } : h)) });
  const toggleDay = (i: number, day: string, on: boolean) => {
    const days = facts.openingHours[i]?.days ?? [];
    const next = DAYS.map(([d]) => d).filter((d) => (d === day ? on : days.includes(d)));
    setHours(i, { days: next });
  };
  // A draft kept before days off existed has none.
  const closures = facts.closures ?? [];
  return (
    <>
      <fieldset className="settings">
        <legend>Godziny pracy</legend>
        {facts.openingHours.map((h, i) => (
          <fieldset key={i} className="hours-row">
            <legend>Wiersz {i + 1}</legend>
            <div className="days">
              {DAYS.map(([day, short]) => (
                <label key={day} className="check">
                  <input
                    type="checkbox"
                    checked={h.days.includes(day)}
                    onChange={(e) => toggleDay(i, day, e.target.checked)}
                    aria-label={`${DAY_NAMES[day]}, wiersz ${i + 1}`}
                  />{" "}
                  <span aria-hidden="true">{short}</span>
                </label>
              ))}
            </div>
            <div className="field-row">
              <FactText
                id={`hours-${i}-opens`}
                label="Od"
                type="time"
                value={h.opens}
                onChange={(opens) => setHours(i, { opens })}
              />
              <FactText
                id={`hours-${i}-closes`}
                label="Do"
                type="time"
                value={h.closes}
                onChange={(closes) => setHours(i, { closes })}
              />
            </div>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => set({ openingHours: facts.openingHours.filter((_, j) => j !== i) })}
            >
              Usuń wiersz<span className="visually-hidden"> {i + 1} godzin pracy</span>
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => set({ openingHours: [...facts.openingHours, { days: [], opens: "09:00", closes: "17:00" }] })}
        >
          Dodaj wiersz godzin
        </button>
      </fieldset>
      <fieldset className="settings">
        <legend>Dni bez przyjęć</legend>
        <p className="muted">
          W święta państwowe (także Wielkanoc i Boże Ciało) gabinet jest zamknięty bez wpisywania ich tutaj. Dodaj
          urlop, szkolenie albo inny dzień, w którym nikt nie odbierze telefonu: strona poda wtedy numery pomocy i
          dzień, od którego gabinet znów pracuje.
        </p>
        {closures.map((c, i) => (
          <fieldset key={i} className="hours-row">
            <legend>Przerwa {i + 1}</legend>
            <div className="field-row">
              <DateField
                id={`closure-${i}-from`}
                label="Od"
                value={c.from}
                hint="Na przykład 3.08.2026"
                onChange={(from) => set({ closures: closures.map((x, j) => (j === i ? { ...x, from } : x)) })}
              />
              <DateField
                id={`closure-${i}-until`}
                label="Do (włącznie)"
                value={c.until}
                hint="Jeden dzień: ta sama data"
                onChange={(until) => set({ closures: closures.map((x, j) => (j === i ? { ...x, until } : x)) })}
              />
            </div>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => set({ closures: closures.filter((_, j) => j !== i) })}
            >
              Usuń przerwę<span className="visually-hidden"> {i + 1}</span>
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => set({ closures: [...closures, { from: "", until: "" }] })}
        >
          Dodaj dni bez przyjęć
        </button>
      </fieldset>
    </>
  );
}
