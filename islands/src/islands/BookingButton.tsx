// A booking button that opens the booking dialog. Before hydration,
// and without JavaScript, it is a plain link to the booking page.
import { useEffect, useId, useRef, useState, type MouseEvent } from "react";

/** The doctor whose widget the dialog embeds: the booking page is on the doctor-listing platform. */
export interface Doctor {
  platform: string;
  doctorId: string;
  widgetHost: string;
  /** What the platform's widget sets in the browser, named in the dialog ('pliki cookies (…)'). */
  cookies?: string | null;
}

/** Where the button leads: the platform and whose calendar (views::BookingNote, whose `text`
 *  the generator writes once for every booking button of the site). */
export interface BookingNote {
  person: string | null;
  platform: string;
  text: string;
}

export interface BookingButtonProps {
  label: string;
  className: string;
  bookingUrl: string;
  /** `null`: the booking page is on Booksy, and the dialog offers its button. */
  doctor: Doctor | null;
  /** Where the button leads, said beside it before the tap. */
  note?: BookingNote | null;
  /** The practice's phone and its hours, at the foot of the dialog. */
  phone?: string;
  hours?: string;
}

const WIDGET_SCRIPT_ID = "zl-widget-s";
export const WIDGET_TITLE = "Widget umówienia wizyty lekarskiej";

interface WidgetApi {
  init?: () => void;
}

/** How long the widget may take before the dialog says it did not come. */
const PATIENCE_MS = 10_000;
const NEW_TAB = " (otwiera się w nowej karcie)";

/**
 * Reinitialises a widget that is already loaded, otherwise (re-)inserts its script;
 * `onError` when the script cannot load.
 */
function loadWidget(host: string, onError: () => void): void {
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
  script.addEventListener("error", onError);
  document.body.appendChild(script);
}

/** The site's statistics count a widget that did not load (site/statistics.ts listens). */
function countFailure(): void {
  document.dispatchEvent(new CustomEvent("harmonia:count", { detail: { e: "widget", l: "okno-rezerwacji" } }));
}

/** The practice's phone with the hours it answers, at the foot of the dialog. */
function Phone({ phone, hours }: { phone: string; hours: string }) {
  return (
    <p className="widget-phone">
      Wolisz zadzwonić? Telefon gabinetu: <a href={`tel:${phone.replace(/\s/g, "")}`}>{phone}</a>
      {hours && ` (${hours})`}
    </p>
  );
}

/**
 * The platform's calendar for one doctor. Until it comes, the dialog says it is loading; if
 * it does not (its script fails, or no calendar within 10 s), a sentence says so, beside the
 * platform's link and the practice's phone, and takes the focus.
 */
function DoctorWidget(props: { doctor: Doctor; profileUrl: string; note: BookingNote | null }) {
  const { doctor, profileUrl, note } = props;
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const box = useRef<HTMLDivElement>(null);
  const sentence = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const fail = () => setState((s) => (s === "loading" ? "failed" : s));
    loadWidget(doctor.widgetHost, fail);
    const el = box.current;
    const observer = new MutationObserver(() => {
      if (el?.querySelector("iframe")) {
        setState("ready");
        observer.disconnect();
      }
    });
    if (el) observer.observe(el, { childList: true, subtree: true });
    const timer = setTimeout(fail, PATIENCE_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [doctor.widgetHost]);
  useEffect(() => {
    if (state !== "failed") return;
    sentence.current?.focus();
    countFailure();
  }, [state]);
  const whose = note?.person ? `Kalendarz: ${note.person}. ` : "";
  return (
    <div className="doctor-widget" role="region" aria-label={WIDGET_TITLE} title={WIDGET_TITLE} ref={box}>
      {state === "loading" && (
        <p className="widget-status" role="status">
          Wczytuję kalendarz wolnych terminów z serwisu {doctor.platform}…
        </p>
      )}
      {doctor.cookies && (
        <p className="widget-note">
          Serwis {doctor.platform} zapisze w Twojej przeglądarce swoje {doctor.cookies}, opisane w{" "}
          <a href="/polityka-prywatnosci">polityce prywatności</a>.
        </p>
      )}
      {state === "failed" && (
        <p className="widget-fallback" tabIndex={-1} ref={sentence}>
          <strong>Kalendarz serwisu {doctor.platform} się nie wczytał.</strong> {whose}Wolne terminy zobaczysz na
          stronie serwisu (link poniżej) albo umówisz się przez telefon (numer pod linkiem).
        </p>
      )}
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
        <span className="visually-hidden">{NEW_TAB}</span>
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
        <span className="visually-hidden">{NEW_TAB}</span>
      </a>
    </>
  );
}

export default function BookingButton(props: BookingButtonProps) {
  const { label, className, bookingUrl, doctor } = props;
  const note = props.note ?? null;
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLAnchorElement>(null);
  const titleId = useId();
  const noteId = useId();

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
        aria-describedby={note ? noteId : undefined}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {label}
      </a>
      {note && (
        <p className="booking-note" id={noteId}>
          {note.text}
        </p>
      )}
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
            (doctor ? (
              <DoctorWidget doctor={doctor} profileUrl={bookingUrl} note={note} />
            ) : (
              <BooksyLink url={bookingUrl} />
            ))}
          {open && props.phone && <Phone phone={props.phone} hours={props.hours ?? ""} />}
        </div>
      </dialog>
    </>
  );
}
