// 'Obrazy': pictures of the site, uploading one (JPEG, PNG or WebP, at most 15 MB) with its
// alternative text, and deleting one no page shows (the server says which pages do). A picture is then chosen as a page's main image in its settings, or
// put into a section with ImagePicker. An upload shows the bytes sent, then the server's
// check, then — the picture already usable — the making of its lighter variants.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { api, isApiError, MAX_IMAGE_BYTES, type Picture } from "./api";
import Modal from "./Modal";
import PicturePicker from "./PicturePicker";
import type { Toast } from "./saving";

const ACCEPTED = ["image/jpeg", "image/png", "image/webp"];
const TOO_LARGE = "Obraz jest zbyt duży: można przesłać najwyżej 15 MB. Zmniejsz zdjęcie i spróbuj ponownie.";
const WRONG_TYPE = "Ten plik nie jest obrazem JPEG, PNG ani WebP. Prześlij zdjęcie w jednym z tych formatów.";

function size(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1).replace(".", ",")} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} kB`;
}

/** Where an upload is: its bytes on the way, the server checking them, its variants being made. */
type Progress =
  | { step: "sending"; sent: number; total: number }
  | { step: "checking" }
  | { step: "variants"; file: string }
  | { step: "done"; file: string };

/** How often the panel asks whether a picture's variants are done. */
const POLL_MS = 1000;

function UploadProgress({ progress }: { progress: Progress }) {
  const id = useId();
  const [label, bar] = (() => {
    switch (progress.step) {
      case "sending":
        return [
          `Przesyłanie: ${progress.sent ? size(progress.sent) : "0 kB"} z ${size(progress.total)} (${Math.floor((100 * progress.sent) / Math.max(1, progress.total))}%)`,
          <progress aria-labelledby={id} max={progress.total} value={progress.sent} />,
        ];
      case "checking":
        return ["Przesłano. Serwer sprawdza i zapisuje obraz…", <progress aria-labelledby={id} />];
      case "variants":
        return [
          `Obraz ${progress.file} jest już na stronie i można go użyć. Przygotowywanie lżejszych wersji dla telefonów i komputerów…`,
          <progress aria-labelledby={id} />,
        ];
      case "done":
        return [`Gotowe: obraz ${progress.file} ma już lżejsze wersje dla telefonów i komputerów.`, null];
    }
  })();
  return (
    <div className="upload-progress" role="status">
      <span id={id}>{label}</span>
      {bar}
    </div>
  );
}

export function Pictures({
  pictures,
  onUploaded,
  onDeleted,
  toast,
}: {
  pictures: Picture[];
  onUploaded: (picture: Picture) => void;
  onDeleted: () => void;
  toast: Toast;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [progress, setProgress] = useState<Progress | null>(null);
  // While a picture's variants are being made, ask now and then whether they are done.
  const waiting = progress?.step === "variants" ? progress.file : null;
  const uploaded = useRef(onUploaded);
  uploaded.current = onUploaded;
  useEffect(() => {
    if (!waiting) return;
    let live = true;
    const timer = window.setInterval(async () => {
      const list = await api.images({ background: true }).catch(() => null);
      const mine = list?.find((p) => p.file === waiting);
      if (!live || !list || mine?.pending) return;
      setProgress({ step: "done", file: waiting });
      if (mine) uploaded.current(mine);
    }, POLL_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [waiting]);
  const remove = async (file: string) => {
    if (!window.confirm(`Usunąć obraz ${file}? Tej operacji nie można cofnąć.`)) return;
    setError("");
    try {
      await api.removeImage(file);
      toast("success", { title: "Sukces", text: `Usunięto obraz ${file}.` });
      onDeleted();
    } catch (e) {
      setError(isApiError(e) && e.error ? e.error : "Nie udało się usunąć obrazu.");
    }
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const file = data.get("file");
    const alt = String(data.get("alt") ?? "").trim();
    setError("");
    if (!(file instanceof File) || file.size === 0) return setError("Wybierz plik z obrazem.");
    if (!ACCEPTED.includes(file.type)) return setError(WRONG_TYPE);
    if (file.size > MAX_IMAGE_BYTES) return setError(TOO_LARGE);
    if (!alt) return setError("Podaj tekst alternatywny: co przedstawia obraz, dla osób, które go nie widzą.");
    setBusy(true);
    setProgress({ step: "sending", sent: 0, total: file.size });
    try {
      const stored = await api.upload(file, alt, (sent, total) =>
        setProgress(sent < total ? { step: "sending", sent, total } : { step: "checking" }),
      );
      toast("success", { title: "Sukces", text: `Przesłano obraz ${stored.file}.` });
      form.reset();
      setProgress(stored.pending ? { step: "variants", file: stored.file } : { step: "done", file: stored.file });
      onUploaded(stored);
    } catch (e) {
      setProgress(null);
      setError(isApiError(e) && e.error ? e.error : "Nie udało się przesłać obrazu.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="admin-card" aria-labelledby="pictures-title">
      <h2 id="pictures-title">Obrazy</h2>
      <form className="upload" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="upload-file">Plik (JPEG, PNG lub WebP, najwyżej 15 MB)</label>
          <input id="upload-file" name="file" type="file" accept={ACCEPTED.join(",")} />
        </div>
        <div className="field">
          <label htmlFor="upload-alt">Tekst alternatywny (co przedstawia obraz)</label>
          <input id="upload-alt" name="alt" type="text" maxLength={300} />
        </div>
        {error && (
          <p className="form-notice form-notice-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Przesyłanie…" : "Prześlij obraz"}
        </button>
        {progress && <UploadProgress progress={progress} />}
      </form>
      <ul className="picture-grid">
        {pictures.map((p) => (
          <li key={p.file}>
            <img src={p.url} alt={p.alt ?? ""} loading="lazy" width="160" height="90" />
            <span className="picture-name">{p.file}</span>
            <span className="muted">
              {size(p.bytes)}
              {p.alt ? ` · „${p.alt}”` : ""}
            </span>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              aria-label={`Usuń obraz ${p.file}`}
              onClick={() => void remove(p.file)}
            >
              Usuń
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Chooses a picture and its text, and gives back the Markdown that shows it. */
export function ImagePicker({
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
        />
        <div className="field">
          <label htmlFor="pick-alt">Tekst alternatywny</label>
          <input id="pick-alt" type="text" value={alt} required onChange={(e) => setAlt(e.target.value)} />
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
