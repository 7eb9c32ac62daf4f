/** A learned patch carries only the names a session's 400s changed, and lands on whatever map holds now. */
import { describe, expect, it } from 'vitest';
import { detectPurchase } from '../../shared/service-map/detect';
import { learnFrom400 } from '../../shared/service-map/learn';
import { applyLearnedPatch, learnedPatch, mergePatches, namesOnly } from '../../shared/service-map/learned-patch';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

const base = DEFAULT_SERVICE_MAP;

describe('learned patch', () => {
  it('nothing changed: no patch', () => {
    expect(learnedPatch(base, { ...base, learned: ['register.assetIdField'] })).toBeNull();
  });

  it('carries only the learned name onto another map, marked learned, every other field of that map kept', () => {
    const learned = learnFrom400(base, 'register.assetIdField', 'Missing required field: assetId')!;
    const patch = learnedPatch(base, learned)!;
    expect(patch).toEqual({ registerAssetIdField: 'assetId' });
    const other: ServiceMap = {
      ...base,
      asset: { ...base.asset, title: 'name' },
      register: { ...base.register, referenceField: 'ref' },
      learned: ['purchaseId'],
    };
    const applied = applyLearnedPatch(other, patch);
    expect(applied).toEqual({ ...other, register: { assetIdField: 'assetId', referenceField: 'ref' }, learned: ['purchaseId', 'register.assetIdField'] });
  });

  it('a purchase id moves only the calls the 400 changed; later patches win over earlier ones', () => {
    const own: ServiceMap = { ...base, purchaseId: { ...base.purchaseId, cancelPurchase: { in: 'body', name: 'order' } } };
    const learned = learnFrom400(own, 'purchaseId', 'Missing required field: purchaseId', 'purchaseInfo')!;
    const patch = learnedPatch(own, learned)!;
    expect(Object.keys(patch.purchaseId!).sort()).toEqual(['downloadUrl', 'purchaseInfo', 'viewUrl']);
    const user: ServiceMap = { ...base, purchaseId: { ...base.purchaseId, cancelPurchase: { in: 'query', name: 'mine' } } };
    expect(applyLearnedPatch(user, patch).purchaseId.cancelPurchase).toEqual({ in: 'query', name: 'mine' });
    const merged = mergePatches(
      { registerAssetIdField: 'a', purchaseId: { viewUrl: { in: 'body', name: 'x' } } },
      { registerAssetIdField: 'b', purchaseId: { cancelPurchase: { in: 'body', name: 'y' } } },
    );
    expect(merged).toEqual({ registerAssetIdField: 'b', purchaseId: { viewUrl: { in: 'body', name: 'x' }, cancelPurchase: { in: 'body', name: 'y' } } });
  });

  it('a layout detected from a real answer: its sections onto the current map, not marked learned; a reviewed map takes only the names', () => {
    const detected = detectPurchase({ data: { id: 'p_1', attributes: { state: 'registered' }, relationships: { asset: { data: { id: '4' } } } } }, base).map;
    const patch = learnedPatch(base, detected)!;
    expect(patch.layout?.purchase).toMatchObject({ at: 'data', id: 'id', state: 'attributes.state', asset: 'relationships.asset.data.id' });
    expect(patch.registerAssetIdField).toBeUndefined();
    const current: ServiceMap = { ...base, asset: { ...base.asset, title: 'name' }, learned: ['purchaseId'] };
    expect(applyLearnedPatch(current, patch)).toEqual({ ...current, purchase: detected.purchase, states: detected.states });
    expect(namesOnly(patch)).toBeNull();
    const both = mergePatches({ registerAssetIdField: 'assetId' }, patch);
    expect(namesOnly(both)).toEqual({ registerAssetIdField: 'assetId' });
    const history = { ...base, history: { ...base.history, points: 'data' }, historyPoint: { ...base.historyPoint, time: 'ts' } };
    expect(applyLearnedPatch(current, learnedPatch(base, history)!)).toEqual({
      ...current,
      history: { ...current.history, points: 'data' },
      historyPoint: history.historyPoint,
    });
  });
});
