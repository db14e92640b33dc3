// An article without a picture asks for one: one of the site's pictures, chosen in its settings,
// or one of the site's own drawings. The site never puts a picture of somebody else's there.
import type { Editable, Picture } from "../api";

/** The drawing an article gets: always the same one for the same article. */
export function drawingFor(id: string, drawings: string[]): string | undefined {
  const sum = [...id].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1_000_003, 7);
  return drawings[sum % Math.max(1, drawings.length)];
}

export default function NoPicture({
  page,
  pictures,
  drawings,
  onPick,
}: {
  page: Editable;
  pictures: Picture[];
  drawings: string[];
  onPick: (file: string) => void;
}) {
  const drawing = drawingFor(page.id, drawings);
  const shown = pictures.find((p) => p.file === drawing);
  const choose = () => {
    const details = document.querySelector<HTMLDetailsElement>("details.settings-details");
    if (details) details.open = true;
    const picker = document.getElementById(`settings-${page.id.replace("/", "-")}-image`);
    picker?.scrollIntoView({ block: "center" });
    picker?.focus();
  };
  return (
    <div className="form-notice no-picture" role="note">
      <p>
        <strong>Ten artykuł nie ma obrazu.</strong> Wybierz jeden z obrazów strony albo użyj rysunku strony: bez tego
        karta artykułu na blogu będzie bez ilustracji.
      </p>
      <div className="editor-actions">
        <button type="button" className="btn btn-secondary btn-small" onClick={choose}>
          Wybierz obraz
        </button>
        {drawing && (
          <button
            type="button"
            className="btn btn-secondary btn-small no-picture-drawing"
            onClick={() => onPick(drawing)}
          >
            {shown && <img src={shown.url} alt="" width="48" height="27" />}
            Użyj rysunku strony
          </button>
        )}
      </div>
    </div>
  );
}
