// 'Pomoc: znaki formatowania': how the text of a section is written, one click away, in a disclosure.
// The keyboard's shortcuts are said only where there is a keyboard (not on a touch screen).
import type { ReactNode } from "react";

/** A keyboard shortcut in a sentence: hidden on a touch screen by the panel's stylesheet. */
export const Keys = ({ children }: { children: ReactNode }) => <span className="editor-keys">{children}</span>;

const ROWS: [string, ReactNode][] = [
  [
    "**ważne słowo**",
    <>
      pogrubienie (przycisk „Pogrubienie”<Keys> albo Ctrl+B</Keys>)
    </>,
  ],
  ["*słowo*", "kursywa"],
  ["## Śródtytuł", "śródtytuł (przycisk „Nagłówek”); ### to mniejszy śródtytuł"],
  ["- punkt", "lista wypunktowana (przycisk „Lista”); każdy punkt w osobnym wierszu"],
  ["1. krok", "lista numerowana"],
  [
    "[cennik](/cennik)",
    <>
      link do strony serwisu albo https://… (przycisk „Link”<Keys> albo Ctrl+K</Keys>)
    </>,
  ],
  ["![opis](/images/plik.jpg)", "obraz z tekstem alternatywnym (przycisk „Wstaw obraz”)"],
  ["{{ telefon }}", "dane gabinetu, wstawiane na stronie z „Dane gabinetu” (przycisk „Wstaw dane”)"],
];

export default function MarkdownHelp() {
  return (
    <details className="markdown-help">
      <summary>Pomoc: znaki formatowania</summary>
      <p>
        Tekst sekcji to zwykły tekst ze znakami formatowania. Pusta linia zaczyna nowy akapit. Przyciski nad polem
        wstawiają te znaki za Ciebie.
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Znaki formatowania">
        <table>
          <thead>
            <tr>
              <th scope="col">Wpisz</th>
              <th scope="col">Na stronie</th>
            </tr>
          </thead>
          <tbody>
            {ROWS.map(([typed, shown]) => (
              <tr key={typed}>
                <td>
                  <code>{typed}</code>
                </td>
                <td>{shown}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
