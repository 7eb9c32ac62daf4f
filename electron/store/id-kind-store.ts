/**
 * How a service wrote the asset ids its purchases name: a JSON number or a string (migration 6).
 * The page and the ledger carry an id as text ("42", "1234567890123456789"); a request must send it
 * as the service wrote it, also after a restart and from the Purchases view (electron/app/exact-ids.ts).
 */
import type { Database } from 'better-sqlite3';

export type IdKind = 'number' | 'string';

/** A service: the ledger's own key (vendor and base URL). */
export interface IdService {
  vendor: string;
  baseUrl: string;
}

export class IdKindStore {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  note(service: IdService, assetId: string, kind: IdKind): void {
    this.db
      .prepare(
        `INSERT INTO asset_id_kind (vendor, base_url, asset_id, kind, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (vendor, base_url, asset_id) DO UPDATE SET kind = excluded.kind, updated_at = excluded.updated_at`,
      )
      .run(service.vendor, service.baseUrl, assetId, kind, this.now());
  }

  /** This id's kind, else the kind of the id the service named last (a service writes its ids one way); null: never seen. */
  kindOf(service: IdService, assetId: string): { kind: IdKind; exact: boolean } | null {
    const exact = this.db
      .prepare('SELECT kind FROM asset_id_kind WHERE vendor = ? AND base_url = ? AND asset_id = ?')
      .get(service.vendor, service.baseUrl, assetId) as { kind: IdKind } | undefined;
    if (exact) return { kind: exact.kind, exact: true };
    const latest = this.db
      .prepare('SELECT kind FROM asset_id_kind WHERE vendor = ? AND base_url = ? ORDER BY updated_at DESC LIMIT 1')
      .get(service.vendor, service.baseUrl) as { kind: IdKind } | undefined;
    return latest ? { kind: latest.kind, exact: false } : null;
  }
}
