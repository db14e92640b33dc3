// Not loaded by any page. As an importer of everything the islands share (React, its JSX
// runtime and the hydrate helper) it makes esbuild put all of it in one shared chunk.
export { createElement } from "react";
export { jsx } from "react/jsx-runtime";
export { hydrateRoot } from "react-dom/client";
export { mountWith } from "./hydrate";
