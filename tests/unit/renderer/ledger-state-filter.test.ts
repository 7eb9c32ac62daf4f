/**
 * The Purchases State filter uses the State column's words: "registered" no longer lists a purchase the
 * service has cancelled, and "cancelled" can be chosen.
 */
import { describe, expect, it } from 'vitest';
import { ledgerStateOf, matchingState, stateChoices } from '../../../renderer/src/views/purchases/ledger-state-filter';

const rec = (id: number, state: 'sending' | 'unknown' | 'registered' | 'failed' | 'checked', purchaseState: string | null = null) => ({
  id,
  state,
  purchaseState,
});
const records = [
  rec(1, 'registered', 'cancelled'),
  rec(2, 'registered', 'validated'),
  rec(3, 'registered', 'registered'),
  rec(4, 'unknown'),
  rec(5, 'failed'),
  rec(6, 'registered'),
];

describe('the Purchases state filter', () => {
  it('offers the words the State column shows, cancelled among them', () => {
    expect(stateChoices(records, null)).toEqual(['registered', 'cancelled', 'validated', 'outcome unknown', 'failed']);
  });

  it('"registered" keeps registered purchases only, not one the service cancelled', () => {
    expect(ledgerStateOf('registered')).toBe('registered');
    expect(matchingState(records, 'registered').map((r) => r.id)).toEqual([3, 6]);
  });

  it('"cancelled" asks main for registered records and keeps the cancelled ones', () => {
    expect(ledgerStateOf('cancelled')).toBe('registered');
    expect(matchingState(records, 'cancelled').map((r) => r.id)).toEqual([1]);
  });

  it('a ledger word asks main for that ledger state; unresolved and no filter keep all main returns', () => {
    expect(ledgerStateOf('outcome unknown')).toBe('unknown');
    expect(ledgerStateOf('unresolved')).toBe('unresolved');
    expect(ledgerStateOf(null)).toBeNull();
    expect(matchingState(records, null)).toHaveLength(6);
  });

  it('keeps the chosen word on offer when no record shows it any more', () => {
    expect(stateChoices([rec(1, 'failed')], 'cancelled')).toEqual(['cancelled', 'failed']);
  });
});
