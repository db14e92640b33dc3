// A list of 'Statystyki': the pages, sources or buttons counted most in the period, each with
// its count and a bar of its share, as a table (a screen reader reads it as one).
import { useId } from "react";
import type { StatsRanked } from "../generated/api";
import { number } from "./numbers";

export default function Ranking(props: {
  title: string;
  rows: StatsRanked[];
  unit: string;
  empty: string;
  hint?: string;
}) {
  const { title, rows, unit, empty, hint } = props;
  const id = useId();
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <section className="admin-card stats-ranking" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {hint && <p className="muted">{hint}</p>}
      {rows.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <table className="stats-table">
          <thead>
            <tr>
              <th scope="col">Co</th>
              <th scope="col">{unit}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.name}>
                <th scope="row">
                  <span className="stats-name">{r.title}</span>
                  {r.title !== r.name && r.name.startsWith("/") && <span className="stats-route">{r.name}</span>}
                  <svg className="stats-share" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true">
                    <rect width={(r.count / max) * 100} height="4" />
                  </svg>
                </th>
                <td>{number(r.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
