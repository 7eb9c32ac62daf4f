/**
 * Reading the purchase ledger: its rows as records, and the list the Purchases view filters (by
 * vendor, service, asset, ledger state and the service's state word, all in SQL: a filter applied
 * after a LIMIT would miss older matches).
 */
import type { Database } from 'better-sqlite3';
import type { LedgerRecord, LedgerState } from '../../shared/bridge/ledger-schemas';
import { baseUrlKey, vendorKey } from '../../shared/vendor-key';

export interface LedgerQuery {
  vendor?: string | null;
  baseUrl?: string | null;
  assetId?: string | number | null;
  state?: LedgerState | 'unresolved' | null;
  /** A registered purchase's state word at the service ('registered' also for one without a word). */
  purchaseState?: string | null;
  limit: number;
}

export interface Row {
  id: number;
  vendor: string;
  base_url: string;
  profile_id: string;
  asset_id: string;
  asset_title: string | null;
  reference: string | null;
  purchase_id: string | null;
  state: LedgerState;
  purchase_state: string | null;
  purchase_state_kind: string | null;
  note: string | null;
  created_at: number;
  updated_at: number;
}

export function toRecord(r: Row): LedgerRecord {
  return {
    id: r.id,
    vendor: r.vendor,
    baseUrl: r.base_url,
    profileId: r.profile_id,
    assetId: r.asset_id,
    assetTitle: r.asset_title,
    reference: r.reference,
    purchaseId: r.purchase_id,
    state: r.state,
    purchaseState: r.purchase_state,
    purchaseStateKind: r.purchase_state_kind,
    note: r.note,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The word the State column shows for a registered record: the service's, else 'registered' (renderer's shownState). */
const SHOWN_PURCHASE_STATE = `COALESCE(NULLIF(purchase_state, ''), 'registered')`;

/** A WHERE clause and its args; `states: false` leaves the state filters out (the filter's choices span them all). */
function whereOf(query: Omit<LedgerQuery, 'limit'>, states = true): { sql: string; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  if (query.vendor) {
    where.push('vendor_key(vendor) = ?');
    args.push(vendorKey(query.vendor));
  }
  if (query.baseUrl) {
    where.push('base_url_key(base_url) = ?');
    args.push(baseUrlKey(query.baseUrl));
  }
  if (query.assetId !== null && query.assetId !== undefined) {
    where.push('asset_id = ?');
    args.push(String(query.assetId));
  }
  if (states && query.state === 'unresolved') where.push(`state IN ('sending', 'unknown')`);
  else if (states && query.state) {
    where.push('state = ?');
    args.push(query.state);
  }
  if (states && query.purchaseState) {
    where.push(`state = 'registered' AND ${SHOWN_PURCHASE_STATE} = ?`);
    args.push(query.purchaseState);
  }
  return { sql: where.length ? `WHERE ${where.join(' AND ')}` : '', args };
}

/** Unresolved records first, then the newest, at most `limit`; `more` when others match too. */
export function listLedger(db: Database, query: LedgerQuery): { items: LedgerRecord[]; more: boolean } {
  const { sql, args } = whereOf(query);
  const rows = db
    .prepare(
      `SELECT * FROM purchase_ledger ${sql}
       ORDER BY CASE WHEN state IN ('sending', 'unknown') THEN 0 ELSE 1 END, updated_at DESC, id DESC LIMIT ?`,
    )
    .all(...args, query.limit + 1) as Row[];
  return { items: rows.slice(0, query.limit).map(toRecord), more: rows.length > query.limit };
}

/** Every (state, service state word) the records of this vendor, service and asset hold, whatever the state filters: the filter's choices. */
export function ledgerStates(db: Database, query: Omit<LedgerQuery, 'limit'>): Pick<LedgerRecord, 'state' | 'purchaseState'>[] {
  const { sql, args } = whereOf(query, false);
  return db
    .prepare(
      `SELECT DISTINCT state, CASE WHEN state = 'registered' THEN ${SHOWN_PURCHASE_STATE} END AS purchaseState
       FROM purchase_ledger ${sql} ORDER BY state, purchaseState`,
    )
    .all(...args) as Pick<LedgerRecord, 'state' | 'purchaseState'>[];
}
