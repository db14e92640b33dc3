// The script of every page, without React: the mobile menu, the call control, third-party
// widgets loaded when a visitor asks for them, the site's own statistics, /m1 analytics
// events, and the image fallback.
// The banner, the calendar and the telephony widget's loader are modules of their own, fetched
// only on a page and at a moment that needs them (the site's first visit, the home page's
// calendar button, the first click of 'Zadzwoń do gabinetu').
import { openUntil, practiceState } from "./hours";
import { setupStatistics } from "./site/statistics";
import { type Consent, type SiteConfig } from "./site/types";

/** Where the visitor's choice is kept (the `cookies` list of site.yaml names it). */
const CONSENT_KEY = "harmonia-consent";

type Gtag = (command: "event", name: string, params: Record<string, string>) => void;

function config(): SiteConfig | null {
  const text = document.getElementById("site-config")?.textContent;
  return text ? (JSON.parse(text) as SiteConfig) : null;
}

function setupMenu(): void {
  const toggle = document.querySelector<HTMLButtonElement>(".menu-toggle");
  const menu = document.getElementById("mobile-menu");
  const close = menu?.querySelector<HTMLButtonElement>(".menu-close");
  if (!toggle || !menu || !close) return;
  const setOpen = (open: boolean) => {
    menu.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    document.body.style.overflow = open ? "hidden" : "";
    (open ? close : toggle).focus();
  };
  toggle.addEventListener("click", () => setOpen(true));
  close.addEventListener("click", () => setOpen(false));
  menu.addEventListener("click", (e) => {
    if ((e.target as Element).closest("a")) setOpen(false);
  });
  menu.addEventListener("keydown", (e) => {
    if (e.key === "Escape") return setOpen(false);
    if (e.key !== "Tab") return;
    const items = menu.querySelectorAll<HTMLElement>("a, button");
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last?.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first?.focus();
    }
  });
}

/**
 * The doctor-listing platform's widgets (the home page's calendar and badge) load when a
 * visitor asks with a [data-widget-load] button (site/widgets.ts); without JavaScript the
 * buttons stay hidden and the widgets' links open the platform's pages.
 */
function setupWidgets(): void {
  document.querySelectorAll<HTMLButtonElement>("[data-widget-load]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => void import("./site/widgets").then((m) => m.load(button)));
  });
}

/**
 * The call control says whom it calls and when. While the practice is open (Warsaw time, not
 * on a public holiday or a day off) it is 'Zadzwoń do gabinetu' with today's hours, a link
 * that dials at once, and beside it 'Zamów oddzwonienie', which loads the telephony
 * provider's callback form (never before its click, site/telephony.ts) and says at once that
 * it is coming; if it does not come within 3 s, the control says so and gives the number.
 * While the practice is closed, and on /pilna-pomoc, it is 'Telefony pomocy': a list with the
 * crisis numbers first, then the practice. Without JavaScript it is a link that dials.
 */
function setupCall(site: SiteConfig | null): void {
  const aside = document.querySelector<HTMLElement>(".call");
  const practice = aside?.querySelector<HTMLAnchorElement>("[data-call='practice']");
  const help = aside?.querySelector<HTMLButtonElement>("[data-call='help']");
  const callback = aside?.querySelector<HTMLButtonElement>("[data-callback]");
  const panel = document.getElementById("call-panel");
  const status = aside?.querySelector<HTMLElement>("[data-call-status]");
  if (!aside || !practice || !help || !callback || !panel || !status || !site) return;
  const crisisPage = aside.hasAttribute("data-call-crisis");
  // What the control says of the callback: that it is coming, or that it did not come.
  const say = (...parts: (string | Node)[]) => status.replaceChildren(...parts);
  const setPanel = (open: boolean, focusBack = false) => {
    panel.hidden = !open;
    help.setAttribute("aria-expanded", String(open));
    if (focusBack) help.focus();
  };
  const update = () => {
    const now = new Date();
    const state = practiceState(now, site.hours, site.closed);
    const helpMode = crisisPage || !state.open;
    const shown = helpMode ? help : practice;
    const when = helpMode && state.open ? openUntil(now, site.hours) : state.when;
    practice.hidden = helpMode;
    help.hidden = !helpMode;
    callback.hidden = helpMode || !site.telephony.src;
    aside.classList.toggle("call-with-callback", !callback.hidden);
    if (!helpMode) setPanel(false);
    const label = shown.querySelector(".call-label")?.textContent ?? "";
    const whenEl = shown.querySelector("[data-call-when]");
    if (whenEl) whenEl.textContent = when;
    shown.setAttribute("aria-label", when ? `${label}, ${when}` : label);
  };
  update();
  setInterval(update, 60_000);
  document.addEventListener("visibilitychange", update);
  help.addEventListener("click", () => setPanel(panel.hidden));
  aside.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) setPanel(false, true);
  });
  document.addEventListener("click", (event) => {
    if (!panel.hidden && !aside.contains(event.target as Node)) setPanel(false);
  });
  callback.addEventListener("click", () => {
    // It says at once what happens, and what the provider's form keeps in the browser.
    const cookies = site.telephony.cookies
      ? `Dostawca tego formularza zapisze w przeglądarce swoje ${site.telephony.cookies}.`
      : "Formularz nie zapisuje w przeglądarce plików cookies.";
    if (callback.dataset.telephony !== "loaded") say(`Otwieram formularz oddzwonienia… ${cookies}`);
    void import("./site/telephony").then((m) => m.callback(callback, site, say));
  });
}

function readConsent(): Consent | null {
  try {
    return JSON.parse(localStorage.getItem(CONSENT_KEY) ?? "null") as Consent | null;
  } catch {
    return null;
  }
}

/**
 * A visitor who has not chosen yet sees the banner (site/consent.ts, loaded only then or when
 * 'Ustawienia cookies' is clicked); a choice already made is applied at once.
 */
function setupConsent(site: SiteConfig | null): void {
  // Without the operator's analytics tag nothing needs consent: no banner, nothing stored.
  if (!site?.analyticsId) return;
  const banner = (withSettings: boolean) => void import("./site/consent").then((m) => m.open(withSettings, site));
  document.querySelector("[data-consent-open]")?.addEventListener("click", () => banner(true));
  const stored = readConsent();
  // Analytics and advertising load only after consent (site/analytics.ts).
  if (stored && (stored.analytics || stored.advertising))
    void import("./site/analytics").then((m) => m.applyConsent(stored, site));
  else if (!stored) banner(false);
}

function track(name: string, params: Record<string, string>): void {
  const gtag = (window as unknown as { gtag?: Gtag }).gtag;
  if (typeof gtag === "function") gtag("event", name, params);
}

function setupAnalytics(): void {
  const home = document.querySelector<HTMLElement>("[data-track='home']");
  if (!home) return;
  track("page_view", { page_title: document.title, page_location: location.href });
  home.addEventListener("click", () =>
    track("click", { event_category: "Navigation", event_label: "Przejście do strony głównej" }),
  );
}

/** A broken image gets one random stock image, and only one, so a broken fallback cannot loop. */
function setupImageFallback(site: SiteConfig | null): void {
  const images = site?.fallbackImages ?? [];
  const retry = (img: HTMLImageElement) => {
    if (img.dataset.fallback || images.length === 0) return;
    img.dataset.fallback = "true";
    img.src = images[Math.floor(Math.random() * images.length)] ?? "";
  };
  document.addEventListener(
    "error",
    (e) => {
      if (e.target instanceof HTMLImageElement) retry(e.target);
    },
    true,
  );
  document.querySelectorAll("img").forEach((img) => {
    if (img.complete && img.naturalWidth === 0 && img.getAttribute("src")) retry(img);
  });
}

const site = config();
setupMenu();
setupStatistics(site);
setupConsent(site);
setupAnalytics();
setupImageFallback(site);
setupCall(site);
setupWidgets();
