// The browser side of every island: hydrate the prerendered HTML with the same props.
import { createElement, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";

// `idPrefix` is the identifierPrefix the island was prerendered with: the same one makes the
// same ids, and no two islands of a page share one.
export type Mount = (root: Element, props: unknown, idPrefix: string) => void;

export function mountWith<P extends object>(component: ComponentType<P>): Mount {
  return (root, props, idPrefix) => {
    hydrateRoot(root, createElement(component, props as P), { identifierPrefix: idPrefix });
  };
}
