// The panel's views as addresses: '#/cennik', '#/strony/blog/terapia-cbt'. A view can be
// bookmarked, reloaded and left with the browser's back button; a hash that names no view (the
// skip link's '#main') leaves the view as it is.
import { useCallback, useEffect, useState } from "react";

export type ViewKey =
  "pages" | "team" | "prices" | "facts" | "words" | "pictures" | "messages" | "stats" | "security" | "git" | "system";

export interface Route {
  view: ViewKey;
  /** The page open in 'Strony' (`blog/terapia-cbt`; none: the home page), or the profile open in 'Zespół'. */
  doc: string | null;
}

/** Each view's address, in the owner's words. */
export const PATHS: Record<ViewKey, string> = {
  pages: "strony",
  team: "zespol",
  prices: "cennik",
  facts: "dane-gabinetu",
  words: "napisy",
  pictures: "obrazy",
  messages: "wiadomosci",
  stats: "statystyki",
  security: "bezpieczenstwo",
  git: "git",
  system: "stan-systemu",
};

/** The views whose address may name what is open in them. */
const WITH_DOC: ViewKey[] = ["pages", "team"];

export const HOME: Route = { view: "pages", doc: null };

/** The route a hash names, `null` for a hash that is no route ('#main'). */
export function parseRoute(hash: string): Route | null {
  const path = hash.replace(/^#/, "");
  if (path === "" || path === "/") return HOME;
  if (!path.startsWith("/")) return null;
  const [first = "", ...rest] = path.slice(1).split("/");
  const view = (Object.keys(PATHS) as ViewKey[]).find((k) => PATHS[k] === decodeURIComponent(first));
  if (!view) return null;
  const doc = WITH_DOC.includes(view) && rest.length > 0 ? rest.map(decodeURIComponent).join("/") : null;
  return { view, doc };
}

/** The hash of a route. */
export function routeHash(route: Route): string {
  const doc = WITH_DOC.includes(route.view) && route.doc ? `/${route.doc}` : "";
  return `#/${PATHS[route.view]}${doc}`;
}

/**
 * The current route, and how to go to another. `mayLeave` is asked before any change (a
 * form with unsaved edits asks the owner); a change it refuses does not happen, and one made by
 * the browser's back button is undone.
 */
export function useRoute(mayLeave: (from: Route, to: Route) => boolean): [Route, (to: Route) => void] {
  const [route, setRoute] = useState<Route>(() => parseRoute(window.location.hash) ?? HOME);
  const go = useCallback(
    (to: Route) => {
      if (routeHash(to) === routeHash(route) || !mayLeave(route, to)) return;
      window.history.pushState(null, "", routeHash(to));
      setRoute(to);
    },
    [route, mayLeave],
  );
  useEffect(() => {
    const changed = () => {
      const to = parseRoute(window.location.hash);
      if (!to || routeHash(to) === routeHash(route)) return;
      if (mayLeave(route, to)) setRoute(to);
      else window.history.pushState(null, "", routeHash(route));
    };
    window.addEventListener("hashchange", changed);
    return () => window.removeEventListener("hashchange", changed);
  }, [route, mayLeave]);
  return [route, go];
}
