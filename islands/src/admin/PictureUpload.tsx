// A new picture sent from where it is needed (a page's main picture, a photo of the team, a
// picture in a section): chosen from the device or dropped onto the box, with its text for those
// who cannot see it; once the server has it, it is the one chosen.
import { useId, useState, type DragEvent } from "react";
import { api, isApiError, type Picture } from "./api";
import { ACCEPTED, ALT_HINT, uploadProblem } from "./upload";

export default function PictureUpload({ onUploaded }: { onUploaded: (picture: Picture) => void }) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState("");
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const take = (chosen: File | undefined) => {
    setError("");
    setFile(chosen ?? null);
  };
  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    take(event.dataTransfer.files[0]);
  };
  const send = async () => {
    const problem = uploadProblem(file, alt);
    if (problem || !file) return setError(problem ?? "");
    setBusy(true);
    try {
      const stored = await api.upload(file, alt.trim());
      setFile(null);
      setAlt("");
      onUploaded(stored);
    } catch (e) {
      setError(isApiError(e) && e.error ? e.error : "Nie udało się przesłać obrazu.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <div
      className={over ? "picture-upload is-over" : "picture-upload"}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <p className="muted">
        Nowy obraz:<span className="drop-hint"> upuść go tutaj albo</span>
      </p>
      <label className="btn btn-secondary btn-small" htmlFor={`${id}-file`}>
        wybierz plik
      </label>
      <input
        id={`${id}-file`}
        className="visually-hidden"
        type="file"
        accept={ACCEPTED.join(",")}
        onChange={(e) => take(e.target.files?.[0])}
      />
      {file && (
        <div className="picture-upload-text">
          <p>Wybrany plik: {file.name}</p>
          <div className="field">
            <label htmlFor={`${id}-alt`}>Tekst alternatywny nowego obrazu</label>
            <input
              id={`${id}-alt`}
              type="text"
              maxLength={300}
              value={alt}
              aria-describedby={`${id}-hint`}
              onChange={(e) => setAlt(e.target.value)}
            />
            <p id={`${id}-hint`} className="muted">
              {ALT_HINT}
            </p>
          </div>
          <button type="button" className="btn btn-primary btn-small" disabled={busy} onClick={() => void send()}>
            {busy ? "Przesyłanie…" : "Prześlij i wybierz"}
          </button>
        </div>
      )}
      {error && (
        <p className="form-notice form-notice-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
