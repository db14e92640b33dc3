// What the sign-in screen (islands/AdminPanel.tsx) gives the signed-in panel it imports.
import type { ShowToast } from "../../toasts";

export interface SignedInProps {
  /** The panel's notifications, shown by the sign-in screen's one region. */
  toast: ShowToast;
  /** The session ended with nothing unsaved: back to the sign-in, which says why. */
  onSignedOut: (notice: string) => void;
}
