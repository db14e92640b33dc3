// The page's settings beside its sections: title, meta description (with the 120–160
// character hint of the content rules), hero image and its alternative text, and for an
// article its author, date, excerpt and whether it is listed, featured and published.
import DateField from "./DateField";
import FocusPicker from "./FocusPicker";
import PicturePicker from "./PicturePicker";
import type { Editable, Picture, Settings } from "./api";
import { addPicture } from "./pages/store";
import { ALT_HINT } from "./upload";
import { DESCRIPTION_LENGTH } from "../generated/schema";

export interface SettingsFormProps {
  id: string;
  kind: Editable["kind"];
  settings: Settings;
  pictures: Picture[];
  /** The team's names: an article's author is one of them (or another name typed). */
  authors: string[];
  onChange: (settings: Settings) => void;
  /** Shown unfolded at first (a new, unpublished article). */
  open?: boolean;
}

/** The length a description should have (defined once in Rust: content::limits). */
export const DESCRIPTION_MIN = DESCRIPTION_LENGTH.min;
export const DESCRIPTION_MAX = DESCRIPTION_LENGTH.max;

/** One line: a new line typed or pasted becomes a space. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ");

function descriptionHint(length: number): string {
  if (length === 0) return `Brak opisu. Zalecane ${DESCRIPTION_MIN}–${DESCRIPTION_MAX} znaków.`;
  if (length < DESCRIPTION_MIN) return `${length} znaków: za krótki, zalecane ${DESCRIPTION_MIN}–${DESCRIPTION_MAX}.`;
  if (length > DESCRIPTION_MAX) return `${length} znaków: za długi, zalecane ${DESCRIPTION_MIN}–${DESCRIPTION_MAX}.`;
  return `${length} znaków: w sam raz.`;
}

export default function SettingsForm({
  id,
  kind,
  settings,
  pictures,
  authors,
  onChange,
  open = false,
}: SettingsFormProps) {
  const set = (patch: Partial<Settings>) => onChange({ ...settings, ...patch });
  const field = (name: string) => `settings-${id.replace("/", "-")}-${name}`;
  const description = [...settings.description].length;
  const chosen = pictures.find((p) => p.file === settings.image);
  const article = kind === "article";
  return (
    <details className="settings-details" open={open}>
      <summary>
        Ustawienia strony <span className="muted">(tytuł, opis, obraz{article ? ", autor, data, zajawka" : ""})</span>
      </summary>
      <fieldset className="settings">
        <legend className="visually-hidden">Ustawienia strony</legend>
        <div className="field">
          <label htmlFor={field("title")}>Tytuł</label>
          <input
            id={field("title")}
            type="text"
            value={settings.title}
            required
            onChange={(e) => set({ title: oneLine(e.target.value) })}
          />
        </div>
        <div className="field">
          <label htmlFor={field("description")}>Opis dla wyszukiwarek</label>
          <textarea
            id={field("description")}
            rows={3}
            value={settings.description}
            aria-describedby={field("description-hint")}
            onChange={(e) => set({ description: oneLine(e.target.value) })}
          />
          <p
            id={field("description-hint")}
            className={
              description >= DESCRIPTION_MIN && description <= DESCRIPTION_MAX ? "muted" : "muted settings-warning"
            }
          >
            {descriptionHint(description)}
          </p>
        </div>
        {article && (
          <>
            <div className="field">
              <label htmlFor={field("excerpt")}>Zajawka na karcie artykułu</label>
              <textarea
                id={field("excerpt")}
                rows={2}
                value={settings.excerpt ?? ""}
                onChange={(e) => set({ excerpt: oneLine(e.target.value) })}
              />
            </div>
            <div className="field">
              <label htmlFor={field("author")}>Autor</label>
              <input
                id={field("author")}
                type="text"
                list={field("authors")}
                value={settings.author ?? ""}
                required
                aria-describedby={field("author-hint")}
                onChange={(e) => set({ author: oneLine(e.target.value) })}
              />
              <datalist id={field("authors")}>
                {authors.map((name) => (
                  <option key={name} value={name} />
                ))}
              </datalist>
              <p id={field("author-hint")} className="muted">
                Imię i nazwisko, którym artykuł jest podpisany: wybierz osobę z zespołu albo wpisz inną.
              </p>
            </div>
            <DateField
              id={field("date")}
              label="Data publikacji"
              value={settings.date ?? ""}
              hint="Data pod tytułem artykułu, na przykład 24.12.2026. Kiedy artykuł ukaże się na stronie, ustalasz przyciskami „Opublikuj teraz” i „Zaplanuj…” u góry."
              onChange={(date) => set({ date: oneLine(date).trim() })}
            />
            <div className="settings-flags">
              <label>
                <input
                  type="checkbox"
                  checked={settings.listed ?? true}
                  onChange={(e) => set({ listed: e.target.checked })}
                />{" "}
                Na liście artykułów bloga
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={settings.featured ?? false}
                  onChange={(e) => set({ featured: e.target.checked })}
                />{" "}
                Wyróżniony na stronie głównej
              </label>
            </div>
          </>
        )}
        <div className="settings-image">
          <PicturePicker
            id={field("image")}
            legend="Obraz główny"
            name={field("image")}
            pictures={pictures}
            value={settings.image}
            none={kind === "page" ? "(bez obrazu)" : kind === "article" ? undefined : "(obraz zastępczy)"}
            onChange={(image) => {
              const picked = pictures.find((p) => p.file === image);
              set({ image, imageAlt: settings.imageAlt || (picked?.alt ?? "") });
            }}
            onUploaded={(picture) => {
              addPicture(picture);
              set({ image: picture.file, imageAlt: picture.alt ?? settings.imageAlt });
            }}
          />
          <div className="field">
            <label htmlFor={field("image-alt")}>Tekst alternatywny obrazu</label>
            <input
              id={field("image-alt")}
              type="text"
              value={settings.imageAlt}
              placeholder="Co przedstawia obraz"
              aria-describedby={field("image-alt-hint")}
              onChange={(e) => set({ imageAlt: oneLine(e.target.value) })}
            />
            <p id={field("image-alt-hint")} className="muted">
              {ALT_HINT}
            </p>
          </div>
          {chosen && (
            <FocusPicker
              id={field("focus")}
              src={chosen.url}
              value={settings.imageFocus ?? ""}
              onChange={(imageFocus) => set({ imageFocus })}
            />
          )}
          {chosen?.alt && chosen.alt !== settings.imageAlt && (
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => set({ imageAlt: chosen.alt ?? "" })}
            >
              Użyj tekstu podanego przy przesłaniu: „{chosen.alt}”
            </button>
          )}
        </div>
      </fieldset>
    </details>
  );
}
