import type { ReactNode } from 'react';

export type Tone = 'ok' | 'warn' | 'danger' | 'info' | 'neutral';

export function Pill({ tone = 'neutral', children, title }: { tone?: Tone; children: ReactNode; title?: string }) {
  return (
    <span className={`pill pill-${tone}`} title={title}>
      {children}
    </span>
  );
}

export function statusTone(status: number): Tone {
  if (status === 0) return 'danger';
  if (status === 429) return 'warn';
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
