/**
 * The Purchases State filter uses the State column's words: "registered" asks for registered purchases
 * the service has not moved on (not cancelled ones), and "cancelled" can be chosen.
 */
import { describe, expect, it } from 'vitest';
import { ledgerFilterOf, stateChoices } from '../../../renderer/src/views/purchases/ledger-state-filter';

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

  it('a service word asks main for registered records in that service state ("registered" among them)', () => {
    expect(ledgerFilterOf('registered')).toEqual({ state: 'registered', purchaseState: 'registered' });
    expect(ledgerFilterOf('cancelled')).toEqual({ state: 'registered', purchaseState: 'cancelled' });
  });

  it('a ledger word asks main for that ledger state; unresolved and no filter pass through', () => {
    expect(ledgerFilterOf('outcome unknown')).toEqual({ state: 'unknown', purchaseState: null });
    expect(ledgerFilterOf('unresolved')).toEqual({ state: 'unresolved', purchaseState: null });
    expect(ledgerFilterOf(null)).toEqual({ state: null, purchaseState: null });
  });

  it('keeps the chosen word on offer when no record shows it any more', () => {
    expect(stateChoices([rec(1, 'failed')], 'cancelled')).toEqual(['cancelled', 'failed']);
  });
});
