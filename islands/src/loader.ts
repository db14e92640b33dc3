// Hydrates each island when it becomes visible, when the browser is idle, or on the first
// interaction, whichever comes first. Kept tiny: pages with islands load it, nothing else.
type Mount = (root: Element, props: unknown) => void;

function hydrate(island: HTMLElement): Promise<void> {
  if (island.dataset.hydrated) return Promise.resolve();
  island.dataset.hydrated = "loading";
  const propsText = island.querySelector("script[type='application/json']")?.textContent ?? "{}";
  const root = island.querySelector("[data-island-root]");
  const src = island.dataset.src ?? "";
  return import(src).then((mod: { mount: Mount }) => {
    if (root) mod.mount(root, JSON.parse(propsText));
    island.dataset.hydrated = "true";
  });
}

function watch(island: HTMLElement): void {
  const start = () => void hydrate(island);
  // A click that arrives before hydration opens what it would have opened afterwards.
  const onClick = (event: Event) => {
    if (island.dataset.hydrated === "true") return;
    const target = event.target as HTMLElement;
    event.preventDefault();
    void hydrate(island).then(() => setTimeout(() => target.click(), 0));
  };
  island.addEventListener("click", onClick, { capture: true });
  for (const type of ["pointerdown", "focusin", "keydown"]) island.addEventListener(type, start, { once: true });
  if (island.dataset.hydrate === "idle") {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 200));
    idle(start);
  } else {
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        start();
      }
    });
    observer.observe(island.querySelector("[data-island-root] > *") ?? island);
  }
}

document.querySelectorAll<HTMLElement>("[data-island]").forEach(watch);
