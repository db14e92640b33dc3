// The consent banner: asks on the first visit ('Akceptuję', 'Odrzucam', 'Ustawienia') and
// again whenever 'Ustawienia cookies' in the footer is clicked. It takes the focus when it
// appears, without trapping it, and gives it back when it closes; a choice is kept in the
// browser, so the banner is gone for good after it.
import { applyConsent as apply } from "./analytics";
import { type Consent, type SiteConfig } from "./types";

/** Where the visitor's choice is kept (the `cookies` list of site.yaml names it). */
const CONSENT_KEY = "harmonia-consent";

let ready: ((withSettings: boolean) => void) | null = null;

/** The boxes of an element's words (a heading's box spans the width, its text rarely does). */
function textBoxes(el: Element | null): DOMRect[] {
  if (!el) return [];
  const range = document.createRange();
  range.selectNodeContents(el);
  return [...range.getClientRects()];
}

/**
 * A bottom sheet (above a phone's call bar, at the bottom right of a wide screen), unless there
 * it would lie over the page's heading or the logo (a heading low on the first screen, under a
 * hero picture): then just under the header.
 */
function place(banner: HTMLElement): void {
  const root = document.documentElement;
  const covers = () => {
    const b = banner.getBoundingClientRect();
    const logo = document.querySelector(".site-header .logo, .landing-mark");
    const kept = [...textBoxes(document.querySelector("main h1")), ...(logo ? [logo.getBoundingClientRect()] : [])];
    return kept.some((r) => r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom);
  };
  root.classList.remove("consent-at-top");
  if (!covers()) return;
  root.classList.add("consent-at-top");
  if (covers()) root.classList.remove("consent-at-top");
}

function read(): Consent | null {
  try {
    return JSON.parse(localStorage.getItem(CONSENT_KEY) ?? "null") as Consent | null;
  } catch {
    return null;
  }
}

function setup(site: SiteConfig | null): ((withSettings: boolean) => void) | null {
  const banner = document.getElementById("consent");
  if (!banner) return null;
  const settings = banner.querySelector<HTMLFieldSetElement>(".consent-settings");
  const button = (name: string) => banner.querySelector<HTMLButtonElement>(`[data-consent='${name}']`);
  const box = (name: string) => banner.querySelector<HTMLInputElement>(`input[name='${name}']`);
  // While it is open, the page is padded by its height (a bottom sheet, above a phone's call bar)
  // and focus scrolls clear of it.
  const root = document.documentElement;
  const measure = new ResizeObserver(() => root.style.setProperty("--consent-height", `${banner.offsetHeight}px`));
  let returnTo: HTMLElement | null = null;
  const decide = (analytics: boolean, advertising: boolean) => {
    const consent = { analytics, advertising, at: Date.now() };
    localStorage.setItem(CONSENT_KEY, JSON.stringify(consent));
    banner.hidden = true;
    measure.disconnect();
    root.classList.remove("consent-open", "consent-at-top");
    root.style.removeProperty("--consent-height");
    returnTo?.focus();
    apply(consent, site);
  };
  const open = (withSettings: boolean) => {
    const current = read();
    const analytics = box("analytics");
    const advertising = box("advertising");
    if (analytics) analytics.checked = !!current?.analytics;
    if (advertising) advertising.checked = !!current?.advertising;
    if (settings) settings.hidden = !withSettings;
    const save = button("save");
    const more = button("settings");
    if (save) save.hidden = !withSettings;
    if (more) more.hidden = withSettings;
    banner.hidden = false;
    root.classList.add("consent-open");
    place(banner);
    measure.observe(banner);
    // Focus moves to the banner when it appears, and back where it was when it closes.
    const active = document.activeElement;
    returnTo = active instanceof HTMLElement && active !== document.body ? active : null;
    banner.focus({ preventScroll: true });
  };
  // 'Akceptuję' grants only the categories the banner offers: the site may use no advertising.
  button("all")?.addEventListener("click", () => decide(!!box("analytics"), !!box("advertising")));
  button("none")?.addEventListener("click", () => decide(false, false));
  button("settings")?.addEventListener("click", () => open(true));
  button("save")?.addEventListener("click", () => decide(!!box("analytics")?.checked, !!box("advertising")?.checked));
  return open;
}

export function open(withSettings: boolean, site: SiteConfig | null): void {
  ready ??= setup(site);
  ready?.(withSettings);
}
