// A choice of one of the site's pictures as she sees them: a grid of thumbnails, each a radio
// button named by its text for those who cannot see it (its file's name when it has none), and a
// box that takes a new picture. A value the pictures do not hold (a
// file removed meanwhile, an address, a stock photo's id) stays offered by name, so an open form
// never loses it; `none` offers no picture of the site at all.
import type { Picture } from "./api";
import PictureUpload from "./PictureUpload";

export interface PicturePickerProps {
  /** The fieldset's id: a refused save focuses it. */
  id: string;
  legend: string;
  name: string;
  pictures: Picture[];
  value: string;
  onChange: (file: string) => void;
  hint?: string;
  required?: boolean;
  invalid?: boolean;
  /** Ids of texts that describe the choice (a hint, a problem). */
  describedBy?: string | undefined;
  /** The choice of no picture of the site, by what it means ('(bez obrazu)'). */
  none?: string | undefined;
  /** A picture sent from here: given, the box takes new pictures (chosen or dropped). */
  onUploaded?: ((picture: Picture) => void) | undefined;
}

export default function PicturePicker({
  id,
  legend,
  name,
  pictures,
  value,
  onChange,
  hint,
  required = false,
  invalid = false,
  describedBy,
  none,
  onUploaded,
}: PicturePickerProps) {
  const missing = value !== "" && !pictures.some((p) => p.file === value);
  const hintId = `${id}-hint`;
  const choice = (file: string, url: string | null, shown = file) => (
    <label key={file || "none"} className="picture-choice">
      <input
        type="radio"
        name={name}
        value={file}
        checked={value === file}
        required={required}
        onChange={() => onChange(file)}
      />
      {url ? (
        <img src={url} alt="" width="96" height="72" loading="lazy" decoding="async" />
      ) : (
        <span className="picture-missing">{file ? "spoza „Obrazów”" : "bez obrazu strony"}</span>
      )}
      <span className="picture-name">{shown}</span>
    </label>
  );
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      className="picture-picker"
      aria-invalid={invalid || undefined}
      aria-describedby={[hint ? hintId : "", describedBy ?? ""].filter(Boolean).join(" ") || undefined}
    >
      <legend>{legend}</legend>
      {hint && (
        <p id={hintId} className="muted">
          {hint}
        </p>
      )}
      <div className="picture-grid">
        {none !== undefined && choice("", null, none)}
        {missing && choice(value, null)}
        {pictures.map((p) => choice(p.file, p.url, p.alt || p.file))}
      </div>
      {onUploaded && <PictureUpload onUploaded={onUploaded} />}
    </fieldset>
  );
}
