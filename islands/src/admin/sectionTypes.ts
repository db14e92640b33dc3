// The section types the site's templates know (generator/site/src/views.rs SECTION_TYPES),
// by the Polish names the owner chooses them by. Any other type renders as 'Tekst'.

export const SECTION_TYPES: readonly { type: string; name: string; hint: string }[] = [
  { type: "text", name: "Tekst", hint: "Zwykły tekst strony: akapity, śródtytuły, listy." },
  {
    type: "callout",
    name: "Ramka wyróżniona",
    hint: "Tekst w wyróżnionej ramce, na przykład numery telefonów pomocy w kryzysie.",
  },
  {
    type: "faq",
    name: "Pytania i odpowiedzi",
    hint: "Każde pytanie pogrubione na początku akapitu albo jako śródtytuł ###, pod nim odpowiedź. Wyszukiwarki pokazują je jako FAQ.",
  },
];

export const DEFAULT_SECTION_TYPE = "text";
