// Notifications stand at the top of the screen, under the header; but a save button can be there
// too (a form scrolled to its end, on a phone), and a message must never lie over it. While a
// notification shows, it moves just under the button's bar (a form's main button and what is
// said beside it), or just above it where there is no room below.
import { useEffect } from "react";

const GAP = 8;
/** The boxes a notification must leave free: the save bars, and the row of each form's main button. */
function keptFree(): DOMRect[] {
  const rows = [...document.querySelectorAll<HTMLElement>("main .btn-primary")].map(
    (button) => button.closest(".editor-actions") ?? button,
  );
  return [...document.querySelectorAll(".save-bar"), ...rows].map((el) => el.getBoundingClientRect());
}

/**
 * Whether a mouse button or finger is down. A notification stays where it is until it is lifted:
 * moved between the press and the release (a scroll's event can arrive then), it would take the
 * release, and the click she began on a button would be lost.
 */
let pressed = false;

/** Puts the notifications clear of every save button on the screen (their own place when none is in the way). */
export function placeToasts(): void {
  if (pressed) return;
  const box = document.querySelector<HTMLElement>(".admin-signed-in > .toasts");
  if (!box) return;
  for (const property of ["top", "bottom", "max-height", "overflow-y"]) box.style.removeProperty(property);
  if (box.childElementCount === 0) return;
  const own = box.getBoundingClientRect();
  const bar = keptFree().find(
    (r) => r.height > 0 && r.bottom > own.top && r.top < own.bottom && r.right > own.left && r.left < own.right,
  );
  if (!bar) return;
  const below = window.innerHeight - bar.bottom - 2 * GAP;
  const above = bar.top - GAP - own.top;
  if (own.height <= below || (own.height > above && below >= above)) {
    box.style.top = `${bar.bottom + GAP}px`;
    if (own.height > below) shorten(box, below);
  } else {
    box.style.top = "auto";
    box.style.bottom = `${window.innerHeight - bar.top + GAP}px`;
    // Never above its own place, where its title and its × would leave the screen.
    if (own.height > above) shorten(box, above);
  }
}

/** A notification taller than the room beside the bar scrolls within that room. */
function shorten(box: HTMLElement, room: number): void {
  box.style.maxHeight = `${Math.max(room, 0)}px`;
  box.style.overflowY = "auto";
}

/** Keeps the notifications clear of the save buttons as they come and as the page scrolls. */
export function useToastsClearOfSaveButtons(): void {
  useEffect(() => {
    const box = document.querySelector(".admin-signed-in > .toasts");
    const observer = new MutationObserver(placeToasts);
    if (box) observer.observe(box, { childList: true });
    const press = () => {
      pressed = true;
    };
    // After the click the release makes (it comes after 'pointerup', in the same turn).
    const release = () =>
      setTimeout(() => {
        pressed = false;
        placeToasts();
      });
    window.addEventListener("scroll", placeToasts, { passive: true });
    window.addEventListener("resize", placeToasts);
    window.addEventListener("pointerdown", press, true);
    window.addEventListener("pointerup", release, true);
    window.addEventListener("pointercancel", release, true);
    window.addEventListener("blur", release);
    return () => {
      observer.disconnect();
      window.removeEventListener("scroll", placeToasts);
      window.removeEventListener("resize", placeToasts);
      window.removeEventListener("pointerdown", press, true);
      window.removeEventListener("pointerup", release, true);
      window.removeEventListener("pointercancel", release, true);
      window.removeEventListener("blur", release);
      pressed = false;
    };
  }, []);
}
