// What the page script and the parts it loads when a visitor needs them share: types only (a
// shared value would become a chunk of its own, one more request on every page).
import type { Hours } from "../hours";

export interface SiteConfig {
  fallbackImages: string[];
  /** The telephony widget; `cookies`: what its provider sets, for the click's notice (`null`:
   *  the site's cookie list says it sets none). */
  telephony: { id: string; src: string; cookies: string | null };
  /** The operator's analytics tag (ANALYTICS_ID); `null`: none, and no consent banner. */
  analyticsId: string | null;
  /** The site's own statistics are on (STATS). */
  stats: boolean;
  /** What a tap on a booking link counts as, by the page it opens ('Booksy · gabinet'). */
  booking: Record<string, string>;
  /** The practice's phone: a tap on it is a call, on any other number a crisis number. */
  phone: string;
  hours: Hours[];
  /** Days the weekly hours do not hold: public holidays and the practice's days off. */
  closed: string[];
}

export interface Consent {
  analytics: boolean;
  advertising: boolean;
  at: number;
}

declare global {
  interface Window {
    /** The contact form's token, asked for by the island loader as the page loads (loader.ts). */
    harmoniaContactToken?: Promise<string> | undefined;
  }
}
