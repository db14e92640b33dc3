// 'Obrazy': pictures of the site, uploading one (JPEG, PNG or WebP, at most 15 MB) with its
// alternative text, and deleting one no page shows (the server says which pages do). A picture is then chosen as a page's main image in its settings, or
// put into a section with ImagePicker. An upload shows the bytes sent, then the server's
// check, then — the picture already usable — the making of its lighter variants.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { api, isApiError, type Picture } from "./api";
import { ACCEPTED, ALT_HINT, uploadProblem } from "./upload";
import type { ViewProps } from "./app/views";
import { useStore } from "./app/store";
import { pagesStore, reloadPictures } from "./pages/store";
import type { Toast } from "./saving";

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
    const problem = uploadProblem(file instanceof File ? file : null, alt);
    if (problem || !(file instanceof File)) return setError(problem ?? "");
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
          <input id="upload-alt" name="alt" type="text" maxLength={300} aria-describedby="upload-alt-hint" />
          <p id="upload-alt-hint" className="muted">
            {ALT_HINT}
          </p>
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
            <span className="picture-name">{p.alt || p.file}</span>
            <span className="muted">
              {size(p.bytes)}
              {p.alt ? ` · ${p.file}` : ""}
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

/** 'Obrazy' as a view of the panel: the site's pictures, kept with the pages. */
export default function PicturesView({ toast }: ViewProps) {
  const { pictures } = useStore(pagesStore);
  return (
    <Pictures
      pictures={pictures}
      toast={toast}
      onUploaded={() => void reloadPictures()}
      onDeleted={() => void reloadPictures()}
    />
  );
}
