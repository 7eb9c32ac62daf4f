/**
 * Publishes the sticky head's height (top bar plus any app-wide banner) as --head-height, so that
 * sticky table headers, detail panels and scroll targets stop below it instead of under it.
 */
import { useCallback, useRef } from 'react';

export function useHeadHeight(): (el: HTMLElement | null) => void {
  const observer = useRef<ResizeObserver | null>(null);
  return useCallback((el: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!el) return;
    const publish = () => document.documentElement.style.setProperty('--head-height', `${Math.round(el.getBoundingClientRect().height)}px`);
    publish();
    observer.current = new ResizeObserver(publish);
    observer.current.observe(el);
  }, []);
}
