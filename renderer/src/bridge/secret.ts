/**
 * Browser mode's secret rides in the URL fragment (`#secret=S`, never sent to a server log). The
 * fragment is also the router's, so the secret is taken out of it once and kept for this tab only
 * (sessionStorage), which lets a reload keep both the view and the connection.
 */
import { SECRET_FRAGMENT_KEY } from '../../../shared/bridge/websocket-protocol';

const STORAGE_KEY = 'partner-console.secret';

/** Reads the secret from the fragment (then strips it) or from this tab's storage. */
export function takeSecret(loc: Location = window.location, storage: Storage | null = safeSessionStorage()): string | null {
  const pattern = new RegExp(`(?:^#|[#&?])${SECRET_FRAGMENT_KEY}=([^&]*)`);
  const match = pattern.exec(loc.hash);
  if (match && match[1]) {
    const secret = decodeOrRaw(match[1]);
    storage?.setItem(STORAGE_KEY, secret);
    const rest = loc.hash.replace(pattern, '').replace(/^#[&?]?/, '#');
    const route = rest.startsWith('#/') ? rest : '#/budget';
    history.replaceState(null, '', `${loc.pathname}${loc.search}${route}`);
    return secret;
  }
  return storage?.getItem(STORAGE_KEY) ?? null;
}

/** A mangled %-sequence must not stop the page from starting: the server then refuses it, which the link reports. */
function decodeOrRaw(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function safeSessionStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
