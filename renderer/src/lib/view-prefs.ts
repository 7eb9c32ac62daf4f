/**
 * Per-view preferences (ranges, hidden endpoints, table columns and sort) remembered in localStorage.
 * Each value is checked by its zod schema when read: a stale or hand-edited entry falls back to the
 * default instead of breaking the view.
 */
import { useCallback, useState } from 'react';
import type { z } from 'zod';

const PREFIX = 'partner-console.prefs.';

function storageKey(view: string, key: string): string {
  return `${PREFIX}${view}.${key}`;
}

export function readPref<T>(view: string, key: string, schema: z.ZodType<T>, fallback: T): T {
  try {
    const raw = window.localStorage.getItem(storageKey(view, key));
    if (raw === null) return fallback;
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback; // storage blocked or not JSON
  }
}

export function writePref(view: string, key: string, value: unknown): void {
  try {
    if (value === undefined) window.localStorage.removeItem(storageKey(view, key));
    else window.localStorage.setItem(storageKey(view, key), JSON.stringify(value));
  } catch {
    // Storage full or blocked: the preference lasts for this page only.
  }
}

/** Like useState, remembered per view. */
export function usePref<T>(view: string, key: string, schema: z.ZodType<T>, fallback: T): [T, (next: T | ((previous: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => readPref(view, key, schema, fallback));
  const set = useCallback(
    (next: T | ((previous: T) => T)) => {
      setValue((previous) => {
        const resolved = typeof next === 'function' ? (next as (p: T) => T)(previous) : next;
        writePref(view, key, resolved);
        return resolved;
      });
    },
    [view, key],
  );
  return [value, set];
}
