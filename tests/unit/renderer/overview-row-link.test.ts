/**
 * The Overview row, rendered whole: while the link to the services is down it says Offline, as the
 * header does, and gives the link's reason, not the last message the profile reported before it.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PartnerApi } from '../../../shared/bridge/api';
import type { LinkSource, LinkStatus } from '../../../renderer/src/bridge/link-status';
import { AppContextProvider } from '../../../renderer/src/api/context';
import { BudgetSeconds } from '../../../renderer/src/live/budget-seconds';
import { RequestLogStore } from '../../../renderer/src/live/request-log-store';
import { OverviewGrid } from '../../../renderer/src/views/overview/OverviewGrid';
import type { ConnectedProfile } from '../../../renderer/src/views/overview/session-queries';

const profile: ConnectedProfile = {
  profileId: 'p1',
  name: 'Acme staging',
  vendor: 'acme',
  baseUrl: 'https://partner.example/api',
  demo: false,
  active: true,
  connection: {
    state: 'degraded',
    profileId: 'p1',
    vendor: 'acme',
    baseUrl: 'https://partner.example/api',
    demo: false,
    message: 'Rate limited on /assets/list',
    causes: ['rate-limited'],
  },
};

function rowHtml(link: LinkStatus): string {
  const source: LinkSource = { get: () => link, subscribe: () => () => undefined, retryNow: () => undefined };
  // No call is made while rendering on the server (queries start in effects); any that were would fail loudly.
  const api = new Proxy({}, { get: (_, name) => () => Promise.reject(new Error(`unexpected call ${String(name)}`)) }) as PartnerApi;
  const grid = createElement(OverviewGrid, { profiles: [profile], firing: [], now: Date.now(), opening: null, onOpen: () => undefined });
  return renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client: new QueryClient() },
      createElement(AppContextProvider, {
        value: { api, link: source, shell: 'web', budget: new BudgetSeconds(), log: new RequestLogStore() },
        children: grid,
      }),
    ),
  );
}

describe('the Overview row and the link to the services', () => {
  it('the link down: Offline with the link\u2019s reason, never the profile\u2019s last words', () => {
    const html = rowHtml({ state: 'offline', retryAt: null, problem: 'The app\u2019s services stopped answering', refused: false });
    expect(html).toContain('ov-row-away');
    expect(html).toContain('>Offline<');
    expect(html).toContain('The app’s services stopped answering');
    expect(html).not.toContain('Rate limited on /assets/list');
  });

  it('the link open: the profile\u2019s own state and words', () => {
    const html = rowHtml({ state: 'open', retryAt: null, problem: null, refused: false });
    expect(html).not.toContain('ov-row-away');
    expect(html).not.toContain('>Offline<');
  });
});
