/** When a connection event means the page's vendor data is another's: its cached catalog and purchases are dropped. */
import { describe, expect, it } from 'vitest';
import { pointsElsewhere } from '../../../renderer/src/live/use-live-wiring';
import type { Connection } from '../../../renderer/src/api/queries';

const staging: Connection = { state: 'connected', profileId: 'p1', vendor: 'acme', baseUrl: 'https://staging.example', demo: false, message: null };

describe('pointsElsewhere', () => {
  it('is another profile, or the same one edited to another vendor or service; not a state change of the same', () => {
    expect(pointsElsewhere(staging, { ...staging, profileId: 'p2' })).toBe(true);
    expect(pointsElsewhere(staging, { ...staging, baseUrl: 'https://partner.example' })).toBe(true);
    expect(pointsElsewhere(staging, { ...staging, vendor: 'globex' })).toBe(true);
    expect(pointsElsewhere(staging, { ...staging, state: 'offline', message: 'down' })).toBe(false);
  });
});
