/** The purchase ledger on a real SQLite file: write-ahead, answers, the guard, recovery, listing. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Sqlite from 'better-sqlite3';
import { LocalStore, STORE_FILE_NAME, registerWithLedger } from '../../electron/store';
import { SENDING_AT_MOST_MS } from '../../electron/store/ledger';
import type { PurchaseLedger, SeenPurchase } from '../../electron/store';
import { confirmationName } from '../../shared/bridge/ledger-schemas';
import { PartnerError } from '../../shared/errors';
import type { ErrorCode } from '../../shared/errors';
import { errorOf } from '../../electron/client/testing';

let dir: string;
const stores: LocalStore[] = [];
let clock = 1_000;
const target = { vendor: 'acme', baseUrl: 'https://partner.example', profileId: 'prof-1' };

function open(options: { pid?: number; alive?: (pid: number) => boolean; redact?: (t: string) => string } = {}): PurchaseLedger {
  const store = new LocalStore(dir, { now: () => clock++, ...options });
  stores.push(store);
  return store.ledger();
}

const bought = (id: string, asset: number | string, reference?: string, state = 'registered'): SeenPurchase => ({
  id,
  asset_id: asset,
  state,
  ...(reference ? { client_reference: reference } : {}),
});
const refusal = (code: ErrorCode) => new PartnerError({ code, message: `${code} from the service`, retryable: false });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-'));
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('write-ahead and answers', () => {
  it('a resend of an unknown intent (its key) that the service refuses stays unknown, whatever the 4xx: the first send may have bought it', async () => {
    const ledger = open();
    const lost = await errorOf(registerWithLedger(ledger, { target, asset: { id: 5, title: null }, send: () => Promise.reject(refusal('UNKNOWN_OUTCOME')) }));
    expect(lost.code).toBe('UNKNOWN_OUTCOME');
    const [unknown] = ledger.list({ limit: 5 });
    for (const [code, status] of [
      ['BAD_REQUEST', 400],
      ['NOT_FOUND', 404],
      ['CONFLICT', 409],
      ['BAD_REQUEST', 422],
      ['RATE_LIMITED', 429],
      ['CANCELLED', undefined],
      ['NETWORK', undefined],
    ] as const) {
      const refused = new PartnerError({ code, status, message: `${status} from the service`, retryable: false });
      await errorOf(
        registerWithLedger(ledger, { target, asset: { id: '5', title: null }, seen: [confirmationName(unknown!)], send: () => Promise.reject(refused) }),
      );
      const [record] = ledger.list({ limit: 5 });
      expect(record).toMatchObject({ id: unknown!.id, state: 'unknown', reference: unknown!.reference });
      expect(record!.note).toMatch(/may already have bought it|still in progress or already done/);
      if (status === undefined) expect(record!.note).toMatch(/^This resend was not sent/);
    }
    // Still blocking: a Register without confirmation is asked to confirm.
    expect((await errorOf(registerWithLedger(ledger, { target, asset: { id: 5, title: null }, send: async (ref) => bought('p_2', 5, ref) }))).code).toBe(
      'CONFIRMATION_REQUIRED',
    );
  });

  it('records the registration before it is sent, then its purchase; both survive a reopen', async () => {
    const ledger = open();
    let seenBeforeSend: unknown = null;
    const purchase = await registerWithLedger(ledger, {
      target,
      asset: { id: 7, title: 'Seven' },
      send: async (reference) => {
        // The record is already committed: another connection to the file sees it.
        const other = new Sqlite(join(dir, STORE_FILE_NAME), { readonly: true });
        seenBeforeSend = other.prepare('SELECT state, asset_id, reference, purchase_id FROM purchase_ledger').all();
        other.close();
        return bought('p_7', 7, reference);
      },
    });
    expect(seenBeforeSend).toEqual([{ state: 'sending', asset_id: '7', reference: purchase.client_reference, purchase_id: null }]);
    stores.splice(0).forEach((s) => s.close());
    expect(open().list({ limit: 5 })).toEqual([
      expect.objectContaining({
        vendor: 'acme',
        baseUrl: 'https://partner.example',
        profileId: 'prof-1',
        assetTitle: 'Seven',
        purchaseId: 'p_7',
        state: 'registered',
        purchaseState: 'registered',
      }),
    ]);
  });

  it('marks a definite refusal failed and anything else unknown (tokens masked in what it keeps)', async () => {
    const ledger = open({ redact: (t) => t.replaceAll('sekret-token', '«token»') });
    const outcomes: Record<string, string> = {};
    for (const [i, code] of (
      ['BAD_REQUEST', 'RATE_LIMITED', 'CONFLICT', 'CANCELLED', 'UNKNOWN_OUTCOME', 'TIMEOUT', 'NETWORK', 'INTERNAL'] as const
    ).entries()) {
      const err = await errorOf(registerWithLedger(ledger, { target, asset: { id: 100 + i, title: null }, send: () => Promise.reject(refusal(code)) }));
      expect(err.code).toBe(code);
      outcomes[code] = ledger.blockers(target, 100 + i)[0]?.state ?? 'failed';
    }
    expect(outcomes).toEqual({
      BAD_REQUEST: 'failed',
      RATE_LIMITED: 'failed',
      CONFLICT: 'failed',
      // The client cancels only what it has not sent.
      CANCELLED: 'failed',
      UNKNOWN_OUTCOME: 'unknown',
      TIMEOUT: 'unknown',
      // A registration's NETWORK: the connection or the service's certificate refused, before anything was sent.
      NETWORK: 'failed',
      INTERNAL: 'unknown',
    });
    // A 2xx whose purchase could not be read may have bought it: unknown, raw kept with the token masked.
    await registerWithLedger(ledger, {
      target,
      asset: { id: 200, title: null },
      send: async (reference) => ({
        id: '',
        asset_id: 200,
        state: '',
        client_reference: reference,
        unresolved: true,
        raw: { created_by_token: 'sekret-token' },
      }),
    });
    const [unreadable] = ledger.blockers(target, 200);
    expect(unreadable).toMatchObject({ state: 'unknown', note: expect.stringContaining('could not be read') });
    const raw = new Sqlite(join(dir, STORE_FILE_NAME), { readonly: true });
    expect(raw.prepare('SELECT raw FROM purchase_ledger WHERE asset_id = ?').get('200')).toEqual({ raw: '{"created_by_token":"«token»"}' });
    raw.close();
  });
});

describe("another asset's record", () => {
  it('is never deleted or rewritten by a registration answered with its purchase: that registration stays unresolved', () => {
    const ledger = open();
    const a = ledger.recordSeen(target, bought('P-1', 7, 'ref-a'), 'A');
    for (const answer of [bought('P-1', 8), { ...bought('P-1', 7), asset_id: null }, bought('P-1', 7)]) {
      const b = ledger.beginRegistration(target, { id: 8, title: 'B' }, `ref-b-${String(answer.asset_id)}-${clock}`);
      const settled = ledger.finishRegistration(b.id, answer);
      expect(settled).toMatchObject({ state: 'unknown', purchaseId: null, assetId: '8' });
      expect(settled.note).toMatch(/not recorded here/);
      ledger.markChecked(b.id);
    }
    // Nor by an answer seen later that names another asset for its purchase id or its reference.
    ledger.recordSeen(target, bought('P-1', 9, 'ref-x'));
    ledger.recordSeen(target, bought('P-2', 9, 'ref-a'));
    expect(ledger.get(a.id)).toMatchObject({ state: 'registered', purchaseId: 'P-1', assetId: '7', reference: 'ref-a' });
    expect(ledger.blockers(target, 7)).toHaveLength(1);
  });
});

describe('the guard', () => {
  it('refuses without confirmation, names the records, and needs every one of them named', async () => {
    const ledger = open();
    const first = await registerWithLedger(ledger, { target, asset: { id: 5, title: 'Five' }, send: async (ref) => bought('p_5', 5, ref) });
    const refused = await errorOf(registerWithLedger(ledger, { target, asset: { id: 5, title: 'Five' }, send: async (ref) => bought('p_x', 5, ref) }));
    expect(refused.code).toBe('CONFIRMATION_REQUIRED');
    expect(refused.message).toBe('This asset is already bought: purchase p_5. Registering again buys it a second time.');
    expect(refused.data.body).toEqual({ records: [expect.objectContaining({ purchaseId: 'p_5', reference: first.client_reference })] });

    const second = await registerWithLedger(ledger, {
      target,
      asset: { id: 5, title: 'Five' },
      seen: [`${first.client_reference!} (registered)`],
      send: () => Promise.reject(refusal('UNKNOWN_OUTCOME')),
    }).catch((e) => e as PartnerError);
    expect(second.code).toBe('UNKNOWN_OUTCOME');
    // Now two records stop it: naming only the first is not enough.
    const again = await errorOf(
      registerWithLedger(ledger, {
        target,
        asset: { id: 5, title: 'Five' },
        seen: [`${first.client_reference!} (registered)`],
        send: async (ref) => bought('p_y', 5, ref),
      }),
    );
    expect(again.code).toBe('CONFIRMATION_REQUIRED');
    expect(again.message).toMatch(/^An earlier registration of this asset may have gone through \(reference pc-/);
    const names = ledger.blockers(target, 5).map(confirmationName);
    const third = await registerWithLedger(ledger, { target, asset: { id: 5, title: 'Five' }, seen: names, send: async (ref) => bought('p_z', 5, ref) });
    expect(third.id).toBe('p_z');
  });

  it('two windows confirming the same unknown registration send it once, under its key: the second is refused while the first is on the wire', async () => {
    const ledger = open();
    await errorOf(registerWithLedger(ledger, { target, asset: { id: 5, title: null }, send: () => Promise.reject(refusal('UNKNOWN_OUTCOME')) }));
    const [unknown] = ledger.list({ limit: 5 });
    const seen = [confirmationName(unknown!)];
    const keys: string[] = [];
    let answer: ((p: SeenPurchase) => void) | undefined;
    const first = registerWithLedger(ledger, {
      target,
      asset: { id: 5, title: null },
      seen,
      send: (ref) => (keys.push(ref), new Promise<SeenPurchase>((r) => (answer = r))),
    });
    const second = await errorOf(
      registerWithLedger(ledger, { target, asset: { id: 5, title: null }, seen, send: async (ref) => (keys.push(ref), bought('p_2', 5, ref)) }),
    );
    expect(second.code).toBe('CONFLICT');
    expect(second.message).toMatch(/still being sent/);
    answer!(bought('p_1', 5, unknown!.reference!));
    expect(await first).toMatchObject({ id: 'p_1' });
    expect(keys).toEqual([unknown!.reference!]);
    expect(ledger.list({ limit: 5 })).toEqual([expect.objectContaining({ id: unknown!.id, state: 'registered', purchaseId: 'p_1' })]);
  });

  it('a confirmed Register resumes, under its own key, a registration another instance left sending when it died', async () => {
    let theyRun = true;
    const ours = open({ pid: 111, alive: (pid) => pid === 222 && theyRun });
    const theirs = open({ pid: 222 }).beginRegistration(target, { id: 6, title: null }, 'ref-theirs');
    theyRun = false;
    const keys: string[] = [];
    await registerWithLedger(ours, {
      target,
      asset: { id: 6, title: null },
      seen: ['ref-theirs (unresolved)'],
      send: async (ref) => (keys.push(ref), bought('p_6', 6, ref)),
    });
    expect(keys).toEqual(['ref-theirs']);
    expect(ours.list({ limit: 5 })).toEqual([expect.objectContaining({ id: theirs.id, state: 'registered', purchaseId: 'p_6' })]);
  });

  it('lets an asset be registered again after a cancel, a definite refusal, or a checked unknown; and per service', async () => {
    const ledger = open();
    await registerWithLedger(ledger, { target, asset: { id: 1, title: null }, send: async (ref) => bought('p_1', 1, ref) });
    ledger.recordSeen(target, { ...bought('p_1', 1), state: 'cancelled' });
    await errorOf(registerWithLedger(ledger, { target, asset: { id: 2, title: null }, send: () => Promise.reject(refusal('UNAUTHORIZED')) }));
    await errorOf(registerWithLedger(ledger, { target, asset: { id: 3, title: null }, send: () => Promise.reject(refusal('TIMEOUT')) }));
    ledger.markChecked(ledger.blockers(target, 3)[0]!.id);
    for (const id of [1, 2, 3]) expect(ledger.blockers(target, id)).toEqual([]);
    // Another base URL of the same vendor is another service.
    await registerWithLedger(ledger, { target, asset: { id: 9, title: null }, send: async (ref) => bought('p_9', 9, ref) });
    expect(ledger.blockers({ ...target, baseUrl: 'https://staging.example' }, 9)).toEqual([]);
  });
});

describe('later answers, recovery and the list', () => {
  it('updates a record from later actions and adds purchases found by id', () => {
    const ledger = open();
    const found = ledger.recordSeen(target, bought('p_40', 40, undefined, 'validated'), 'Forty');
    expect(found).toMatchObject({ state: 'registered', purchaseId: 'p_40', reference: null, assetTitle: 'Forty', purchaseState: 'validated' });
    const cancelled = ledger.recordSeen(target, { ...bought('p_40', 40), state: 'annulé', stateKind: 'cancelled' });
    expect(cancelled).toMatchObject({ id: found.id, purchaseState: 'annulé', purchaseStateKind: 'cancelled', assetTitle: 'Forty' });
    expect(ledger.list({ limit: 10 })).toHaveLength(1);
  });

  it('turns "sending" left by a dead process into unknown at start, and leaves a live one alone', () => {
    const dead = open({ pid: 111 });
    dead.beginRegistration(target, { id: 1, title: null }, 'ref-dead');
    const live = open({ pid: 222 });
    live.beginRegistration(target, { id: 2, title: null }, 'ref-live');
    stores.splice(0).forEach((s) => s.close());
    const restarted = open({ pid: 333, alive: (pid) => pid === 222 });
    const byRef = Object.fromEntries(restarted.list({ limit: 10 }).map((r) => [r.reference, r]));
    expect(byRef['ref-dead']).toMatchObject({ state: 'unknown', note: 'The app stopped before the service answered this registration.' });
    expect(byRef['ref-live']).toMatchObject({ state: 'sending' });
  });

  it('refuses "checked" while its registration is being sent here; not for a record whose send is over (its answer waits for the store)', async () => {
    const ours = open({ pid: 111 });
    let answer: ((p: SeenPurchase) => void) | undefined;
    const registering = registerWithLedger(ours, { target, asset: { id: 1, title: null }, send: () => new Promise<SeenPurchase>((r) => (answer = r)) });
    const [sending] = ours.list({ state: 'unresolved', limit: 5 });
    expect(sending).toMatchObject({ state: 'sending' });
    expect((await errorOf(Promise.resolve().then(() => ours.markChecked(sending!.id)))).code).toBe('CONFLICT');
    answer!(bought('P-1', 1, sending!.reference!));
    expect(await registering).toMatchObject({ id: 'P-1' });
    // Written ahead but not being sent (its answer only waits for the store): nothing runs that would settle it.
    const idle = ours.beginRegistration(target, { id: 2, title: null }, 'ref-idle');
    expect(ours.markChecked(idle.id)).toMatchObject({ state: 'checked' });
  });

  it("refuses it for another instance's registration while that process runs and the record is recent; not after a reboot's reused pid or SENDING_AT_MOST_MS", async () => {
    const theirs = open({ pid: 222 }).beginRegistration(target, { id: 1, title: null }, 'ref-theirs');
    let theyRun = true;
    const ours = open({ pid: 111, alive: (pid) => pid === 222 && theyRun });
    expect((await errorOf(Promise.resolve().then(() => ours.markChecked(theirs.id)))).code).toBe('CONFLICT');
    clock += SENDING_AT_MOST_MS;
    expect(ours.markChecked(theirs.id)).toMatchObject({ state: 'checked' });
    const later = open({ pid: 222 }).beginRegistration(target, { id: 3, title: null }, 'ref-later');
    theyRun = false;
    expect(ours.markChecked(later.id)).toMatchObject({ state: 'checked' });
  });

  it('keeps the purchase it was settled with when a second answer under its reference names another (a lookup, then a resend answered)', () => {
    const ledger = open();
    const record = ledger.beginRegistration(target, { id: 7, title: 'Seven' }, 'ref-both');
    expect(ledger.finishRegistration(record.id, bought('P-1', 7, 'ref-both'))).toMatchObject({ id: record.id, purchaseId: 'P-1' });
    const second = ledger.finishRegistration(record.id, bought('P-2', 7, 'ref-both'));
    expect(second).toMatchObject({ purchaseId: 'P-2', state: 'registered', assetId: '7' });
    expect(second.id).not.toBe(record.id);
    expect(ledger.get(record.id)).toMatchObject({ purchaseId: 'P-1', reference: 'ref-both' });
    expect(ledger.list({ assetId: 7, limit: 10 })).toHaveLength(2);
  });

  it("is never settled with another registration's purchase of the same asset, even when the answer carries no reference", () => {
    const ledger = open();
    const earlier = ledger.recordSeen(target, bought('P-OLD', 7, 'ref-old', 'cancelled'));
    const lost = ledger.beginRegistration(target, { id: 7, title: null }, 'ref-new', ['ref-old']);
    const settled = ledger.finishRegistration(lost.id, bought('P-OLD', 7, undefined, 'cancelled'));
    expect(settled).toMatchObject({ id: lost.id, state: 'unknown', purchaseId: null });
    expect(settled.note).toContain('registration ref-old');
    expect(ledger.get(earlier.id)).toMatchObject({ purchaseId: 'P-OLD', reference: 'ref-old' });
  });

  it('keeps a second purchase seen under a reference whose record holds another as a row of its own (neither is lost)', () => {
    const ledger = open();
    const first = ledger.recordSeen(target, bought('P-1', 7, 'ref-twice'));
    const second = ledger.recordSeen(target, bought('P-2', 7, 'ref-twice'));
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({ purchaseId: 'P-2', reference: null, state: 'registered', assetId: '7' });
    expect(second.note).toContain('second purchase under reference ref-twice');
    expect(ledger.get(first.id)).toMatchObject({ purchaseId: 'P-1', reference: 'ref-twice' });
    // Seen again later, each updates its own row.
    expect(ledger.recordSeen(target, bought('P-2', 7, 'ref-twice', 'cancelled')).id).toBe(second.id);
    expect(ledger.list({ assetId: 7, limit: 10 })).toHaveLength(2);
  });

  it('lists unresolved records first, then the newest; filters by vendor and state', async () => {
    const ledger = open();
    await registerWithLedger(ledger, { target, asset: { id: 1, title: null }, send: async (ref) => bought('p_1', 1, ref) });
    await errorOf(registerWithLedger(ledger, { target, asset: { id: 2, title: null }, send: () => Promise.reject(refusal('TIMEOUT')) }));
    await registerWithLedger(ledger, { target: { ...target, vendor: 'globex' }, asset: { id: 3, title: null }, send: async (ref) => bought('p_3', 3, ref) });
    expect(ledger.list({ limit: 10 }).map((r) => r.assetId)).toEqual(['2', '3', '1']);
    expect(ledger.list({ vendor: 'acme', limit: 10 }).map((r) => r.assetId)).toEqual(['2', '1']);
    expect(ledger.list({ state: 'unresolved', limit: 10 }).map((r) => r.assetId)).toEqual(['2']);
    expect(ledger.list({ state: 'registered', limit: 1 }).map((r) => r.assetId)).toEqual(['3']);
    expect(ledger.unresolvedCount()).toBe(1);
    expect(ledger.vendors()).toEqual(['acme', 'globex']);
  });
});
