// What a refused action of 'Bezpieczeństwo' says: the server's words, or the browser's about a
// passkey, or that it did not work.
import { signInError } from "../signin/auth";

export const FAILED = "Nie udało się. Spróbuj ponownie za chwilę.";

export const errorText = (e: unknown) => signInError(e, FAILED);
