// What the page script and the parts it loads when a visitor needs them share: types only (a
// shared value would become a chunk of its own, one more request on every page).
import type { Hours } from "../hours";

export interface SiteConfig {
  fallbackImages: string[];
  telephony: { id: string; src: string };
  analyticsId: string;
  hours: Hours[];
}

export interface Consent {
  analytics: boolean;
  advertising: boolean;
  at: number;
}
