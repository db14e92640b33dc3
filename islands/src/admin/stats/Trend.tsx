// A trend of 'Statystyki': bars per day, week or month drawn as an inline SVG (one colour per
// series, scaled to the width of the screen), and the same numbers as a table for screen readers
// and for reading exact values, each with its change from the period before.
import { useId } from "react";
import type { StatsBucket, StatsTotals } from "../generated/api";
import { change, number } from "./numbers";

export interface Series {
  key: keyof StatsTotals;
  label: string;
}

const HEIGHT = 120;

function Bars({ buckets, series, title }: { buckets: StatsBucket[]; series: Series[]; title: string }) {
  const max = Math.max(1, ...buckets.flatMap((b) => series.map((s) => b.totals[s.key])));
  const slot = 10;
  const bar = (slot - 2) / series.length;
  const first = buckets[0]?.label ?? "";
  const last = buckets[buckets.length - 1]?.label ?? "";
  return (
    <figure className="stats-chart">
      <p className="stats-chart-max" aria-hidden="true">
        {number(max)}
      </p>
      <svg
        viewBox={`0 0 ${buckets.length * slot} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Wykres: ${title}, od ${first} do ${last}. Te same liczby są w tabeli.`}
      >
        <line x1="0" y1={HEIGHT - 0.5} x2={buckets.length * slot} y2={HEIGHT - 0.5} className="stats-axis" />
        {buckets.map((b, i) =>
          series.map((s, j) => {
            const h = (b.totals[s.key] / max) * (HEIGHT - 4);
            return (
              <rect
                key={`${b.start}-${s.key}`}
                className={`stats-bar stats-bar-${j}`}
                x={i * slot + 1 + j * bar}
                y={HEIGHT - h}
                width={bar}
                height={h}
              />
            );
          }),
        )}
      </svg>
      <figcaption className="stats-chart-axis">
        <span>{first}</span>
        <span>{last}</span>
      </figcaption>
      {series.length > 1 && (
        <ul className="stats-legend">
          {series.map((s, j) => (
            <li key={s.key}>
              <span className={`stats-swatch stats-bar-${j}`} aria-hidden="true" /> {s.label}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}

/**
 * A chart of `series` over `buckets` (oldest first) and its table (newest first), each figure
 * with its change from the period before unless `changes` is false.
 */
export default function Trend(props: {
  title: string;
  buckets: StatsBucket[];
  before: StatsBucket;
  series: Series[];
  changes?: boolean;
}) {
  const { title, buckets, before, series, changes = true } = props;
  const id = useId();
  const rows = buckets.map((b, i) => ({ bucket: b, previous: buckets[i - 1] ?? before }));
  return (
    <section className="admin-card stats-trend" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      <Bars buckets={buckets} series={series} title={title} />
      <div className="table-scroll" tabIndex={0} role="region" aria-label={`Tabela: ${title}`}>
        <table className="stats-table">
          <caption className="visually-hidden">
            {title}
            {changes ? ": liczby i zmiana względem okresu wcześniej" : ""}
          </caption>
          <thead>
            <tr>
              <th scope="col">Okres</th>
              {series.map((s) => (
                <th scope="col" key={s.key}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.reverse().map(({ bucket, previous }) => (
              <tr key={bucket.start}>
                <th scope="row">{bucket.label}</th>
                {series.map((s) => (
                  <td key={s.key}>
                    {number(bucket.totals[s.key])}
                    {changes && (
                      <>
                        {" "}
                        <span className="stats-change">({change(bucket.totals[s.key], previous.totals[s.key])})</span>
                      </>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
