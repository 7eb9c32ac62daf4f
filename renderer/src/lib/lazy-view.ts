/**
 * React.lazy for a view whose chunk may fail to load (offline): lazy() keeps a failed import for good,
 * so `retry` starts a fresh one for the next render (the view's error boundary calls it on reset).
 * The browser keeps a failed module fetch for good as well (Chromium does, as the HTML standard's
 * module map says): a retry imports the chunk the failure names under a query of its own, which is
 * another module to the browser and fetched anew (the app's servers serve files by path alone); the
 * chunks it imports in turn are the ones already loaded.
 */
import { createElement, lazy } from 'react';
import type { ComponentType } from 'react';

type ViewModule<P> = { default: ComponentType<P> };

/** The module URL a failed dynamic import names (Chromium and Firefox name it; Safari does not), without its query. */
export function failedChunkUrl(error: unknown): string | null {
  const message = error instanceof Error ? error.message : '';
  return /\b((?:https?|app|file):\/\/[^\s'"?#]+\.m?js)\b/.exec(message)?.[1] ?? null;
}

export function lazyView<P extends object>(load: () => Promise<ViewModule<P>>): { View: ComponentType<P>; retry: () => void } {
  let failed = false;
  let failedUrl: string | null = null;
  let retries = 0;
  const guarded = () =>
    (failedUrl === null ? load() : (import(/* @vite-ignore */ `${failedUrl}?retry=${retries}`) as Promise<ViewModule<P>>)).catch((e: unknown) => {
      failed = true;
      failedUrl = failedChunkUrl(e) ?? failedUrl;
      throw e;
    });
  let Lazy = lazy(guarded);
  return {
    View: (props: P) => createElement(Lazy, props),
    retry: () => {
      if (!failed) return;
      failed = false;
      retries++;
      Lazy = lazy(guarded);
    },
  };
}
