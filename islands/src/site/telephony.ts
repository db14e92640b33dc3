// The telephony provider's callback widget, loaded on the first click of a [data-telephony]
// link of the call control and never before: a visitor who does not ask for a call sends
// nothing to the provider. If it cannot load (offline, blocked), the page says so and the
// link dials, as it does without JavaScript.
import type { SiteConfig } from "./types";

type CallPage = { callpage?: (command: string) => void };

const open = () => (window as unknown as CallPage).callpage?.("api.widget.open");

export function call(link: HTMLAnchorElement, site: SiteConfig, say: (text: string) => void): void {
  const aside = link.closest<HTMLElement>(".call");
  const links = aside?.querySelectorAll<HTMLAnchorElement>("[data-telephony]") ?? [link];
  const mark = (state: string) => links.forEach((l) => (l.dataset.telephony = state));
  const state = link.dataset.telephony;
  if (state === "loaded") return void open();
  link.dataset.loading = "true";
  if (state === "loading") return;
  mark("loading");
  (window as unknown as { __cp: object }).__cp = { id: site.telephony.id, version: "1.1" };
  const script = document.createElement("script");
  script.src = site.telephony.src;
  script.async = true;
  const settle = (loaded: boolean) => {
    links.forEach((l) => delete l.dataset.loading);
    mark(loaded ? "loaded" : "failed");
  };
  script.addEventListener("load", () => {
    settle(true);
    say("");
    open();
  });
  script.addEventListener("error", () => {
    settle(false);
    say(`Okno rozmowy się nie wczytało, więc wybieramy numer gabinetu: ${aside?.dataset.phone ?? ""}.`);
    window.location.href = link.href;
  });
  document.body.appendChild(script);
}
