// The toolbar over a section's text, in either view: one stop of Tab, the arrow keys (Home,
// End) move within it and it remembers its last-used button; each button says its shortcut.
import { useRef, useState, type KeyboardEvent } from "react";

export interface Tool {
  label: string;
  /** Its shortcut as aria-keyshortcuts writes it ('Control+B'). */
  keys?: string;
  act: () => void;
  /** Whether it is on where the cursor is (visual view): a pressed toggle. */
  pressed?: boolean;
}

export interface WritingToolbarProps {
  n: number;
  /** What the text is when it is no section: the toolbar is named after it. */
  label?: string | undefined;
  /** The id of the text the toolbar writes in. */
  controls: string;
  tools: Tool[];
  /** A click leaves the focus in the text (a visual editor loses its selection when blurred). */
  keepFocus?: boolean;
}

export default function WritingToolbar({ n, label, controls, tools, keepFocus = false }: WritingToolbarProps) {
  const toolbar = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowRight: 1, ArrowLeft: -1, Home: -tools.length, End: tools.length }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const next = Math.min(tools.length - 1, Math.max(0, active + step));
    setActive(next);
    toolbar.current?.querySelectorAll<HTMLButtonElement>("button")[next]?.focus();
  };
  return (
    <div
      ref={toolbar}
      className="writing-toolbar"
      role="toolbar"
      aria-label={label ? `Formatowanie: ${label}` : `Formatowanie sekcji ${n}`}
      aria-controls={controls}
      onKeyDown={move}
    >
      {tools.map((tool, i) => (
        <button
          key={tool.label}
          type="button"
          className="btn btn-secondary btn-small"
          tabIndex={i === Math.min(active, tools.length - 1) ? 0 : -1}
          aria-keyshortcuts={tool.keys}
          aria-pressed={tool.pressed}
          title={tool.keys ? `${tool.label} (${tool.keys.replace("Control", "Ctrl")})` : undefined}
          onFocus={() => setActive(i)}
          onMouseDown={keepFocus ? (e) => e.preventDefault() : undefined}
          onClick={tool.act}
        >
          {tool.label}
        </button>
      ))}
    </div>
  );
}
