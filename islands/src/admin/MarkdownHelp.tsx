// 'Pomoc: znaki formatowania': how the text of a section is written, one click away, in a disclosure.
const ROWS: [string, string][] = [
  ["**ważne słowo**", "pogrubienie (przycisk „Pogrubienie” albo Ctrl+B)"],
  ["*słowo*", "kursywa"],
  ["## Śródtytuł", "śródtytuł (przycisk „Nagłówek”); ### to mniejszy śródtytuł"],
  ["- punkt", "lista wypunktowana (przycisk „Lista”); każdy punkt w osobnym wierszu"],
  ["1. krok", "lista numerowana"],
  ["[cennik](/cennik)", "link do strony serwisu albo https://… (przycisk „Link” albo Ctrl+K)"],
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
