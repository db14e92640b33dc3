// The contact form's rules, defined once in Rust (content::contact) and generated here; the
// server checks what arrives by the same rules. Lengths are counted in characters (code
// points), as the server counts them; tests/vectors/contact.json holds the cases both must
// judge alike.
import { CONTACT_RULES as rules } from "../generated/contact";

export { rules };

export interface ContactMessage {
  name: string;
  email: string;
  phone: string;
  countryCode: string;
  message: string;
}

export type Field = keyof ContactMessage | "fullPhone";
export type Errors = Partial<Record<Field, string>>;

const m = rules.messages;
const EMAIL = new RegExp(rules.emailPattern);

export function digitsOnly(text: string): string {
  return text.replace(/\D/g, "");
}

/** The phone's pattern for each country code, as the server compiles it (content::contact). */
const PHONE = new Map<string, RegExp>(
  rules.countryCodes.map((c) => [c.code, new RegExp(rules.phonePattern.replace("{code}", digitsOnly(c.code)))]),
);

/**
 * The phone as it is sent and kept (its digits, without the country code) from what was typed
 * with `countryCode` chosen: "" for an empty field, `null` for one that is not a number.
 * "+48 600 100 200", "600-100-200" and "48600100200" with +48 are all "600100200". The server
 * applies the same pattern (content::contact::national_phone).
 */
export function nationalPhone(typed: string, countryCode: string): string | null {
  if (!typed.trim()) return "";
  if ([...typed].length > rules.phoneMaxLength) return null;
  const found = (PHONE.get(countryCode) ?? PHONE.get(rules.defaultCountryCode))?.exec(typed);
  return found?.[1] ? digitsOnly(found[1]) : null;
}

/** Country code plus phone, or empty when there is no phone. */
export function fullPhone(message: Pick<ContactMessage, "countryCode" | "phone">): string {
  const phone = nationalPhone(message.phone, message.countryCode);
  return phone ? `${message.countryCode}${phone}` : "";
}

export function phoneError(message: Pick<ContactMessage, "countryCode" | "phone">): string | undefined {
  return nationalPhone(message.phone, message.countryCode) === null ? m.phoneInvalid : undefined;
}

export function validate(message: ContactMessage): Errors {
  const errors: Errors = {};
  const name = message.name.trim();
  const email = message.email.trim();
  // A new line anywhere, even at an end trimmed away, is refused, as the server refuses it.
  if (!name) errors.name = m.nameRequired;
  else if (/[\r\n]/.test(message.name)) errors.name = m.nameInvalid;
  else if ([...name].length > rules.maxLength.name) errors.name = m.nameTooLong;
  if (!email) errors.email = m.emailRequired;
  else if ([...email].length > rules.maxLength.email) errors.email = m.emailTooLong;
  else if (/[\r\n]/.test(message.email) || !EMAIL.test(email)) errors.email = m.emailInvalid;
  const phone = phoneError(message);
  if (phone) errors.phone = phone;
  if (!rules.countryCodes.some((c) => c.code === message.countryCode)) errors.countryCode = m.countryCodeInvalid;
  if (!message.message.trim()) errors.message = m.messageRequired;
  else if ([...message.message].length > rules.maxLength.message) errors.message = m.messageTooLong;
  return errors;
}
