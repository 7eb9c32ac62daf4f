/** The Overview's links: `#/budget/endpoint=<id>` opens the Budget view at one endpoint; anything else is ignored, never a throw. */
import { describe, expect, it } from 'vitest';
import { ENDPOINT_IDS } from '../../../shared/endpoints';
import { endpointParam, parseRoute, routeHref } from '../../../renderer/src/lib/hash-route';

describe('route endpoint', () => {
  it('reads every endpoint a cell links to, through the href the app writes', () => {
    for (const id of ENDPOINT_IDS) {
      const route = parseRoute(routeHref('budget', endpointParam(id)));
      expect(route).toEqual({ view: 'budget', param: `endpoint=${id}`, at: null, endpoint: id });
    }
  });

  it('ignores an unknown or malformed endpoint, and keeps at= working beside it', () => {
    for (const bad of [
      'endpoint=',
      'endpoint=nope',
      'endpoint=listAssets&x=1',
      'endpoint=ListAssets',
      'endpoint=%E0%A4%A',
      'listAssets',
      'endpoint=__proto__',
    ]) {
      const route = parseRoute(`#/budget/${bad}`);
      expect(route.endpoint, bad).toBeNull();
      expect(route.view).toBe('budget');
    }
    expect(parseRoute('#/budget/at=1700000000000')).toMatchObject({ at: 1_700_000_000_000, endpoint: null });
    expect(parseRoute('#/budget').endpoint).toBeNull();
  });

  it('knows the Overview as a view of its own', () => {
    expect(parseRoute('#/overview')).toEqual({ view: 'overview', param: null, at: null, endpoint: null });
    expect(routeHref('overview')).toBe('#/overview');
  });
});
