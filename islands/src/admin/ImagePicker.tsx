// 'Wstaw obraz': a picture of the site (or a new one, sent from here) and its text, given back
// as the Markdown that shows it.
import { useState, type FormEvent } from "react";
import type { Picture } from "./api";
import Modal from "./Modal";
import { addPicture } from "./pages/store";
import PicturePicker from "./PicturePicker";
import { ALT_HINT } from "./upload";

/** Chooses a picture and its text, and gives back the Markdown that shows it. */
export default function ImagePicker({
  pictures,
  onPick,
  onClose,
}: {
  pictures: Picture[];
  onPick: (markdown: string) => void;
  onClose: () => void;
}) {
  const [file, setFile] = useState(pictures[0]?.file ?? "");
  const picked = pictures.find((p) => p.file === file);
  const [alt, setAlt] = useState(picked?.alt ?? "");
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!picked || !alt.trim()) return;
    onPick(`![${alt.trim().replace(/[[\]]/g, "")}](${picked.url})`);
  };
  return (
    <Modal title="Wstaw obraz" onClose={onClose}>
      <form className="admin-dialog-body" onSubmit={submit}>
        <PicturePicker
          id="pick-image"
          legend="Obraz"
          name="pick-image"
          pictures={pictures}
          value={file}
          required
          onChange={(next) => {
            setFile(next);
            setAlt(pictures.find((p) => p.file === next)?.alt ?? "");
          }}
          onUploaded={(picture) => {
            addPicture(picture);
            setFile(picture.file);
            setAlt(picture.alt ?? "");
          }}
        />
        <div className="field">
          <label htmlFor="pick-alt">Tekst alternatywny</label>
          <input
            id="pick-alt"
            type="text"
            value={alt}
            required
            aria-describedby="pick-alt-hint"
            onChange={(e) => setAlt(e.target.value)}
          />
          <p id="pick-alt-hint" className="muted">
            {ALT_HINT}
          </p>
        </div>
        <div className="editor-actions">
          <button type="submit" className="btn btn-primary" disabled={!picked || !alt.trim()}>
            Wstaw do sekcji
          </button>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Anuluj
          </button>
        </div>
      </form>
    </Modal>
  );
}
