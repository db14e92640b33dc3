// Hydrates each island at its trigger (`data-hydrate`): "visible" as it nears the viewport,
// "idle" when the browser is idle after the page's load event (never before it),
// "interaction" only when a visitor reaches for it; any island also at its first pointer,
// focus or key. Until then no React is fetched. A click that comes first shows at once that
// it was taken (`data-pressed` on the island: the button looks pressed and busy) and is given
// to the island when it is ready. Kept tiny: pages with islands load it, nothing else.
type Mount = (root: Element, props: unknown, idPrefix: string) => void;

// One import per island: a second start or click waits for the same promise.
const pending = new WeakMap<HTMLElement, Promise<boolean>>();

/** Resolves to whether the island was hydrated; never rejects. */
function hydrate(island: HTMLElement): Promise<boolean> {
  const known = pending.get(island);
  if (known) return known;
  island.dataset.hydrated = "loading";
  const propsText = island.querySelector("script[type='application/json']")?.textContent ?? "{}";
  const root = island.querySelector("[data-island-root]");
  const src = island.dataset.src ?? "";
  const done = import(src).then(
    (mod: { mount: Mount }) => {
      if (root) mod.mount(root, JSON.parse(propsText), island.dataset.idPrefix ?? "");
      island.dataset.hydrated = "true";
      return true;
    },
    () => {
      // The chunk did not load (network, CSP): the island stays the server's HTML, whose
      // links and forms work without JavaScript.
      island.dataset.hydrated = "failed";
      return false;
    },
  );
  pending.set(island, done);
  return done;
}

function watch(island: HTMLElement): void {
  const start = () => void hydrate(island);
  // A click that arrives before hydration is held until the island is ready, then given to
  // it once (the last one, however many came while waiting); if the island cannot load, the
  // listener goes and the click is given back to the plain HTML, which works without
  // JavaScript.
  let held: HTMLElement | null = null;
  const onClick = (event: Event) => {
    if (island.dataset.hydrated === "true") return;
    event.preventDefault();
    const waiting = held !== null;
    held = event.target as HTMLElement;
    if (waiting) return;
    island.dataset.pressed = "true";
    island.setAttribute("aria-busy", "true");
    void hydrate(island).then((ok) => {
      if (!ok) island.removeEventListener("click", onClick, { capture: true });
      delete island.dataset.pressed;
      island.removeAttribute("aria-busy");
      const target = held;
      held = null;
      setTimeout(() => target?.click(), 0);
    });
  };
  island.addEventListener("click", onClick, { capture: true });
  // Any sign of a visitor reaching for the island starts loading it; a pointer coming over
  // it gives the chunk a head start of the time a click takes.
  for (const type of ["pointerover", "pointerdown", "focusin", "keydown"]) {
    island.addEventListener(type, start, { once: true, passive: true });
  }
  const when = island.dataset.hydrate;
  if (when === "idle") {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 200));
    if (document.readyState === "complete") idle(start);
    else window.addEventListener("load", () => idle(start), { once: true });
  } else if (when !== "interaction") {
    // Near the viewport: a little before it shows, so it is ready when seen.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          start();
        }
      },
      { rootMargin: "200px 0px" },
    );
    observer.observe(island.querySelector("[data-island-root] > *") ?? island);
  }
}

/**
 * The contact form's spam timer starts when the page loads, not when the form comes near: its
 * token (the signed moment it was asked for) is fetched now, and the form takes it when it
 * hydrates. A message sent within seconds of the page's load is still marked as suspect.
 */
const contactForm = document.querySelector("[data-island='ContactForm'] form");
if (contactForm && !contactForm.querySelector("[name='token']")) {
  const asked = fetch("/api/contact/token", { cache: "no-store" })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${r.status}`))))
    .then((body: { token: string }) => body.token);
  // A failure is the form's to retry; it must not be an unhandled rejection meanwhile.
  asked.catch(() => undefined);
  window.harmoniaContactToken = asked;
}

document.querySelectorAll<HTMLElement>("[data-island]").forEach(watch);
