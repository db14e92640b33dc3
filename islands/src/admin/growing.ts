// A text area as tall as its text: no inner scroll bar, kept so as the text or its width changes.
import { useCallback, useLayoutEffect, type RefObject } from "react";

/** Keeps `area` as tall as `text` needs. */
export function useGrowing(area: RefObject<HTMLTextAreaElement | null>, text: string): void {
  const fit = useCallback(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
  }, [area]);
  useLayoutEffect(fit, [fit, text]);
  useLayoutEffect(() => {
    const el = area.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    let width = el.clientWidth;
    const watch = new ResizeObserver(() => {
      if (el.clientWidth !== width) {
        width = el.clientWidth;
        fit();
      }
    });
    watch.observe(el);
    return () => watch.disconnect();
  }, [area, fit]);
}
