// The doctor-listing platform's widgets on the page (the facility's calendar, the certificate
// badge), loaded when a visitor asks for them with a [data-widget-load] button, never before:
// a visitor who does not ask sends nothing to the platform. A calendar that does not come (its
// script fails, or no calendar within 10 s) is explained by the sentence [data-widget-fallback],
// beside the platform's link and the phone, and the focus moves to that sentence.

function addScript(src: string, onError?: () => void): void {
  if (document.querySelector(`script[src="${src}"]`)) return;
  const script = document.createElement("script");
  script.src = src;
  script.async = true;
  if (onError) script.addEventListener("error", onError);
  document.body.appendChild(script);
}

/** How long a calendar may take before the page says it did not come. */
const PATIENCE_MS = 10_000;

export function load(button: HTMLButtonElement): void {
  const box = button.closest<HTMLElement>("[data-widget-scripts]");
  const status = box?.querySelector("[data-widget-status]");
  const fallback = box?.querySelector<HTMLElement>("[data-widget-fallback]");
  const say = (text: string) => status && (status.textContent = text);
  let done = false;
  const fail = () => {
    if (done || !fallback) return;
    done = true;
    say("");
    fallback.hidden = false;
    fallback.focus();
    document.dispatchEvent(new CustomEvent("harmonia:count", { detail: { e: "widget", l: "kalendarz" } }));
  };
  document.querySelectorAll<HTMLButtonElement>("[data-widget-load]").forEach((b) => (b.hidden = true));
  box?.focus();
  say("Wczytuję kalendarz wolnych terminów…");
  document.querySelectorAll<HTMLElement>("[data-widget-scripts]").forEach((el) => {
    (JSON.parse(el.dataset.widgetScripts ?? "[]") as string[]).forEach((src) =>
      addScript(src, el === box ? fail : undefined),
    );
  });
  if (!box) return;
  const arrived = () => {
    if (done || !box.querySelector("iframe")) return false;
    done = true;
    say("");
    return true;
  };
  new MutationObserver((_, observer) => arrived() && observer.disconnect()).observe(box, {
    childList: true,
    subtree: true,
  });
  setTimeout(fail, PATIENCE_MS);
}
