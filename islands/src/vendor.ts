// Not loaded by any page: as a second importer of React it makes esbuild put React in one
// shared chunk, even while only one island exists.
export { createElement } from "react";
export { hydrateRoot } from "react-dom/client";
