// A booking button that opens the booking dialog (SPEC §2 Booking dialog). Before hydration,
// and without JavaScript, it is a plain link to the booking page.
import { useEffect, useId, useRef, useState, type MouseEvent } from "react";

/** The doctor whose widget the dialog embeds: the booking page is on the doctor-listing platform. */
export interface Doctor {
  platform: string;
  doctorId: string;
  widgetHost: string;
}

export interface BookingButtonProps {
  label: string;
  className: string;
  bookingUrl: string;
  /** `null`: the booking page is on Booksy, and the dialog offers its button. */
  doctor: Doctor | null;
}

const WIDGET_SCRIPT_ID = "zl-widget-s";
export const WIDGET_TITLE = "Widget umówienia wizyty lekarskiej";

interface WidgetApi {
  init?: () => void;
}

/** Reinitialises a widget that is already loaded, otherwise (re-)inserts its script. */
function loadWidget(host: string): void {
  const api = (window as unknown as { ZLWidget?: WidgetApi }).ZLWidget;
  const existing = document.getElementById(WIDGET_SCRIPT_ID);
  if (existing && typeof api?.init === "function") {
    api.init();
    return;
  }
  existing?.remove();
  const script = document.createElement("script");
  script.id = WIDGET_SCRIPT_ID;
  script.async = true;
  script.src = `${host}/js/widget.js`;
  document.body.appendChild(script);
}

function DoctorWidget({ doctor, profileUrl }: { doctor: Doctor; profileUrl: string }) {
  useEffect(() => loadWidget(doctor.widgetHost), [doctor.widgetHost]);
  return (
    <div className="doctor-widget" role="region" aria-label={WIDGET_TITLE} title={WIDGET_TITLE}>
      <a
        className="zl-url"
        href={profileUrl}
        rel="nofollow noopener"
        target="_blank"
        data-zlw-doctor={doctor.doctorId}
        data-zlw-type="big_with_calendar"
        data-zlw-opinion="false"
        data-zlw-hide-branding="true"
      >
        Zobacz wolne terminy w serwisie {doctor.platform}
      </a>
    </div>
  );
}

function BooksyLink({ url }: { url: string }) {
  return (
    <>
      <p>Kliknij poniższy przycisk, aby umówić wizytę przez Booksy:</p>
      <a className="btn btn-primary" href={url} target="_blank" rel="noopener">
        Umów wizytę przez Booksy
      </a>
    </>
  );
}

export default function BookingButton({ label, className, bookingUrl, doctor }: BookingButtonProps) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLAnchorElement>(null);
  const titleId = useId();

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  const onBackdrop = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === dialog.current) setOpen(false);
  };
  const onClosed = () => {
    setOpen(false);
    trigger.current?.focus();
  };

  return (
    <>
      <a
        ref={trigger}
        className={`btn ${className}`}
        href={bookingUrl}
        target="_blank"
        rel="noopener"
        aria-haspopup="dialog"
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {label}
      </a>
      <dialog ref={dialog} className="booking-dialog" aria-labelledby={titleId} onClose={onClosed} onClick={onBackdrop}>
        <div className="booking-dialog-body">
          <div className="booking-dialog-head">
            <h2 id={titleId}>Umów wizytę</h2>
            <button type="button" className="dialog-close" aria-label="Zamknij" onClick={() => setOpen(false)}>
              <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
                <path d="M5 5l14 14M19 5L5 19" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </button>
          </div>
          {open &&
            (doctor ? <DoctorWidget doctor={doctor} profileUrl={bookingUrl} /> : <BooksyLink url={bookingUrl} />)}
        </div>
      </dialog>
    </>
  );
}
