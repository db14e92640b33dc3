// The practice's facts a section may name (`{{ adres }}`), with their Polish meaning and what
// the live site shows in their place: the writing surface shows them as labelled chips.
import { useEffect, useState } from "react";
import { request, type Placeholder } from "./api";

/** The facts a text may name, once loaded (an empty list if they could not be). */
export function usePlaceholders(): Placeholder[] {
  const [list, setList] = useState<Placeholder[]>([]);
  useEffect(() => {
    let live = true;
    request<Placeholder[]>("GET", "/api/placeholders").then(
      (found) => live && setList(found),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return list;
}

/** How a placeholder reads in the panel: '[adres gabinetu]'. */
export const chipText = (label: string) => `[${label}]`;
