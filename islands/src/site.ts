// The script of every page, without React: the mobile menu, third-party widgets loaded when a
// visitor asks for them, /m1 analytics events, and the image fallback.

interface SiteConfig {
  fallbackImages: string[];
  telephony: { id: string; src: string };
  analyticsId: string;
}

interface Consent {
  analytics: boolean;
  advertising: boolean;
  at: number;
}

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

function addScript(src: string): void {
  if (document.querySelector(`script[src="${src}"]`)) return;
  const script = document.createElement("script");
  script.src = src;
  script.async = true;
  document.body.appendChild(script);
}

/**
 * The doctor-listing platform's widgets on the page (the facility's calendar, the certificate
 * badge) load when a visitor asks for them with a [data-widget-load] button, never before: a
 * visitor who does not ask sends nothing to the platform. Without JavaScript the buttons stay
 * hidden and the widgets' links open the platform's pages.
 */
function setupWidgets(): void {
  const buttons = document.querySelectorAll<HTMLButtonElement>("[data-widget-load]");
  const load = (button: HTMLButtonElement) => {
    document.querySelectorAll<HTMLElement>("[data-widget-scripts]").forEach((el) => {
      (JSON.parse(el.dataset.widgetScripts ?? "[]") as string[]).forEach(addScript);
    });
    buttons.forEach((b) => (b.hidden = true));
    button.closest<HTMLElement>("[data-widget-scripts]")?.focus();
  };
  buttons.forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => load(button));
  });
}

/**
 * The telephony provider's callback widget loads on the first click of our own 'Zadzwoń'
 * link, never before: a visitor who does not ask for a call sends nothing to the provider.
 * If the widget cannot load (offline, blocked), the link dials as it does without script.
 */
function setupTelephony(site: SiteConfig | null): void {
  const link = document.querySelector<HTMLAnchorElement>("[data-telephony]");
  if (!link || !site?.telephony.src) return;
  link.addEventListener("click", (event) => {
    if (link.dataset.telephony === "failed") return;
    event.preventDefault();
    if (link.dataset.telephony === "loaded") {
      (window as unknown as { callpage?: (command: string) => void }).callpage?.("api.widget.open");
      return;
    }
    if (link.dataset.loading) return;
    link.dataset.loading = "true";
    (window as unknown as { __cp: object }).__cp = { id: site.telephony.id, version: "1.1" };
    const script = document.createElement("script");
    script.src = site.telephony.src;
    script.async = true;
    script.addEventListener("load", () => {
      delete link.dataset.loading;
      link.dataset.telephony = "loaded";
      (window as unknown as { callpage?: (command: string) => void }).callpage?.("api.widget.open");
    });
    script.addEventListener("error", () => {
      delete link.dataset.loading;
      link.dataset.telephony = "failed";
      window.location.href = link.href;
    });
    document.body.appendChild(script);
  });
}

const CONTROLS = "a, button, input, select, textarea, label, summary, [tabindex]:not([tabindex='-1'])";

/**
 * The floating 'Zadzwoń' never covers a control: while a link, button or field of the page
 * lies under it (a phone scrolling through the contact form), it steps aside, and comes
 * back when it covers only text. Checked once a frame at most, on scroll and resize.
 */
function keepCallClear(): void {
  const call = document.querySelector<HTMLElement>(".call-button");
  if (!call) return;
  let queued = false;
  const check = () => {
    queued = false;
    const r = call.getBoundingClientRect();
    const points: [number, number][] = [
      [r.left + r.width / 2, r.top + r.height / 2],
      [r.left + 2, r.top + 2],
      [r.right - 2, r.top + 2],
      [r.left + 2, r.bottom - 2],
      [r.right - 2, r.bottom - 2],
    ];
    const covers = points.some(([x, y]) =>
      document.elementsFromPoint(x, y).some((el) => !call.contains(el) && el.closest(CONTROLS) !== null),
    );
    call.toggleAttribute("data-tucked", covers);
  };
  const queue = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(check);
  };
  window.addEventListener("scroll", queue, { passive: true });
  window.addEventListener("resize", queue);
  new ResizeObserver(queue).observe(document.body);
  queue();
}

function readConsent(): Consent | null {
  try {
    return JSON.parse(localStorage.getItem(CONSENT_KEY) ?? "null") as Consent | null;
  } catch {
    return null;
  }
}

/** Analytics and advertising load only after consent (Google consent mode for each category). */
function applyConsent(consent: Consent, site: SiteConfig | null): void {
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
  addScript(`https://www.googletagmanager.com/gtag/js?id=${site.analyticsId}`);
}

function setupConsent(site: SiteConfig | null): void {
  const banner = document.getElementById("consent");
  if (!banner) return;
  const settings = banner.querySelector<HTMLFieldSetElement>(".consent-settings");
  const button = (name: string) => banner.querySelector<HTMLButtonElement>(`[data-consent='${name}']`);
  const box = (name: string) => banner.querySelector<HTMLInputElement>(`input[name='${name}']`);
  // While it is open, the page is padded by its height (a phone's banner sits at the bottom)
  // and focus scrolls clear of it; the 'Zadzwoń' button rises above it.
  const root = document.documentElement;
  const measure = new ResizeObserver(() => root.style.setProperty("--consent-height", `${banner.offsetHeight}px`));
  let returnTo: HTMLElement | null = null;
  const decide = (analytics: boolean, advertising: boolean) => {
    const consent = { analytics, advertising, at: Date.now() };
    localStorage.setItem(CONSENT_KEY, JSON.stringify(consent));
    banner.hidden = true;
    measure.disconnect();
    root.classList.remove("consent-open");
    root.style.removeProperty("--consent-height");
    returnTo?.focus();
    applyConsent(consent, site);
  };
  const open = (withSettings: boolean) => {
    const current = readConsent();
    if (box("analytics")) box("analytics")!.checked = !!current?.analytics;
    if (box("advertising")) box("advertising")!.checked = !!current?.advertising;
    if (settings) settings.hidden = !withSettings;
    button("save")!.hidden = !withSettings;
    button("settings")!.hidden = withSettings;
    banner.hidden = false;
    root.classList.add("consent-open");
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
  document.querySelector("[data-consent-open]")?.addEventListener("click", () => open(true));
  const stored = readConsent();
  if (stored) applyConsent(stored, site);
  else open(false);
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
setupConsent(site);
setupAnalytics();
setupImageFallback(site);
setupTelephony(site);
keepCallClear();
setupWidgets();
