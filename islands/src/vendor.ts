// Not loaded by any public page. As an importer of everything the islands share (React, its JSX
// runtime and the hydrate helper) it makes esbuild put all of it in one shared chunk; and it is
// where the signed-in panel, a build of its own (build.mjs), takes React from: every name the
// panel imports from React is exported here, or the panel's build fails.
export {
  createElement,
  Fragment,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
export { jsx, jsxs } from "react/jsx-runtime";
export { createPortal, flushSync } from "react-dom";
export { createRoot, hydrateRoot } from "react-dom/client";
export { mountWith } from "./hydrate";
