// A small store: one state, changed only by a reducer, which components read with `useStore`.
// The panel keeps what its views share here (the pages and their edits, the pictures), so a
// view can close and open again without losing an edit.
import { useSyncExternalStore } from "react";

export interface Store<S, A> {
  get: () => S;
  dispatch: (action: A) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createStore<S, A>(reduce: (state: S, action: A) => S, initial: S): Store<S, A> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    dispatch: (action) => {
      const next = reduce(state, action);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The store's state, read again whenever it changes. */
export function useStore<S, A>(store: Store<S, A>): S {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
