/**
 * Picks the transport: the desktop preload's `window.partner` when present, else browser mode's
 * WebSocket. Either way the renderer gets the same PartnerApi (built from the contract).
 */
import { createPartnerBridge, toPartnerApi } from '../../../shared/bridge/api';
import type { PartnerApi } from '../../../shared/bridge/api';
import { WEB_BRIDGE_PATH, SECRET_FRAGMENT_KEY } from '../../../shared/bridge/websocket-protocol';
import { ALWAYS_OPEN } from './link-status';
import type { LinkSource } from './link-status';
import { takeSecret } from './secret';
import { bridgeAnswersHttp } from './server-probe';
import { WebSocketLink } from './websocket-link';

export interface BridgeConnection {
  api: PartnerApi;
  link: LinkSource;
  shell: 'desktop' | 'web';
}

export async function connectBridge(): Promise<BridgeConnection> {
  if (window.partner) return { api: toPartnerApi(window.partner), link: ALWAYS_OPEN, shell: 'desktop' };
  // Dev-only fake data (`?fake`), compiled out of production builds.
  if (import.meta.env.DEV && new URLSearchParams(window.location.search).has('fake')) {
    const { createFakeBridge } = await import('../dev/fake-bridge');
    return { api: toPartnerApi(createFakeBridge()), link: ALWAYS_OPEN, shell: 'web' };
  }
  const secret = takeSecret();
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = secret ? `?${SECRET_FRAGMENT_KEY}=${encodeURIComponent(secret)}` : '';
  const link = new WebSocketLink({
    url: `${protocol}//${window.location.host}${WEB_BRIDGE_PATH}${query}`,
    // Tells a refused secret from a stopped server (both close the socket before it opens).
    serverAnswers: () => bridgeAnswersHttp(`${window.location.origin}${WEB_BRIDGE_PATH}`),
  });
  link.start();
  const bridge = createPartnerBridge(link.invoke, link.on, link.cancel);
  return { api: toPartnerApi(bridge), link, shell: 'web' };
}
