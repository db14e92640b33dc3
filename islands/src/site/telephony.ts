// The telephony provider's callback form ('Zamów oddzwonienie'), loaded on that button's
// click and never before: a visitor who does not ask for a callback sends nothing to the
// provider. If its script has not come within 3 s (offline, blocked, a host that hangs), the
// control says so and gives the practice's number; a later tap tries again. Calling the
// practice never waits for it: 'Zadzwoń do gabinetu' is a plain tel: link.
import type { SiteConfig } from "./types";

type CallPage = { callpage?: (command: string) => void };

/** How long the callback form may take before the visitor is told and given the number. */
export const PATIENCE_MS = 3_000;
export const LATE = "Formularz oddzwonienia nie wczytał się w ciągu 3 sekund.";

const open = () => (window as unknown as CallPage).callpage?.("api.widget.open");

export function callback(button: HTMLButtonElement, site: SiteConfig, say: (...parts: (string | Node)[]) => void) {
  const state = button.dataset.telephony;
  if (state === "loaded") return void open();
  if (state === "loading") return;
  button.dataset.telephony = "loading";
  button.setAttribute("aria-busy", "true");
  document.getElementById("callpage-script")?.remove();
  (window as unknown as { __cp: object }).__cp = { id: site.telephony.id, version: "1.1" };
  const script = document.createElement("script");
  script.id = "callpage-script";
  script.src = site.telephony.src;
  script.async = true;
  let settled = false;
  const settle = (loaded: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    button.removeAttribute("aria-busy");
    button.dataset.telephony = loaded ? "loaded" : "failed";
    if (loaded) {
      say();
      open();
      return;
    }
    // The number, to dial instead: the control's own link says where.
    const call = button.closest(".call");
    const number = document.createElement("a");
    number.href = call?.querySelector<HTMLAnchorElement>("[data-call='practice']")?.href ?? "";
    number.textContent = call instanceof HTMLElement ? (call.dataset.phone ?? "") : "";
    say(LATE, " Zadzwoń do gabinetu: ", number, ".");
  };
  const timer = window.setTimeout(() => settle(false), PATIENCE_MS);
  script.addEventListener("load", () => settle(true));
  script.addEventListener("error", () => settle(false));
  document.body.appendChild(script);
}
