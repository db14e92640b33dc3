// The banner above every view of the panel while one of the server's alerts holds (the same
// alerts are e-mailed to the administrator), and the status it and 'Stan systemu' read.
import { useCallback, useEffect, useState } from "react";
import AlertNotice from "./AlertNotice";
import { request } from "./api";
import type { SystemStatus as Status } from "./generated/api";

/** How often the panel asks again. */
const REFRESH_MS = 30_000;

/** The status of the server, asked again every half minute while shown. */
export function useSystemStatus(): Status | null {
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
