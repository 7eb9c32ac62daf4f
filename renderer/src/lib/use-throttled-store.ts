import { startTransition, useEffect, useState } from 'react';

export interface VersionedStore {
  readonly version: number;
  subscribe(listener: () => void): () => void;
}

/**
 * Re-renders at most once per `ms` when the store changes (live samples arrive ~20 times a
 * second; the screen does not need more). The update is a transition so that React can slice
 * a heavy chart render instead of blocking input. Returns the version seen.
 */
export function useThrottledStore(store: VersionedStore, ms: number, running = true): number {
  const [version, setVersion] = useState(store.version);
  useEffect(() => {
    if (!running) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      startTransition(() => setVersion(store.version));
    };
    flush();
    const unsubscribe = store.subscribe(() => {
      if (timer === null) timer = setTimeout(flush, ms);
    });
    return () => {
      unsubscribe();
      if (timer !== null) clearTimeout(timer);
    };
  }, [store, ms, running]);
  return version;
}
