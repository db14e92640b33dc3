// What the page script and the parts it loads when a visitor needs them share: types only (a
// shared value would become a chunk of its own, one more request on every page).
import type { Hours } from "../hours";

export interface SiteConfig {
  fallbackImages: string[];
  telephony: { id: string; src: string };
  analyticsId: string;
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
