// What an upload of a picture must be, checked before it is sent (the server checks again):
// JPEG, PNG or WebP, at most 15 MB, with a text for those who cannot see it.
import { MAX_IMAGE_BYTES } from "./api";

export const ACCEPTED = ["image/jpeg", "image/png", "image/webp"];
export const TOO_LARGE = "Obraz jest zbyt duży: można przesłać najwyżej 15 MB. Zmniejsz zdjęcie i spróbuj ponownie.";
export const WRONG_TYPE = "Ten plik nie jest obrazem JPEG, PNG ani WebP. Prześlij zdjęcie w jednym z tych formatów.";
export const NO_ALT = "Podaj tekst alternatywny: co przedstawia obraz, dla osób, które go nie widzą.";
/** What 'Tekst alternatywny' is, in one line, under every such field. */
export const ALT_HINT = "To, co usłyszy osoba niewidoma, gdy czytnik ekranu dojdzie do obrazu.";

/** What is wrong with uploading `file` described by `alt`, or null. */
export function uploadProblem(file: File | null, alt: string): string | null {
  if (!file || file.size === 0) return "Wybierz plik z obrazem.";
  if (!ACCEPTED.includes(file.type)) return WRONG_TYPE;
  if (file.size > MAX_IMAGE_BYTES) return TOO_LARGE;
  if (!alt.trim()) return NO_ALT;
  return null;
}
