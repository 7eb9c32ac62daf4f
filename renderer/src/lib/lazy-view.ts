/**
 * React.lazy for a view whose chunk may fail to load (offline): lazy() keeps a failed import for good,
 * so `retry` starts a fresh one for the next render (the view's error boundary calls it on reset).
 */
import { createElement, lazy } from 'react';
import type { ComponentType } from 'react';

export function lazyView<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): { View: ComponentType<P>; retry: () => void } {
  let failed = false;
  const guarded = () =>
    load().catch((e: unknown) => {
      failed = true;
      throw e;
    });
  let Lazy = lazy(guarded);
  return {
    View: (props: P) => createElement(Lazy, props),
    retry: () => {
      if (!failed) return;
      failed = false;
      Lazy = lazy(guarded);
    },
  };
}
