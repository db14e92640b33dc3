// The browser side of every island: hydrate the prerendered HTML with the same props.
import { createElement, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";

export type Mount = (root: Element, props: unknown) => void;

export function mountWith<P extends object>(component: ComponentType<P>): Mount {
  return (root, props) => {
    hydrateRoot(root, createElement(component, props as P));
  };
}
