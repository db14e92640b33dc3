// The script of every page, without React: the mobile menu, third-party widgets loaded after
// the page is interactive, /m1 analytics events, and the image fallback.

interface SiteConfig {
  fallbackImages: string[];
  telephony: { id: string; src: string };
}

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

/** Widgets never block rendering: their scripts are added once the page is idle. */
function loadWidgets(site: SiteConfig | null): void {
  document.querySelectorAll<HTMLElement>("[data-widget-scripts]").forEach((el) => {
    (JSON.parse(el.dataset.widgetScripts ?? "[]") as string[]).forEach(addScript);
  });
  if (site?.telephony.src) {
    (window as unknown as { __cp: object }).__cp = { id: site.telephony.id, version: "1.1" };
    addScript(site.telephony.src);
  }
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
setupAnalytics();
setupImageFallback(site);
const idle = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 1));
if (document.readyState === "complete") idle(() => loadWidgets(site));
else window.addEventListener("load", () => idle(() => loadWidgets(site)));
