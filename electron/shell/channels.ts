/**
 * Names the desktop shell's two sides agree on: the custom scheme the app is served from and the
 * IPC channel of every contract call and event. Pure (no electron import) so the preload, the main
 * process and the tests all read the same strings.
 */
import type { CallName, EventName } from '../../shared/bridge/contract';

/** The app's files are served from app://partner/… (a standard, secure scheme), never file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'partner';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export const CALL_CHANNEL_PREFIX = 'partner:call:';
export const EVENT_CHANNEL_PREFIX = 'partner:event:';
/** One-way message from the page: it no longer wants call <callId>. */
export const CANCEL_CHANNEL = 'partner:cancel';

export function callChannel(name: CallName): string {
  return CALL_CHANNEL_PREFIX + name;
}

export function eventChannel(name: EventName): string {
  return EVENT_CHANNEL_PREFIX + name;
}

/**
 * The origin of a URL as scheme://host[:port]. WHATWG URL reports "null" as the origin of
 * non-special schemes such as app://, so it cannot be used for our own scheme.
 */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}
