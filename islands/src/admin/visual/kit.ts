// The visual editor and its framework (ProseMirror and markdown-it, most of the panel's code) are
// loaded when a visual editor is first shown, not with the view that holds it: the pages view
// shows its list without them, and the Markdown view never loads them.
import { useEffect, useState } from "react";
import { storedView } from "./view";

export type VisualKit = typeof import("./kitParts");
/** The kit, or where its loading is. */
export type KitState = VisualKit | "loading" | "failed";

let loading: Promise<VisualKit> | null = null;
let loaded: VisualKit | null = null;

function load(): Promise<VisualKit> {
  loading ??= import("./kitParts").then((kit) => (loaded = kit));
  return loading;
}

// Where the section editors open in the visual view, the kit is fetched with the view that
// imports this file, beside that view's own data, instead of after its first render. A failure
// here is reported by useVisualKit, which gets the same promise.
if (storedView() === "visual") load().catch(() => undefined);

/**
 * The kit while `wanted`: "loading" until it has come (at once if it came before), "failed" if
 * it cannot be loaded; null while not wanted.
 */
export function useVisualKit(wanted: boolean): KitState | null {
  const [state, setState] = useState<KitState>(() => loaded ?? "loading");
  useEffect(() => {
    if (!wanted || state !== "loading") return;
    let live = true;
    load().then(
      (kit) => live && setState(kit),
      () => live && setState("failed"),
    );
    return () => {
      live = false;
    };
  }, [wanted, state]);
  return wanted ? state : null;
}

/** The kit itself, once loaded. */
export function kitOf(state: KitState | null): VisualKit | null {
  return typeof state === "object" ? state : null;
}
