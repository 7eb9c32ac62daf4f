import { useEffect, useState } from 'react';

/** The current time, refreshed every `ms` (for countdowns); frozen when `running` is false. */
export function useNow(ms: number, running = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms, running]);
  return now;
}
