// 'Stan systemu': what the server's alerts watch — the outbox, the backups, the disk — and
// the figures /metrics gives Prometheus, in Polish; and the banner above every view while an
// alert holds (the same alerts are e-mailed to the administrator). Every alert and warning
// says what happened, what it means and what to do; the programs' own words are only under
// 'Szczegóły dla informatyka' (AlertNotice).
import { useCallback, useEffect, useState } from "react";
import AlertNotice, { Details, when } from "./AlertNotice";
import { request } from "./api";
import type { MetricSample, SystemStatus as Status } from "./generated/api";
import { count as counted, TIMES } from "./plural";

/** How often the panel asks again. */
const REFRESH_MS = 30_000;

/** The clock time of a moment in the practice's time (Warsaw): "14:02". */
function clock(seconds: number): string {
  return new Date(seconds * 1000).toLocaleTimeString("pl-PL", {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "Europe/Warsaw",
  });
}

/** A duration as people say it. */
export function spoken(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 2 * 86_400) return `${Math.floor(s / 3600)} godz.`;
  return `${Math.floor(s / 86_400)} dni`;
}

function gigabytes(bytes: number): string {
  return `${(bytes / 1024 ** 3).toLocaleString("pl-PL", { maximumFractionDigits: 1 })} GB`;
}

function label(sample: MetricSample, name: string): string {
  return sample.labels.find(([k]) => k === name)?.[1] ?? "";
}

/** The value of the sample `name` (`sidecar_build_seconds_sum`…), if rendered. */
function valueOf(samples: MetricSample[], name: string): number | null {
  return samples.find((s) => s.name === name)?.value ?? null;
}

/** The status of the server, asked again every half minute while shown. */
function useSystemStatus(): Status | null {
  const [status, setStatus] = useState<Status | null>(null);
  const load = useCallback(async () => {
    try {
      setStatus(await request<Status>("GET", "/api/system", undefined, { background: true }));
    } catch {
      // Signed out or offline: the rest of the panel says so.
    }
  }, []);
  useEffect(() => {
    void load();
    const timer = window.setInterval(() => void load(), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [load]);
  return status;
}

/** Above every view while an alert holds. */
export function SystemAlertsBanner({ onOpen }: { onOpen: () => void }) {
  const status = useSystemStatus();
  if (!status || status.alerts.length === 0) return null;
  return (
    <div className="form-notice form-notice-error system-alerts" role="alert">
      {status.alerts.map((a) => (
        <AlertNotice key={a.key} alert={a} />
      ))}
      <button type="button" className="btn btn-secondary btn-small" onClick={onOpen}>
        Zobacz stan systemu
      </button>
    </div>
  );
}

/** What the alerts' card says first: all well only when nothing needs her. */
function summary(status: Status): string {
  if (status.alerts.length > 0) return "Coś przestało działać: szczegóły i co zrobić poniżej.";
  if (status.warnings.length > 0) return "Strona działa, ale coś wymaga uwagi:";
  return "Wszystko działa: żaden alert nie jest aktywny.";
}

function Alerts({ status }: { status: Status }) {
  const all = [...status.alerts, ...status.warnings];
  return (
    <>
      <p>{summary(status)}</p>
      {all.map((a) => (
        <AlertNotice key={a.key} alert={a} since={a.level === "alert"} />
      ))}
    </>
  );
}

function Backups({ status }: { status: Status }) {
  const b = status.backups;
  if (!b) {
    return <p>Kopie zapasowe nie są robione automatycznie (zob. uwagę w części „Alerty”).</p>;
  }
  return (
    <>
      {b.runningSince !== null && (
        <p className="form-notice" role="status">
          Trwa kopia zapasowa (od {clock(b.runningSince)}).
        </p>
      )}
      <dl className="system-figures">
        <dt>Kopia co</dt>
        <dd>{spoken(b.intervalSeconds)}</dd>
        <dt>Ostatnia udana kopia</dt>
        <dd>
          {b.lastSuccessAt
            ? `${when(b.lastSuccessAt)} (${spoken(status.now - b.lastSuccessAt)} temu, trwała ${spoken((b.lastDurationMs ?? 0) / 1000)})`
            : "jeszcze żadnej"}
        </dd>
        {b.lastFailureAt !== null && (b.lastSuccessAt === null || b.lastFailureAt > b.lastSuccessAt) && (
          <>
            <dt>Ostatnia nieudana próba</dt>
            <dd>{when(b.lastFailureAt)}</dd>
          </>
        )}
      </dl>
      {b.lastError && <Details text={b.lastError} />}
    </>
  );
}

function Requests({ samples }: { samples: MetricSample[] }) {
  const rows = samples
    .filter((s) => s.name === "sidecar_http_requests_total")
    .sort((a, b) => b.value - a.value)
    .slice(0, 15);
  if (rows.length === 0) return <p>Od uruchomienia serwera nie było jeszcze żadnych zapytań.</p>;
  return (
    <table className="system-requests">
      <thead>
        <tr>
          <th scope="col">Adres</th>
          <th scope="col">Kod odpowiedzi</th>
          <th scope="col">Liczba</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((s) => (
          <tr key={`${label(s, "route")} ${label(s, "status")}`}>
            <td>{label(s, "route") === "static" ? "pliki strony i panelu" : label(s, "route")}</td>
            <td>{label(s, "status")}</td>
            <td>{s.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Builds({ samples }: { samples: MetricSample[] }) {
  const count = valueOf(samples, "sidecar_build_seconds_count");
  const sum = valueOf(samples, "sidecar_build_seconds_sum");
  const publish = valueOf(samples, "sidecar_publish_seconds_sum");
  if (!count || sum === null) return <p>Od uruchomienia serwera strona nie była jeszcze budowana.</p>;
  const average = (seconds: number) => `${(seconds / count).toLocaleString("pl-PL", { maximumFractionDigits: 2 })} s`;
  return (
    <p>
      Zbudowano {counted(count, TIMES)}; średnio {average(sum)}, z tego zapis do dist/ {average(publish ?? 0)}.
    </p>
  );
}

export default function SystemStatus() {
  const status = useSystemStatus();
  if (!status) return <p role="status">Wczytywanie stanu systemu…</p>;
  const { outbox } = status;
  const delivered = status.metrics.find(
    (s) => s.name === "sidecar_contact_messages" && label(s, "status") === "delivered",
  );
  const free =
    status.diskFreeBytes !== null && status.diskTotalBytes
      ? Math.floor((status.diskFreeBytes * 100) / status.diskTotalBytes)
      : null;
  return (
    <div className="system-status">
      <section className="admin-card" aria-labelledby="system-alerts-title">
        <h2 id="system-alerts-title">Alerty</h2>
        <Alerts status={status} />
      </section>
      <section className="admin-card" aria-labelledby="system-outbox-title">
        <h2 id="system-outbox-title">Wiadomości z formularza</h2>
        <dl className="system-figures">
          <dt>Czekają na wysłanie e-mailem</dt>
          <dd>{outbox.pending}</dd>
          <dt>Najstarsza czekająca</dt>
          <dd>{outbox.oldestPendingAt ? `od ${spoken(status.now - outbox.oldestPendingAt)}` : "brak"}</dd>
          <dt>Wysłane (w okresie przechowywania)</dt>
          <dd>{delivered?.value ?? 0}</dd>
          <dt>Niewysłane mimo prób</dt>
          <dd>{outbox.failed}</dd>
        </dl>
      </section>
      <section className="admin-card" aria-labelledby="system-backups-title">
        <h2 id="system-backups-title">Kopie zapasowe</h2>
        <Backups status={status} />
      </section>
      <section className="admin-card" aria-labelledby="system-disk-title">
        <h2 id="system-disk-title">Dysk</h2>
        <p>
          {free === null || status.diskFreeBytes === null || status.diskTotalBytes === null
            ? "Nie udało się odczytać wolnego miejsca."
            : `Wolne ${free}% (${gigabytes(status.diskFreeBytes)} z ${gigabytes(status.diskTotalBytes)}).`}
        </p>
      </section>
      <section className="admin-card" aria-labelledby="system-requests-title">
        <h2 id="system-requests-title">Zapytania od uruchomienia serwera</h2>
        <Requests samples={status.metrics} />
      </section>
      <section className="admin-card" aria-labelledby="system-builds-title">
        <h2 id="system-builds-title">Budowanie strony</h2>
        <Builds samples={status.metrics} />
      </section>
    </div>
  );
}
