// Analytics and advertising, loaded only after consent (Google consent mode for each category).
import type { Consent, SiteConfig } from "./types";

export function applyConsent(consent: Consent, site: SiteConfig | null): void {
  if (!site?.analyticsId || (!consent.analytics && !consent.advertising)) return;
  const w = window as unknown as { dataLayer: unknown[]; gtag?: (...args: unknown[]) => void };
  w.dataLayer = w.dataLayer ?? [];
  if (!w.gtag) {
    w.gtag = function () {
      // gtag.js reads the arguments object itself.
      // eslint-disable-next-line prefer-rest-params
      w.dataLayer.push(arguments);
    };
    w.gtag("js", new Date());
  }
  const grant = (yes: boolean) => (yes ? "granted" : "denied");
  w.gtag("consent", "default", {
    analytics_storage: grant(consent.analytics),
    ad_storage: grant(consent.advertising),
    ad_user_data: grant(consent.advertising),
    ad_personalization: grant(consent.advertising),
  });
  w.gtag("config", site.analyticsId);
  const src = `https://www.googletagmanager.com/gtag/js?id=${site.analyticsId}`;
  if (document.querySelector(`script[src="${src}"]`)) return;
  const script = document.createElement("script");
  script.src = src;
  script.async = true;
  document.body.appendChild(script);
}
