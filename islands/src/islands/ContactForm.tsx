// The contact form of the home page. Rendered ahead of time; without
// JavaScript it posts to the sidecar like any form, with it it sends JSON and shows toasts.
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from "react";
import {
  fullPhone,
  nationalPhone,
  phoneError,
  rules,
  validate,
  type ContactMessage,
  type Errors,
} from "../contact/rules";
import { Toasts, useToasts } from "../toasts";

export type Notice = "sent" | "confirm" | "refused";

export interface ContactFormProps {
  /** What the form without JavaScript was sent with, its booking request's checkbox too. */
  initial?: Partial<ContactMessage> & { earlyStart?: boolean };
  errors?: Errors;
  notice?: Notice;
  noticeText?: string;
  token?: string;
  /** The practice's phone and hours, offered when a message cannot be sent. */
  phone?: string;
  hours?: string;
}

const empty: ContactMessage = { name: "", email: "", phone: "", countryCode: rules.defaultCountryCode, message: "" };
export const SENT = {
  title: "Wiadomość wysłana!",
  text: "Dziękujemy za kontakt. Odpowiemy tak szybko, jak to możliwe.",
};
export const FAILED = {
  title: "Błąd wysyłania",
  text: "Przepraszamy, wystąpił błąd podczas wysyłania wiadomości. Spróbuj ponownie później.",
};
const CONFIRM = "Sprawdź swoje dane i kliknij „Wyślij wiadomość”, aby potwierdzić wysłanie.";

/**
 * What a visitor typed into the server's HTML before the form hydrated: React keeps the
 * fields' text but starts from its own state, so the text is taken into the state.
 */
function keepTyping(
  form: HTMLFormElement | null,
  initial: ContactMessage,
  setValues: (update: (v: ContactMessage) => ContactMessage) => void,
): void {
  if (!form) return;
  const typed: Partial<ContactMessage> = {};
  for (const field of Object.keys(empty) as (keyof ContactMessage)[]) {
    const element = form.elements.namedItem(field);
    if (!(
      element instanceof HTMLInputElement ||
      element instanceof HTMLTextAreaElement ||
      element instanceof HTMLSelectElement
    ))
      continue;
    if (element.value !== initial[field]) typed[field] = element.value;
  }
  if (Object.keys(typed).length > 0) setValues((v) => ({ ...v, ...typed }));
}

/**
 * The form's token, which starts the spam timer: the island loader asks for it when the page
 * loads (`harmoniaContactToken`), so time spent reading before the form is counted; a token
 * is good for one message, and the next one is asked for here.
 */
function pageToken(): Promise<string> {
  const asked = window.harmoniaContactToken;
  window.harmoniaContactToken = undefined;
  return asked ?? fetchToken();
}

async function fetchToken(): Promise<string> {
  const response = await fetch("/api/contact/token", { cache: "no-store" });
  if (!response.ok) throw new Error(`token: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

function Field(props: {
  id: keyof ContactMessage;
  label: string;
  error: string | undefined;
  optional?: boolean;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const errorId = `contact-${props.id}-error`;
  return (
    <div className={`field${props.error ? " field-invalid" : ""}`}>
      <label htmlFor={`contact-${props.id}`}>
        {props.label}
        {props.optional && <span className="muted"> (opcjonalnie)</span>}
      </label>
      {props.children(props.error ? errorId : undefined)}
      {props.error && (
        <p id={errorId} className="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

/**
 * What stays in the form when a message could not be sent (the toast goes after 5 s): the
 * SPEC's words, that the text is kept, and the phone. It takes the focus.
 */
function Failed({ phone, hours, focus }: { phone?: string | undefined; hours?: string | undefined; focus: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus) box.current?.focus();
  }, [focus]);
  return (
    <div ref={box} className="form-notice form-notice-error" tabIndex={-1}>
      <p>
        <strong>{FAILED.title}</strong> {FAILED.text}
      </p>
      <p>
        Twoja wiadomość została w&nbsp;formularzu: możesz wysłać ją ponownie za kilka minut.
        {phone && (
          <>
            {" "}
            Jeśli sprawa jest pilna, zadzwoń do gabinetu: <a href={`tel:${phone.replace(/\s/g, "")}`}>{phone}</a>
            {hours ? ` (${hours})` : ""}.
          </>
        )}{" "}
        Gdy potrzebujesz pomocy teraz, zobacz <a href="/pilna-pomoc">numery pilnej pomocy</a>.
      </p>
    </div>
  );
}

export default function ContactForm(props: ContactFormProps) {
  const { initial, errors: initialErrors, notice, noticeText, token, phone, hours } = props;
  const { earlyStart: initialEarlyStart, ...initialValues } = initial ?? {};
  const [values, setValues] = useState<ContactMessage>({ ...empty, ...initialValues });
  // The booking request's checkbox: the request to have a visit within the withdrawal period.
  const [earlyStart, setEarlyStart] = useState(initialEarlyStart ?? false);
  const [errors, setErrors] = useState<Errors>(initialErrors ?? {});
  const [sending, setSending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const tokenRef = useRef<string | undefined>(token);
  const { toasts, show: toast, dismiss } = useToasts();
  // Sent from this page: said in the form until the next message is sent (the toast goes).
  const [sent, setSent] = useState(false);
  // Not sent (the server or the network failed): said in the form until the next try.
  const [failed, setFailed] = useState(false);
  const sentNotice = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (sent) sentNotice.current?.focus();
  }, [sent]);

  useEffect(() => {
    // Our own messages replace the browser's once JavaScript runs.
    if (form.current) form.current.noValidate = true;
    keepTyping(form.current, values, setValues);
    const box = form.current?.elements.namedItem("earlyStart");
    if (box instanceof HTMLInputElement && box.checked !== earlyStart) setEarlyStart(box.checked);
    if (!tokenRef.current) {
      pageToken().then(
        (t) => (tokenRef.current = t),
        () => undefined,
      );
    }
    // Once, at hydration: what was typed before it is taken over then, never again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The phone is judged when the visitor leaves it or sends, never while the first digits are
  // typed; an error already shown follows the typing, so it goes as soon as the number is right.
  const checkPhone = (message: ContactMessage, always: boolean) =>
    setErrors((e) => {
      if (!always && !e.phone) return e;
      const next = { ...e };
      delete next.phone;
      const error = phoneError(message);
      if (error) next.phone = error;
      return next;
    });

  const change =
    (field: keyof ContactMessage) =>
    (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
      const next = { ...values, [field]: event.target.value };
      setValues(next);
      if (field === "phone" || field === "countryCode") return checkPhone(next, false);
      setErrors((e) => {
        const rest = { ...e };
        delete rest[field];
        return rest;
      });
    };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const first = Object.keys(found)[0];
      document.getElementById(`contact-${first}`)?.focus();
      return;
    }
    setSent(false);
    setFailed(false);
    setSending(true);
    try {
      tokenRef.current ??= await pageToken();
      const response = await fetch("/api/contact", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          ...values,
          phone: nationalPhone(values.phone, values.countryCode) ?? values.phone,
          fullPhone: fullPhone(values),
          earlyStart,
          token: tokenRef.current,
          website: form.current?.website.value ?? "",
        }),
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { errors?: Errors };
        if (body.errors && Object.keys(body.errors).length > 0) {
          // What the server found wrong stands at its field, which takes the focus.
          setErrors(body.errors);
          toast("error", FAILED);
          const first = Object.keys(body.errors)[0];
          document.getElementById(`contact-${first}`)?.focus();
          return;
        }
        throw new Error(`contact: ${response.status}`);
      }
      setValues(empty);
      setEarlyStart(false);
      setErrors({});
      toast("success", SENT);
      setSent(true);
      // A token is good for one message: the next one gets its own.
      tokenRef.current = undefined;
      fetchToken().then(
        (t) => (tokenRef.current = t),
        () => undefined,
      );
    } catch {
      toast("error", FAILED);
      setFailed(true);
    } finally {
      setSending(false);
    }
  };

  const described = (field: keyof ContactMessage, describedBy: string | undefined) => ({
    id: `contact-${field}`,
    name: field,
    value: values[field],
    onChange: change(field),
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": describedBy,
  });

  return (
    <>
      <form ref={form} className="contact-form" method="post" action="/api/contact" onSubmit={submit}>
        {sent && (
          // The toast announces it; this stays in the form, and takes the focus the cleared
          // submit button had.
          <p ref={sentNotice} className="form-notice form-notice-success" tabIndex={-1}>
            <strong>{SENT.title}</strong> {SENT.text}
          </p>
        )}
        {failed && <Failed phone={phone} hours={hours} focus={failed} />}
        {notice === "sent" && !sent && (
          <p className="form-notice form-notice-success" role="status">
            <strong>{SENT.title}</strong> {SENT.text}
          </p>
        )}
        {notice === "confirm" && (
          <p className="form-notice" role="status">
            {CONFIRM}
          </p>
        )}
        {notice === "refused" && (
          <p className="form-notice form-notice-error" role="alert">
            <strong>{FAILED.title}</strong> {noticeText ?? FAILED.text}
          </p>
        )}
        <Field id="name" label={rules.labels.name} error={errors.name}>
          {(d) => (
            <input
              {...described("name", d)}
              type="text"
              autoComplete="given-name"
              required
              maxLength={rules.maxLength.name}
            />
          )}
        </Field>
        <Field id="email" label={rules.labels.email} error={errors.email}>
          {(d) => (
            <input
              {...described("email", d)}
              type="email"
              autoComplete="email"
              required
              maxLength={rules.maxLength.email}
            />
          )}
        </Field>
        <div className="field-row">
          <Field id="countryCode" label={rules.labels.countryCode} error={errors.countryCode}>
            {(d) => (
              <select {...described("countryCode", d)}>
                {rules.countryCodes.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.code} {c.country}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="phone" label={rules.labels.phone} optional error={errors.phone}>
            {(d) => (
              // A text field, not type="tel": HTML allows autocomplete="tel-national" (the number
              // without its country code, which has its own select) only on text fields. It takes
              // the number as people write it: +48, spaces, dashes (contact/rules.ts).
              <input
                {...described("phone", d)}
                type="text"
                inputMode="tel"
                autoComplete="tel-national"
                maxLength={rules.phoneMaxLength}
                onBlur={(event) => {
                  // Leaving for the send button: the send judges it, and the button does not
                  // move from under the pointer by an error appearing above it.
                  if (!(event.relatedTarget instanceof HTMLButtonElement && event.relatedTarget.type === "submit"))
                    checkPhone(values, true);
                }}
              />
            )}
          </Field>
        </div>
        <Field id="message" label={rules.labels.message} error={errors.message}>
          {(d) => <textarea {...described("message", d)} rows={5} required maxLength={rules.maxLength.message} />}
        </Field>
        <label className="check contact-early-start" htmlFor="contact-earlyStart">
          <input
            id="contact-earlyStart"
            name="earlyStart"
            type="checkbox"
            value="true"
            checked={earlyStart}
            onChange={(e) => setEarlyStart(e.target.checked)}
          />{" "}
          <span>
            {rules.labels.earlyStart} <span className="muted">(opcjonalnie)</span>
          </span>
        </label>
        <div className="honeypot" aria-hidden="true">
          <label htmlFor="contact-website">Strona internetowa (zostaw puste)</label>
          <input id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        {token && <input type="hidden" name="token" value={token} />}
        <button className="btn btn-primary" type="submit" disabled={sending}>
          {sending ? "Wysyłanie…" : "Wyślij wiadomość"}
        </button>
      </form>
      <Toasts toasts={toasts} dismiss={dismiss} />
    </>
  );
}
