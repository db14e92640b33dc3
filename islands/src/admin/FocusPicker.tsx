// The focal point of a picture: the point a crop keeps in view on the public site (its
// `object-position`). Set by clicking the preview, or with two number fields (percent across
// and down) for the keyboard; shown as a mark on the picture and as the two crops the site
// makes of it, wide and tall. Empty means the middle.
import type { MouseEvent } from "react";

export interface FocusPickerProps {
  id: string;
  /** The picture's address. */
  src: string;
  /** `"50% 30%"`, or empty for the middle. */
  value: string;
  onChange: (value: string) => void;
}

/** The two percentages of a focus, the middle for an empty or unreadable one. */
export function parseFocus(value: string): [number, number] {
  const found = /^\s*(\d{1,3})%\s+(\d{1,3})%\s*$/.exec(value);
  return found ? [Number(found[1]), Number(found[2])] : [50, 50];
}

const clamp = (n: number) => Math.min(100, Math.max(0, Math.round(n)));

export default function FocusPicker({ id, src, value, onChange }: FocusPickerProps) {
  const [x, y] = parseFocus(value);
  const set = (nx: number, ny: number) => onChange(`${clamp(nx)}% ${clamp(ny)}%`);
  const click = (event: MouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    set(((event.clientX - box.left) / box.width) * 100, ((event.clientY - box.top) / box.height) * 100);
  };
  const position = `${x}% ${y}%`;
  return (
    <fieldset className="focus-picker" aria-describedby={`${id}-hint`}>
      <legend>Punkt ostrości zdjęcia</legend>
      <p id={`${id}-hint`} className="muted">
        Kliknij na zdjęciu to, co ma zawsze zostać w kadrze (na przykład twarz), albo wpisz położenie w procentach.
        Strona przycina zdjęcie inaczej na telefonie i na komputerze.
      </p>
      <div className="focus-area">
        <div className="focus-image" onClick={click}>
          <img src={src} alt="" />
          <span className="focus-mark" style={{ left: `${x}%`, top: `${y}%` }} aria-hidden="true" />
        </div>
        <div className="focus-crops" aria-hidden="true">
          <img className="focus-crop-wide" src={src} alt="" style={{ objectPosition: position }} />
          <img className="focus-crop-tall" src={src} alt="" style={{ objectPosition: position }} />
        </div>
      </div>
      <div className="focus-fields">
        <div className="field">
          <label htmlFor={`${id}-x`}>Poziomo (%)</label>
          <input
            id={`${id}-x`}
            type="number"
            inputMode="numeric"
            min={0}
            max={100}
            value={x}
            onChange={(e) => set(Number(e.target.value), y)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-y`}>Pionowo (%)</label>
          <input
            id={`${id}-y`}
            type="number"
            inputMode="numeric"
            min={0}
            max={100}
            value={y}
            onChange={(e) => set(x, Number(e.target.value))}
          />
        </div>
        {value !== "" && (
          <button type="button" className="btn btn-secondary btn-small" onClick={() => onChange("")}>
            Środek zdjęcia
          </button>
        )}
      </div>
    </fieldset>
  );
}
