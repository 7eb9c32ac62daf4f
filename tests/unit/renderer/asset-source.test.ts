import { describe, expect, it } from 'vitest';
import type { AssetSource, SourcedAsset } from '../../../renderer/src/views/catalog/asset-source';
import { assetInDetail, isFromShownProfile, rowsSourceOf, scopeOf, sourceOf } from '../../../renderer/src/views/catalog/asset-source';

const demo: AssetSource = { profileId: 'demo', vendor: 'demo', baseUrl: 'http://127.0.0.1:1' };
const acme: AssetSource = { profileId: 'demo-acme', vendor: 'acme', baseUrl: 'http://127.0.0.1:2' };
const demoRows = [
  { id: 7, title: 'Demo seven', price: 12 },
  { id: 8, title: 'Demo eight', price: 3 },
];

describe('sourceOf', () => {
  it('is the connected profile with its vendor, or null while none is', () => {
    expect(sourceOf({ state: 'connected', profileId: 'demo', vendor: 'demo', baseUrl: demo.baseUrl, demo: true, message: null })).toEqual(demo);
    expect(sourceOf({ state: 'offline', profileId: null, vendor: null, baseUrl: null, demo: false, message: 'No profile is selected.' })).toBeNull();
    expect(sourceOf(undefined)).toBeNull();
  });
});

describe('an opened asset keeps the profile it was read from', () => {
  const opened: SourcedAsset = { asset: demoRows[0]!, source: demo };

  it("after another page switches the connection to acme, the detail is still demo's asset, and its actions are off", () => {
    // acme's rows hold an asset with the same id: it must not replace demo's, nor take its place under acme.
    const acmeRows = [{ id: 7, title: 'Acme seven', price: 99 }];
    const detail = assetInDetail(opened, '7', acmeRows, rowsSourceOf(acme, acme), acme);
    expect(detail).toBe(opened);
    expect(detail!.source.profileId).toBe('demo');
    expect(isFromShownProfile(detail!, acme)).toBe(false);
    expect(isFromShownProfile(detail!, null)).toBe(false);
  });

  it('acts again once the page shows its profile again', () => {
    expect(isFromShownProfile(opened, demo)).toBe(true);
    expect(isFromShownProfile(opened, { ...demo })).toBe(true);
  });

  it('acts no more once its profile was edited to point at another service or vendor, and names where it pointed in its calls', () => {
    expect(isFromShownProfile(opened, { ...demo, baseUrl: 'https://partner.example' })).toBe(false);
    expect(isFromShownProfile(opened, { ...demo, vendor: 'acme' })).toBe(false);
    expect(scopeOf(demo)).toEqual({ profileId: 'demo', shownAt: { vendor: 'demo', baseUrl: demo.baseUrl } });
    expect(scopeOf({ profileId: 'demo', vendor: null, baseUrl: null })).toEqual({ profileId: 'demo' });
    expect(() => scopeOf(undefined)).toThrow(/No vendor profile is connected/);
  });

  it('a route to another id shows that asset at the shown profile; no route, no detail', () => {
    expect(assetInDetail(opened, '8', demoRows, demo, demo)).toEqual({ asset: demoRows[1], source: demo });
    expect(assetInDetail(opened, null, demoRows, demo, demo)).toBeNull();
  });
});

describe('assets opened by the route alone', () => {
  it('take the shown profile, and no profile at all while none is connected', () => {
    expect(assetInDetail(null, '8', demoRows, demo, demo)).toEqual({ asset: demoRows[1], source: demo });
    expect(assetInDetail(null, '42', demoRows, demo, demo)).toEqual({ asset: { id: '42' }, source: demo });
    expect(assetInDetail(null, '42', [], null, null)).toBeNull();
  });

  it('keep ids past 2^53 as the service wrote them', () => {
    expect(assetInDetail(null, '9007199254740993', [], null, demo)!.asset.id).toBe('9007199254740993');
  });

  it('keep the id exactly as spelt: "00042" is not asset 42 (main sends it in the kind the service wrote)', () => {
    expect(assetInDetail(null, '00042', [], demo, demo)!.asset.id).toBe('00042');
  });

  it('a bare id becomes its row when rows of the same profile hold it, never a row of another profile', () => {
    const bare: SourcedAsset = { asset: { id: 8 }, source: demo };
    expect(assetInDetail(bare, '8', demoRows, demo, demo)).toEqual({ asset: demoRows[1], source: demo });
    const acmeRows = [{ id: 8, title: 'Acme eight' }];
    expect(assetInDetail(bare, '8', acmeRows, acme, acme)).toBe(bare);
  });
});

describe('rowsSourceOf', () => {
  it("rows still on screen from the previous profile, or read before their profile was edited, are nobody's to open", () => {
    expect(rowsSourceOf({ ...demo }, demo)).toBe(demo);
    expect(rowsSourceOf(demo, acme)).toBeNull();
    expect(rowsSourceOf(undefined, demo)).toBeNull();
    expect(rowsSourceOf(demo, null)).toBeNull();
    // The same profile id, edited to point at another service: its old rows are not the new service's assets.
    expect(rowsSourceOf(demo, { ...demo, baseUrl: 'https://partner.example' })).toBeNull();
    expect(rowsSourceOf(demo, { ...demo, vendor: 'acme' })).toBeNull();
  });
});
