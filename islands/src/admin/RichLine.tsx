// A text of one paragraph written as it will look ('Napisy', a price's note): bold, links and the
// practice's facts as labelled chips, never their signs. A text the visual editor cannot keep as
// written stays a plain field with its signs, and says so.
import { useMemo, useRef } from "react";
import { useStore } from "./app/store";
import { shortName } from "./names";
import { pagesStore } from "./pages/store";
import { usePlaceholders } from "./placeholders";
import { kitOf, useVisualKit } from "./visual/kit";

export interface RichLineProps {
  id: string;
  /** The field's name, which its area and toolbar are called by. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  describedBy?: string | undefined;
  invalid?: boolean;
}

/** One paragraph: a new line typed or pasted becomes a space. */
const oneParagraph = (text: string) => text.replace(/\s*\n\s*/g, " ");

export default function RichLine({ id, label, value, onChange, describedBy, invalid = false }: RichLineProps) {
  const placeholders = usePlaceholders();
  const { pages } = useStore(pagesStore);
  const links = useMemo(() => pages.flatMap((p) => (p.route ? [{ name: shortName(p), route: p.route }] : [])), [pages]);
  // What the visual editor wrote it keeps; any other text is shown there only if it comes back as written.
  const written = useRef<string | null>(null);
  // Until the visual editor has loaded, 'Ładowanie…'; if it cannot be loaded, the plain field.
  const kit = useVisualKit(true);
  const Visual = useMemo(() => {
    const visual = kitOf(kit);
    return visual && (value === written.current || visual.keepsMarkdown(value)) ? visual.VisualEditor : null;
  }, [kit, value]);
  if (placeholders === null || kit === "loading") return <p role="status">Ładowanie…</p>;
  if (!Visual) {
    return (
      <textarea
        id={id}
        rows={3}
        value={value}
        aria-label={label}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(e) => onChange(oneParagraph(e.target.value))}
      />
    );
  }
  return (
    <Visual
      id={id}
      n={0}
      label={label}
      value={value}
      onChange={(markdown) => {
        const text = oneParagraph(markdown);
        written.current = text;
        onChange(text);
      }}
      describedBy={describedBy}
      invalid={invalid}
      pages={links}
      placeholders={placeholders}
    />
  );
}
