// The sections of a long page, every one named, one tap away: 'Sekcje tej strony' opens a list
// of them (number, type and first words) and the one chosen comes to the top of the screen with
// the cursor in its text. (It does not stick under the header while the sections scroll: there it
// would lie over the toolbar of the section under it.)
import { useRef } from "react";
import type { Section } from "./api";
import { fieldId } from "./SectionEditor";
import { sectionName } from "./sectionNames";

/** From how many sections a page is long enough for the navigator. */
export const LONG_PAGE = 3;

/** The id of section `index`'s place in the editor's list. */
export const sectionId = (index: number) => `section-${index + 1}`;

export default function SectionNav({ sections }: { sections: Section[] }) {
  const details = useRef<HTMLDetailsElement>(null);
  if (sections.length < LONG_PAGE) return null;
  const show = (index: number) => {
    if (details.current) details.current.open = false;
    // After the list has closed, so the section lands where the closed list leaves room for it.
    requestAnimationFrame(() => {
      document.getElementById(sectionId(index))?.scrollIntoView({ block: "start" });
      document.getElementById(fieldId(index, "content"))?.focus({ preventScroll: true });
    });
  };
  return (
    <nav className="section-nav" aria-label="Sekcje tej strony">
      <details ref={details}>
        <summary>
          Sekcje tej strony: {sections.length} <span className="muted">(przejdź do sekcji)</span>
        </summary>
        <ol>
          {sections.map((section, i) => (
            <li key={i}>
              <button type="button" onClick={() => show(i)}>
                {sectionName(section, i)}
              </button>
            </li>
          ))}
        </ol>
      </details>
    </nav>
  );
}
