// Moments as the panel writes them, in Polish: '12 listopada 2026 18:03', '12 lis 2026, 18:03'.

/** A moment (milliseconds) as a long Polish date and time. */
export function formatTime(ms: number): string {
  return new Date(ms).toLocaleString("pl-PL", { dateStyle: "long", timeStyle: "short" });
}

/** A moment (Unix seconds) as a short Polish date and time, for lists. */
export function when(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString("pl-PL", { dateStyle: "medium", timeStyle: "short" });
}
