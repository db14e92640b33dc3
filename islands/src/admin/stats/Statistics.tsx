// 'Statystyki': what the site does for the practice, in the owner's words — visitors and page
// views per day, week or month with the change from the period before, the pages and articles
// read most, where visitors came from, booking taps, calls and messages, the pages people
// leave from, addresses that do not exist and calendars that did not load; every count as CSV.
// The server counts without cookies and keeps only these sums (sidecar/src/stats).
import { useCallback, useEffect, useState } from "react";
import { isApiError, statistics } from "../api";
import type { Statistics as Report, StatsPeriod } from "../generated/api";
import { compared, number } from "./numbers";
import Ranking from "./Ranking";
import Trend from "./Trend";

const PERIODS: [StatsPeriod, string][] = [
  ["day", "Dni"],
  ["week", "Tygodnie"],
  ["month", "Miesiące"],
];

const SUMMARY: [keyof Report["totals"], string][] = [
  ["visitors", "Odwiedzający"],
  ["views", "Wyświetlenia stron"],
  ["bookings", "Kliknięcia „Umów wizytę”"],
  ["calls", "Kliknięcia telefonu gabinetu"],
  ["messages", "Wysłane wiadomości"],
  ["crisis", "Kliknięcia numerów pomocy"],
  ["landing", "Z /m1 na stronę główną"],
];

function Summary({ report }: { report: Report }) {
  return (
    <dl className="stats-summary">
      {SUMMARY.map(([key, label]) => (
        <div key={key}>
          <dt>{label}</dt>
          <dd>
            <strong>{number(report.totals[key])}</strong>{" "}
            <span className="stats-change">{compared(report.totals[key], report.previous[key], report.period)}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function saveCsv(period: StatsPeriod, blob: Blob): void {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `statystyki-${period}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}

export default function Statistics() {
  const [period, setPeriod] = useState<StatsPeriod>("day");
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState("");
  const load = useCallback(async (p: StatsPeriod) => {
    try {
      setReport(await statistics.read(p));
      setError("");
    } catch (e) {
      setError(isApiError(e) && e.error ? e.error : "Nie udało się pobrać statystyk.");
    }
  }, []);
  useEffect(() => void load(period), [load, period]);
  const download = async () => {
    try {
      saveCsv(period, await statistics.csv(period));
    } catch (e) {
      setError(isApiError(e) && e.error ? e.error : "Nie udało się pobrać pliku CSV.");
    }
  };
  if (!report && !error) return <p role="status">Wczytywanie statystyk…</p>;
  return (
    <div className="stats">
      <section className="admin-card" aria-labelledby="stats-title">
        <h2 id="stats-title">Statystyki</h2>
        <p>
          Strona liczy odwiedziny sama, bez plików cookies i bez firm trzecich: zapisuje tylko zbiorcze liczby na każdy
          dzień, nigdy adres, przeglądarkę ani nic, co wskazywałoby osobę. Osoby, które proszą przeglądarkę o brak
          śledzenia, i programy nie są liczone.
          {report && ` Liczby są przechowywane przez ${report.retentionMonths} miesięcy.`}
        </p>
        {report && !report.enabled && (
          <p className="form-notice">
            Liczenie odwiedzin jest wyłączone w ustawieniach serwera (STATS=off); poniżej to, co zebrano wcześniej.
          </p>
        )}
        {error && (
          <p className="form-notice form-notice-error" role="alert">
            {error}
          </p>
        )}
        <div className="stats-controls">
          <div className="stats-periods" role="group" aria-label="Okres">
            {PERIODS.map(([key, label]) => (
              <button
                key={key}
                type="button"
                className="btn btn-secondary btn-small"
                aria-pressed={period === key}
                onClick={() => setPeriod(key)}
              >
                {label}
              </button>
            ))}
          </div>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void download()}>
            Pobierz CSV
          </button>
        </div>
        {report && <Summary report={report} />}
      </section>
      {report && <Details report={report} />}
    </div>
  );
}

function Details({ report }: { report: Report }) {
  const { buckets, before } = report;
  const pages = "Wyświetlenia";
  return (
    <>
      <Trend
        title="Odwiedzający i wyświetlenia stron"
        buckets={buckets}
        before={before}
        series={[
          { key: "visitors", label: "Odwiedzający" },
          { key: "views", label: "Wyświetlenia" },
        ]}
      />
      <Trend
        title="Umówienia, telefony i wiadomości"
        buckets={buckets}
        before={before}
        changes={false}
        series={[
          { key: "bookings", label: "Umów wizytę" },
          { key: "calls", label: "Telefon" },
          { key: "messages", label: "Wiadomości" },
        ]}
      />
      <div className="stats-lists">
        <Ranking title="Najczęściej czytane strony" rows={report.pages} unit={pages} empty="Nikt jeszcze nie czytał." />
        <Ranking
          title="Najczęściej czytane artykuły"
          rows={report.articles}
          unit={pages}
          empty="Nikt jeszcze nie czytał."
        />
        <Ranking
          title="Skąd przychodzą odwiedzający"
          rows={report.sources}
          unit="Odwiedzający"
          empty="Brak odwiedzin."
          hint="Strona, z której ktoś wszedł na Twoją (wyszukiwarka, portal, inna witryna)."
        />
        <Ranking title="Na czym czytają" rows={report.devices} unit="Odwiedzający" empty="Brak odwiedzin." />
        <Ranking
          title="Kliknięcia „Umów wizytę” według kalendarza"
          rows={report.bookings}
          unit="Kliknięcia"
          empty="Nikt jeszcze nie kliknął."
        />
        <Ranking
          title="Kliknięcia numerów pomocy"
          rows={report.crisis}
          unit="Kliknięcia"
          empty="Nikt jeszcze nie kliknął."
        />
        <Ranking
          title="Strony, z których odwiedzający wychodzą"
          rows={report.exits}
          unit="Wyjścia"
          empty="Jeszcze nikt nie wyszedł."
          hint="Ostatnia strona przed co najmniej pół godziny bez czytania."
        />
        <Ranking
          title="Adresy, których nie ma na stronie"
          rows={report.notFound}
          unit="Wejścia"
          empty="Nikt nie trafił pod nieistniejący adres."
        />
        <Ranking
          title="Kalendarze, które się nie wczytały"
          rows={report.widgets}
          unit="Razy"
          empty="Każdy kalendarz się wczytał."
        />
      </div>
    </>
  );
}
