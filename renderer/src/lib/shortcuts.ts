/**
 * Keyboard shortcuts: which key does what (a pure table, listed in the `?` overlay), and the hook that
 * performs them. Views opt in by marking elements: data-shortcut="search" (an input), "live" (the
 * Live/Pause button) and "range" (the group of time-range buttons).
 */
import { useEffect, useRef } from 'react';
import type { ViewId } from './hash-route';
import { NAV_ITEMS } from './nav';

export type ShortcutAction = { kind: 'view'; view: ViewId } | { kind: 'search' } | { kind: 'live' } | { kind: 'range'; step: -1 | 1 } | { kind: 'help' };

/** The views in the header's order: digit n opens the n-th. */
const NAV_VIEWS: readonly ViewId[] = NAV_ITEMS.map((n) => n.view);

/** g then a letter opens a view: its first letter not taken by an earlier view (o, b, c, p, r, a, u, s). */
const GO_KEYS: Record<string, ViewId> = {};
for (const view of NAV_VIEWS) {
  const letter = [...view].find((l) => !(l in GO_KEYS));
  if (letter) GO_KEYS[letter] = view;
}
const goKeyOf = (view: ViewId) => Object.keys(GO_KEYS).find((k) => GO_KEYS[k] === view);

/** The overlay's list, in the order shown. */
export const SHORTCUT_LIST: { keys: string[]; what: string }[] = [
  ...NAV_ITEMS.map(({ view, label }, i) => ({
    keys: [...(i < 9 ? [String(i + 1)] : []), ...(goKeyOf(view) ? [`g ${goKeyOf(view)}`] : [])],
    what: `Open ${label}`,
  })),
  { keys: ['/'], what: 'Search in this view' },
  { keys: ['Space'], what: 'Live / Pause' },
  { keys: ['['], what: 'Shorter time range' },
  { keys: [']'], what: 'Longer time range' },
  { keys: ['↑', '↓', 'Home', 'End'], what: 'Move between table rows' },
  { keys: ['Enter'], what: 'Open the row’s detail' },
  { keys: ['Esc'], what: 'Close a detail or this list' },
  { keys: ['?'], what: 'Show this list' },
];

/** The action for a key press, given the key pressed just before (for "g b"); null when none. */
export function shortcutFor(key: string, previous: string | null): ShortcutAction | null {
  const go = previous === 'g' ? GO_KEYS[key] : undefined;
  if (go) return { kind: 'view', view: go };
  const index = Number(key);
  if (/^[1-9]$/.test(key) && index <= NAV_VIEWS.length) return { kind: 'view', view: NAV_VIEWS[index - 1]! };
  if (key === '/') return { kind: 'search' };
  if (key === ' ') return { kind: 'live' };
  if (key === '[') return { kind: 'range', step: -1 };
  if (key === ']') return { kind: 'range', step: 1 };
  if (key === '?') return { kind: 'help' };
  return null;
}

/**
 * Typing in a field, or in an open dialog, is not a shortcut. A control of a dialog just closed keeps focus until
 * the browser's focus fixup runs, so a key pressed at once still names it: that key is the page's.
 */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.closest('dialog[open]') !== null;
}

/** A focused button or row takes Space itself (not one left focused in a closed dialog). */
const ownsSpace = (target: HTMLElement) =>
  target.closest('dialog:not([open])') === null && target.closest('button, a, summary, tr[tabindex], [role="button"]') !== null;

function perform(action: ShortcutAction, go: (view: ViewId) => void, help: () => void): boolean {
  const main = document.querySelector('main') ?? document.body;
  switch (action.kind) {
    case 'view':
      go(action.view);
      return true;
    case 'help':
      help();
      return true;
    case 'search': {
      const field = main.querySelector<HTMLInputElement>('[data-shortcut="search"], input[type="search"]');
      field?.focus();
      field?.select();
      return field !== null;
    }
    case 'live': {
      const button = main.querySelector<HTMLButtonElement>('[data-shortcut="live"], button.btn-live, button[aria-pressed="true"].btn:not(.btn-live)');
      button?.click();
      return button !== null;
    }
    case 'range': {
      const group = main.querySelector('[data-shortcut="range"], [role="group"][aria-label="Time range"]');
      const buttons = group ? [...group.querySelectorAll<HTMLButtonElement>('button')] : [];
      const at = buttons.findIndex((b) => b.getAttribute('aria-pressed') === 'true');
      const next = buttons[Math.min(buttons.length - 1, Math.max(0, at + action.step))];
      next?.click();
      return next !== undefined;
    }
  }
}

export function useShortcuts(go: (view: ViewId) => void, help: () => void): void {
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || isTyping(e.target)) return;
      // Space on a focused button or row is that control's own; elsewhere it is Live/Pause.
      if (e.key === ' ' && e.target instanceof HTMLElement && ownsSpace(e.target)) return;
      const action = shortcutFor(e.key, previous.current);
      previous.current = e.key === 'g' && previous.current !== 'g' ? 'g' : null;
      if (action && perform(action, go, help)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, help]);
}
