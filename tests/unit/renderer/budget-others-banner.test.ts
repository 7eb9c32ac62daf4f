/** The Budget view's "another consumer" banner names each shared endpoint with the others' rate against its own limit. */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../shared/endpoints';
import { othersPerEndpoint } from '../../../renderer/src/views/budget/others-banner';

describe('others banner', () => {
  it('names each endpoint with about its rate and its limit, never one sum over endpoints', () => {
    const text = othersPerEndpoint([
      { spec: ENDPOINTS.listAssets, limit: 20, othersRps: 18.04 },
      { spec: ENDPOINTS.assetHistory, limit: 10, othersRps: 6.5 },
      { spec: ENDPOINTS.categories, limit: 20, othersRps: 8.2 },
    ]);
    expect(text).toBe('GET /assets/list about 18/s of 20, POST /assets/history about 7/s of 10, GET /assets/categories about 8/s of 20');
    expect(text).not.toMatch(/32\.\d|33/);
  });

  it('keeps a decimal for a trickle, so that it does not read as none', () => {
    expect(othersPerEndpoint([{ spec: ENDPOINTS.listAssets, limit: 20, othersRps: 0.3 }])).toBe('GET /assets/list about 0.3/s of 20');
  });
});
