// The recovery codes, shown once: as a list, a text file to keep and a sheet to print.
import { useCallback, useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";

/** The recovery codes as a text file: what the file says, line by line. */
export function recoveryCodesText(codes: string[], made: Date): string {
  const day = made.toLocaleDateString("pl-PL", { dateStyle: "long" });
  return [
    `Kody zapasowe do panelu strony gabinetu (utworzone ${day})`,
    "",
    "Każdy kod działa raz, zamiast kodu z aplikacji, gdy nie masz telefonu pod ręką.",
    "Przechowuj je poza telefonem, np. wydrukowane w szufladzie.",
    "",
    ...codes,
    "",
  ].join("\r\n");
}

function saveCodes(codes: string[]) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(
    new Blob([recoveryCodesText(codes, new Date())], { type: "text/plain;charset=utf-8" }),
  );
  link.download = "kody-zapasowe-panelu.txt";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/**
 * A sheet with the codes alone, put straight into <body> (its own React root): it covers the
 * panel on screen, and on paper nothing else of the panel is printed.
 */
function usePrintSheet(codes: string[], open: boolean, onClose: () => void) {
  useEffect(() => {
    if (!open) return;
    const host = document.createElement("section");
    host.className = "recovery-sheet";
    host.setAttribute("aria-labelledby", "recovery-sheet-title");
    document.body.append(host);
    const root = createRoot(host);
    root.render(<PrintSheet codes={codes} onClose={onClose} />);
    return () => {
      root.unmount();
      host.remove();
    };
  }, [codes, open, onClose]);
}

function PrintSheet({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), []);
  return (
    <>
      <h3 id="recovery-sheet-title" tabIndex={-1} ref={title}>
        Kody zapasowe do panelu strony gabinetu
      </h3>
      <p>
        Utworzone {new Date().toLocaleDateString("pl-PL", { dateStyle: "long" })}. Każdy kod działa raz, zamiast kodu z
        aplikacji. Przechowuj tę kartkę poza telefonem.
      </p>
      <ol className="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="editor-actions recovery-sheet-actions">
        <button type="button" className="btn btn-primary" onClick={() => window.print()}>
          Drukuj
        </button>
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Zamknij widok do druku
        </button>
      </div>
    </>
  );
}

export default function RecoveryCodes({ codes }: { codes: string[] }) {
  const [printing, setPrinting] = useState(false);
  const closePrint = useCallback(() => setPrinting(false), []);
  usePrintSheet(codes, printing, closePrint);
  return (
    <div className="form-notice" role="status">
      <p>
        <strong>Kody zapasowe</strong> – zapisz je teraz i przechowuj poza telefonem. Każdy działa raz, gdy nie masz
        telefonu pod ręką. Nie pokażemy ich ponownie.
      </p>
      <ul className="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="editor-actions">
        <button type="button" className="btn btn-secondary btn-small" onClick={() => saveCodes(codes)}>
          Pobierz kody jako plik tekstowy
        </button>
        <button type="button" className="btn btn-secondary btn-small" onClick={() => setPrinting(true)}>
          Widok do druku
        </button>
      </div>
    </div>
  );
}
