// 'Komunikat na każdej stronie' in 'Dane gabinetu': a notice every page shows between two moments.
import type { PracticeFacts } from "./api";
import DateField from "./DateField";
import FactText from "./FactText";

export default function NoticeFacts({
  facts,
  set,
}: {
  facts: PracticeFacts;
  set: (patch: Partial<PracticeFacts>) => void;
}) {
  const notice = facts.notice;
  return (
    <fieldset className="settings">
      <legend>Komunikat na każdej stronie</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={notice !== null}
          onChange={(e) => set({ notice: e.target.checked ? { text: "", from: "", until: "" } : null })}
        />{" "}
        Pokazuj komunikat (na przykład „Gabinet nieczynny 24.12–1.01”)
      </label>
      {notice && (
        <>
          <FactText
            id="notice-text"
            label="Treść komunikatu"
            value={notice.text}
            onChange={(text) => set({ notice: { ...notice, text } })}
          />
          <div className="field-row">
            <DateField
              id="notice-from"
              label="Od"
              value={notice.from}
              hint="Na przykład 24.12.2026 (od początku dnia) albo 24.12.2026 10:00, czas polski"
              onChange={(from) => set({ notice: { ...notice, from } })}
            />
            <DateField
              id="notice-until"
              label="Do"
              value={notice.until}
              hint="Na przykład 27.12.2026 (do końca dnia) albo 27.12.2026 18:00"
              onChange={(until) => set({ notice: { ...notice, until } })}
            />
          </div>
          <p className="muted">Komunikat pojawi się i zniknie sam, w podanych dniach.</p>
        </>
      )}
    </fieldset>
  );
}
