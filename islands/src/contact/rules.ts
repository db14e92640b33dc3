// The contact form's rules, defined once in Rust (content::contact) and generated here; the
// server checks what arrives by the same rules. Lengths are counted in characters (code
// points), as the server counts them.
import { CONTACT_RULES as rules } from "../generated/schema";

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

/** Country code plus phone, or empty when there is no phone. */
export function fullPhone(message: Pick<ContactMessage, "countryCode" | "phone">): string {
  return message.phone ? `${message.countryCode}${message.phone}` : "";
}

export function phoneError(phone: string): string | undefined {
  return phone && !new RegExp(`^\\d{${rules.phoneDigits}}$`).test(phone) ? m.phoneInvalid : undefined;
}

export function validate(message: ContactMessage): Errors {
  const errors: Errors = {};
  const name = message.name.trim();
  const email = message.email.trim();
  if (!name) errors.name = m.nameRequired;
  else if (/[\r\n]/.test(name)) errors.name = m.nameInvalid;
  else if ([...name].length > rules.maxLength.name) errors.name = m.nameTooLong;
  if (!email) errors.email = m.emailRequired;
  else if ([...email].length > rules.maxLength.email) errors.email = m.emailTooLong;
  else if (!EMAIL.test(email)) errors.email = m.emailInvalid;
  const phone = phoneError(message.phone);
  if (phone) errors.phone = phone;
  if (!rules.countryCodes.some((c) => c.code === message.countryCode)) errors.countryCode = m.countryCodeInvalid;
  if (!message.message.trim()) errors.message = m.messageRequired;
  else if ([...message.message].length > rules.maxLength.message) errors.message = m.messageTooLong;
  return errors;
}
