// The site's own statistics (no cookie, no storage, no third party): after the page has loaded,
// one beacon to /api/event says which page was read, the host of the site the visitor came from
// and the class of their screen; taps on a booking button, on the practice's phone and on a
// crisis number, and /m1's button, send one each. Other parts announce their own events with a
// `harmonia:count` event on the document ({ e, l }), so that they import nothing of this file
// (the booking dialog's and the calendar's widget not loading). Nothing is sent when the
// operator turned the statistics off or the visitor asks not to be tracked (DNT, GPC).
import type { SiteConfig } from "./types";

type Beacon = { e: string; p: string; r?: string; w: number; l?: string };

const digits = (text: string) => text.replace(/\D/g, "");

function referrerHost(): string {
  try {
    const host = new URL(document.referrer).hostname;
    return host === location.hostname ? "" : host;
  } catch {
    return "";
  }
}

export function setupStatistics(site: SiteConfig | null): void {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  if (!site?.stats || nav.doNotTrack === "1" || nav.globalPrivacyControl || !nav.sendBeacon) return;
  const send = (b: Beacon) => nav.sendBeacon("/api/event", JSON.stringify(b));
  const count = (e: string, l?: string) => send({ e, p: location.pathname, w: screen.width, ...(l ? { l } : {}) });
  const practice = digits(site.phone).slice(-9);
  const read = () =>
    document.querySelector("[data-not-found]")
      ? count("404")
      : send({ e: "view", p: location.pathname, r: referrerHost(), w: screen.width });
  if (document.readyState === "complete") read();
  else addEventListener("load", read, { once: true });
  document.addEventListener(
    "click",
    (event) => {
      const target = event.target instanceof Element ? event.target : null;
      const link = target?.closest<HTMLAnchorElement>("a[href]");
      if (!link) return;
      const href = link.getAttribute("href") ?? "";
      if (href.startsWith("tel:")) {
        const number = digits(href);
        return number.slice(-9) === practice ? count("call") : count("crisis", number);
      }
      if (link.closest("[data-track='home']")) return count("m1");
      // The dialog's own link books what its button already counted.
      const booking = site.booking[href];
      if (booking && !link.closest("dialog")) count("book", booking);
    },
    true,
  );
  document.addEventListener("harmonia:count", (event) => {
    const { e, l } = (event as CustomEvent<{ e: string; l?: string }>).detail;
    count(e, l);
  });
}
