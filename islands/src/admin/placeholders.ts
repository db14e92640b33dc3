// The practice's facts a section may name (`{{ adres }}`), with their Polish meaning and what
// the live site shows in their place: the writing surface shows them as labelled chips.
import { useEffect, useState } from "react";
import { request, type Placeholder } from "./api";

/**
 * The facts a text may name: `null` while the server is asked (an editor waits for them, so that
 * its chips never show '{{ … }}' first and change under her eyes), an empty list if they could
 * not be loaded.
 */
export function usePlaceholders(): Placeholder[] | null {
  const [list, setList] = useState<Placeholder[] | null>(null);
  useEffect(() => {
    let live = true;
    request<Placeholder[]>("GET", "/api/placeholders").then(
      (found) => live && setList(found),
      () => live && setList([]),
    );
    return () => {
      live = false;
    };
  }, []);
  return list;
}

/** How a placeholder reads in the panel: '[adres gabinetu]'. */
export const chipText = (label: string) => `[${label}]`;
