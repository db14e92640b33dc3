// Every view of the panel: its address (routes.ts), its label in the navigation, and its code,
// loaded the first time it is opened.
import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import type { Toast } from "../saving";
import type { Route, ViewKey } from "./routes";

/** What every view is given. */
export interface ViewProps {
  toast: Toast;
  /** Says whether the view's form has unsaved changes (the panel asks before leaving it). */
  onDirty: (dirty: boolean) => void;
  route: Route;
  go: (to: Route) => void;
}

export interface ViewEntry {
  key: ViewKey;
  label: string;
  View: LazyExoticComponent<ComponentType<ViewProps>>;
}

export const VIEWS: ViewEntry[] = [
  { key: "pages", label: "Strony", View: lazy(() => import("../pages/PagesView")) },
  { key: "team", label: "Zespół", View: lazy(() => import("../Team")) },
  { key: "prices", label: "Cennik", View: lazy(() => import("../PricesForm")) },
  { key: "facts", label: "Dane gabinetu", View: lazy(() => import("../FactsForm")) },
  { key: "words", label: "Napisy", View: lazy(() => import("../WordsForm")) },
  { key: "pictures", label: "Obrazy", View: lazy(() => import("../Pictures")) },
  { key: "messages", label: "Wiadomości", View: lazy(() => import("../Inbox")) },
  { key: "stats", label: "Statystyki", View: lazy(() => import("../stats/Statistics")) },
  { key: "security", label: "Bezpieczeństwo", View: lazy(() => import("../security/Security")) },
  { key: "git", label: "Dostęp przez git", View: lazy(() => import("../GitAccess")) },
  { key: "system", label: "Stan systemu", View: lazy(() => import("../SystemStatus")) },
];
