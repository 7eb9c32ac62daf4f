/**
 * Assets whose registration ended with an unknown outcome in this session. Registering one again could
 * buy it twice, so the button stays off until the person has checked and says so.
 */
import { useSyncExternalStore } from 'react';

const unknown = new Map<string, { at: number; reference: string | null }>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version++;
  for (const l of [...listeners]) l();
}

export function markUnknownRegistration(assetId: string | number, reference: string | null): void {
  unknown.set(String(assetId), { at: Date.now(), reference });
  changed();
}

export function clearUnknownRegistration(assetId: string | number): void {
  if (unknown.delete(String(assetId))) changed();
}

export function useUnknownRegistration(assetId: string | number): { at: number; reference: string | null } | null {
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => version,
  );
  return unknown.get(String(assetId)) ?? null;
}
