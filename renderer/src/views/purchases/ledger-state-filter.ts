/**
 * The Purchases view's State filter speaks the State column's words: the service's state of a registered
 * purchase ("validated", "cancelled"), else the ledger's ("outcome unknown", "failed"). Main filters by
 * both, over the whole ledger (a filter here, on a list main cut at its limit, would miss older matches).
 */
import { LEDGER_STATES } from '../../../../shared/bridge/ledger-schemas';
import type { LedgerRecord, LedgerState } from '../../../../shared/bridge/ledger-schemas';
import type { Tone } from '../../components/Pill';

export const STATE_WORDS: Record<LedgerState, string> = {
  sending: 'sending',
  unknown: 'outcome unknown',
  registered: 'registered',
  failed: 'failed',
  checked: 'checked',
};
export const STATE_TONES: Record<LedgerState, Tone> = { sending: 'warn', unknown: 'warn', registered: 'info', failed: 'neutral', checked: 'neutral' };

/** The filter's value: a word the State column shows, or 'unresolved' (sending or outcome unknown). */
export type StateFilter = string | null;

/** The word the State column shows for a record. */
export function shownState(r: Pick<LedgerRecord, 'state' | 'purchaseState'>): string {
  return r.state === 'registered' && r.purchaseState ? r.purchaseState : STATE_WORDS[r.state];
}

/** What main is asked for: a word no ledger state has is a service state, held by registered records. */
export function ledgerFilterOf(filter: StateFilter): { state: LedgerState | 'unresolved' | null; purchaseState: string | null } {
  if (filter === null || filter === 'unresolved') return { state: filter, purchaseState: null };
  const ledgerState = LEDGER_STATES.find((s) => s !== 'registered' && STATE_WORDS[s] === filter);
  return ledgerState ? { state: ledgerState, purchaseState: null } : { state: 'registered', purchaseState: filter };
}

/** The filter's choices: every word the column shows for these states (the service's first), and the one chosen. */
export function stateChoices(records: readonly Pick<LedgerRecord, 'state' | 'purchaseState'>[], chosen: StateFilter): string[] {
  const words = new Set(records.map(shownState));
  if (chosen !== null && chosen !== 'unresolved') words.add(chosen);
  const ledgerWords = LEDGER_STATES.filter((s) => s !== 'registered').map((s) => STATE_WORDS[s]);
  const service = [...words].filter((w) => !ledgerWords.includes(w)).sort((a, b) => (a === 'registered' ? -1 : b === 'registered' ? 1 : a.localeCompare(b)));
  return [...service, ...ledgerWords.filter((w) => words.has(w))];
}
