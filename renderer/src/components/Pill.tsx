import type { ReactNode } from 'react';

/** 'limit' (429) and 'conflict' (409) have colours of their own: they call for different actions. */
export type Tone = 'ok' | 'warn' | 'danger' | 'info' | 'neutral' | 'limit' | 'conflict';

export function Pill({ tone = 'neutral', children, title }: { tone?: Tone; children: ReactNode; title?: string }) {
  return (
    <span className={`pill pill-${tone}`} title={title}>
      {children}
    </span>
  );
}

export function statusTone(status: number): Tone {
  if (status === 0) return 'danger';
  if (status === 429) return 'limit';
  if (status === 409) return 'conflict';
  if (status >= 500) return 'danger';
  if (status >= 400) return 'warn';
  if (status >= 200 && status < 300) return 'ok';
  return 'neutral';
}

export function purchaseTone(state: string): Tone {
  if (state === 'validated') return 'ok';
  if (state === 'registered') return 'info';
  if (state === 'cancelled') return 'neutral';
  return 'warn';
}
