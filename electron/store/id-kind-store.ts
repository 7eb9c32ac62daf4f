/**
 * How a service wrote the asset ids its purchases name: a JSON number or a string (migrations 6, 7).
 * The page and the ledger carry an id as text ("42", "1234567890123456789"); a request must send it
 * as the service wrote it, also after a restart and from the Purchases view (electron/app/exact-ids.ts).
 * Keyed as the ledger is (shared/vendor-key.ts), so every spelling of one service finds its ids.
 */
import type { Database } from 'better-sqlite3';
import { vendorServiceKey } from '../../shared/vendor-key';
import type { VendorService } from '../../shared/vendor-key';

export type IdKind = 'number' | 'string';

/**
 * Where a kind was read. A register request names the catalog's id, and a service's purchase API
 * may write its ids another way, so the catalog's reading outranks a purchase answer's.
 */
export type IdSource = 'catalog' | 'purchase';

/** A service: the vendor and base URL of the ledger's records, as typed (folded here). */
export type IdService = VendorService;

export interface KeptKind {
  kind: IdKind;
  source: IdSource;
  /** false: no kind of this id is kept; this is the kind of the id the service named last. */
  exact: boolean;
}

export class IdKindStore {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps an id's kind; a purchase answer's never replaces the catalog's. */
  note(service: IdService, assetId: string, kind: IdKind, source: IdSource): void {
    const key = vendorServiceKey(service);
    this.db
      .prepare(
        `INSERT INTO asset_id_kind (vendor, base_url, asset_id, kind, source, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (vendor, base_url, asset_id) DO UPDATE SET kind = excluded.kind, source = excluded.source, updated_at = excluded.updated_at
         WHERE excluded.source = 'catalog' OR asset_id_kind.source = 'purchase'`,
      )
      .run(key.vendor, key.baseUrl, assetId, kind, source, this.now());
  }

  /** This id's kind, else the kind of the id the service named last, the catalog's first (a service writes its ids one way); null: never seen. */
  kindOf(service: IdService, assetId: string): KeptKind | null {
    const key = vendorServiceKey(service);
    const exact = this.db
      .prepare('SELECT kind, source FROM asset_id_kind WHERE vendor = ? AND base_url = ? AND asset_id = ?')
      .get(key.vendor, key.baseUrl, assetId) as { kind: IdKind; source: IdSource } | undefined;
    if (exact) return { ...exact, exact: true };
    const latest = this.db
      .prepare(`SELECT kind, source FROM asset_id_kind WHERE vendor = ? AND base_url = ? ORDER BY source = 'catalog' DESC, updated_at DESC LIMIT 1`)
      .get(key.vendor, key.baseUrl) as { kind: IdKind; source: IdSource } | undefined;
    return latest ? { ...latest, exact: false } : null;
  }
}
