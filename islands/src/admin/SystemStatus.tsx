// 'Stan systemu': what the server's alerts watch — the outbox, the backups, the disk — and
// the figures /metrics gives Prometheus, in Polish. Every alert and warning says what happened,
// what it means and what to do; the programs' own words are only under 'Szczegóły dla
// informatyka' (AlertNotice). A view of its own, loaded when opened; the banner above every
// view is SystemAlerts.tsx.
import AlertNotice, { Details, when } from "./AlertNotice";
import type { MetricSample, SystemStatus as Status } from "./generated/api";
import LaunchChecklist, { useLaunchList } from "./LaunchChecklist";
import { count as counted, TIMES } from "./plural";
import { useSystemStatus } from "./SystemAlerts";

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

/** What a request was for, in her words. */
function purpose(route: string): string {
  if (route === "static") return "strony i obrazy";
  if (route.startsWith("/api/contact")) return "formularz kontaktowy";
  if (route.startsWith("/api/auth")) return "logowanie do panelu";
  if (route.startsWith("/api/")) return "praca w panelu";
  return "strony";
}

/** How a request ended, in her words. */
function outcome(status: string): string {
  if (status.startsWith("2") || status.startsWith("3")) return "obsłużone";
  if (status === "429") return "odrzucone: za wiele naraz";
  if (status.startsWith("4")) return "odrzucone";
  return "błąd serwera";
}

function Requests({ samples }: { samples: MetricSample[] }) {
  const counts = new Map<string, number>();
  for (const s of samples.filter((s) => s.name === "sidecar_http_requests_total")) {
    const key = `${purpose(label(s, "route"))}: ${outcome(label(s, "status"))}`;
    counts.set(key, (counts.get(key) ?? 0) + s.value);
  }
  const rows = [...counts].sort((a, b) => b[1] - a[1]);
  if (rows.length === 0) return <p>Od uruchomienia serwera nie było jeszcze żadnych odwiedzin.</p>;
  return (
    <dl className="system-figures">
      {rows.map(([what, count]) => (
        <div key={what}>
          <dt>{what}</dt>
          <dd>{count}</dd>
        </div>
      ))}
    </dl>
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
      Zbudowano {counted(count, TIMES)}; średnio {average(sum)}, z tego zapisanie gotowych stron {average(publish ?? 0)}
      .
    </p>
  );
}

export default function SystemStatus() {
  const status = useSystemStatus();
  const launch = useLaunchList();
  if (!status || launch === undefined) return <p role="status">Wczytywanie stanu systemu…</p>;
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
      <LaunchChecklist list={launch} always />
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
        <h2 id="system-requests-title">Odwiedziny od uruchomienia serwera</h2>
        <Requests samples={status.metrics} />
      </section>
      <section className="admin-card" aria-labelledby="system-builds-title">
        <h2 id="system-builds-title">Budowanie strony</h2>
        <Builds samples={status.metrics} />
      </section>
    </div>
  );
}
