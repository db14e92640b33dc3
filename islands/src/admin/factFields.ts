// Which field of 'Dane gabinetu' a refused save names: the server names a fact by the form's
// name of it ('registeredPostalCode') or by its key in the facts' file ('postal_code'), and a
// row of a list from 1; the form's field ids are its own.
import type { Place } from "./problems";

const IDS: Record<string, string> = {
  phone: "fact-phone",
  email: "fact-email",
  street: "fact-street",
  postalCode: "fact-postal",
  city: "fact-city",
  booking: "fact-booking",
  bookingUrl: "fact-booking",
  legalName: "fact-legal-name",
  nip: "fact-nip",
  regon: "fact-regon",
  registeredStreet: "fact-registered-street",
  registeredPostalCode: "fact-registered-postal",
  registeredCity: "fact-registered-city",
  registeredAddress: "fact-registered-street",
  dataProtectionContact: "fact-data-protection",
  description: "fact-description",
  notice: "notice-text",
};

/** The lists of the form, each row's first field by its index from 0. */
const ROWS: Record<string, (i: number) => string> = {
  openingHours: (i) => `hours-${i}-opens`,
  closures: (i) => `closure-${i}-from`,
  social: (i) => `social-${i}-url`,
};

/** 'registered_postal_code' as 'registeredPostalCode'. */
const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The id of the field `place` names, if the form has one. */
export function factFieldId(place: Pick<Place, "field" | "row"> | null | undefined): string | null {
  if (!place?.field) return null;
  const name = camel(place.field);
  const row = ROWS[name];
  if (row) return row(Math.max(0, (place.row ?? 1) - 1));
  return IDS[name] ?? null;
}
