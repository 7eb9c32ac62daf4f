/**
 * The one read notice: an answer read with a detected layout (a reviewed map that does not fit it)
 * offers Detect again in place, as the Catalog's notice does, and sends nobody to Settings; fields not
 * found keep the link to edit the map by hand as well.
 */
import { createElement } from 'react';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { AppContextProvider } from '../../../renderer/src/api/context';
import type { AppContextValue } from '../../../renderer/src/api/context';
import { keys } from '../../../renderer/src/api/queries';
import { ReadNotice } from '../../../renderer/src/components/ReadNotice';
import type { ReadInfo } from '../../../renderer/src/components/ReadNotice';

/** The notice for a connected (non-demo) profile; nothing is called while rendering. */
function render(info: ReadInfo): string {
  const queryClient = new QueryClient();
  queryClient.setQueryData(keys.connection, { profileId: 'p1', demo: false });
  const wrap = (children: ReactNode) =>
    createElement(
      QueryClientProvider,
      { client: queryClient },
      createElement(AppContextProvider, { value: { api: {} } as unknown as AppContextValue, children }),
    );
  return renderToStaticMarkup(wrap(createElement(ReadNotice, { info, what: 'download URL' })));
}

describe('ReadNotice', () => {
  it('an answer read with a detected layout: Detect again in place, no link to Settings', () => {
    const html = render({ notes: ['The link answer does not fit the service map: it was read with a detected layout (url.url) for this session.'] });
    expect(html).toContain('Read with a detected layout');
    expect(html).toContain('Detect again');
    expect(html).not.toContain('Open the service map in Settings');
  });

  it('fields not found: Detect again in place, and the link to edit the map by hand', () => {
    const html = render({ missing: ['url.expiry'], raw: { x: 1 } });
    expect(html).toContain('Detect again');
    expect(html).toContain('Open the service map in Settings');
  });
});
