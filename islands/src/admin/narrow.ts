// Whether the panel is on a phone-sized screen, where the editor comes before the list of
// pages (the same width as the stylesheet's one-column panel).
import { useEffect, useState } from "react";

export const NARROW = "(max-width: 800px)";

export function isNarrow(): boolean {
  return typeof window !== "undefined" && window.matchMedia(NARROW).matches;
}

export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(isNarrow);
  useEffect(() => {
    const query = window.matchMedia(NARROW);
    const update = () => setNarrow(query.matches);
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return narrow;
}
