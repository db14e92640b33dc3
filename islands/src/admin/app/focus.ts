// Opening a field by its id once its view has drawn it: a closed disclosure around it is
// opened, the field scrolled to the middle of the screen and focused.

/** Waits (up to 10 s) for the field `id` to be on the page, then shows and focuses it. */
export function focusField(id: string, until = Date.now() + 10_000): void {
  const field = document.getElementById(id);
  if (!field) {
    if (Date.now() < until) window.setTimeout(() => focusField(id, until), 100);
    return;
  }
  for (let up = field.parentElement; up; up = up.parentElement) {
    if (up instanceof HTMLDetailsElement) up.open = true;
  }
  field.scrollIntoView({ block: "center" });
  // A visual editor's field is the box around its editable text.
  const target = field.matches("input, textarea, select, [contenteditable]")
    ? field
    : (field.querySelector<HTMLElement>("[contenteditable], input, textarea") ?? field);
  target.focus({ preventScroll: true });
}
