/**
 * listAssets (the catalog's page reader), searchAssets, categories, assetHistory: interactive
 * priority, called and read through the session's service map. Answers are read tolerantly: what
 * could be read, the map fields that were missing, the raw answer (tokens masked) and warnings.
 */
import { readHistoryOrDetect } from '../../../shared/service-map/fallback';
import { readCategories, readSearch } from '../../../shared/service-map/read';
import type { Read } from '../../../shared/service-map/read';
import { historyRequest, searchRequest } from '../../../shared/service-map/requests';
import { verifySearch } from '../../../shared/service-map/verify';
import { readPage } from '../../catalog';
import type { AppContext } from './context';
import { ledgerTarget } from './ledger';
import { maskedAnswer } from './service-map';
import type { HandlerGroup } from './types';

/** missing / warnings always; notes where any; raw only when something could not be read. */
function readInfo(read: Pick<Read<unknown>, 'missing' | 'warnings' | 'raw'> & { notes?: string[] }, extraWarnings: string[] = []) {
  return {
    missing: read.missing,
    warnings: [...read.warnings, ...extraWarnings],
    ...(read.notes?.length ? { notes: read.notes } : {}),
    ...(read.missing.length > 0 ? { raw: read.raw } : {}),
  };
}

export function catalogHandlers(ctx: AppContext): HandlerGroup<'listAssets' | 'searchAssets' | 'categories' | 'assetHistory'> {
  return {
    async listAssets({ lastId, pageSize, ...scope }, call) {
      const session = ctx.session(scope);
      const page = await readPage(session.client, { map: session.map, lastId, pageSize, priority: 'interactive', tolerant: true, signal: call?.signal });
      ctx.ids.noteRead(
        ledgerTarget(session),
        page.items.map((a) => a.id),
      );
      return maskedAnswer(ctx, { items: page.items, cursor: page.done ? null : page.cursor, done: page.done, total: page.total, ...readInfo(page) });
    },
    async searchAssets({ query, category, limit, ...scope }, call) {
      const session = ctx.session(scope);
      const map = session.map;
      const res = await session.client.request('searchAssets', {
        ...searchRequest(map, query, category, limit),
        priority: 'interactive',
        signal: call?.signal,
      });
      const read = readSearch(res.body, map);
      ctx.ids.noteRead(
        ledgerTarget(session),
        read.value.items.map((a) => a.id),
      );
      const checks = verifySearch({ category, field: map.search.categoryField, limit, limitField: map.search.limitField, items: read.value.items });
      return maskedAnswer(ctx, { items: read.value.items, total: read.value.total, ...readInfo(read, checks) });
    },
    async categories(scope, call) {
      const session = ctx.session(scope);
      const res = await session.client.request('categories', { priority: 'interactive', signal: call?.signal });
      const read = readCategories(res.body, session.map);
      return maskedAnswer(ctx, { items: read.value, ...readInfo(read) });
    },
    async assetHistory({ assetId, ...scope }, call) {
      const session = ctx.session(scope);
      // Its asset field is guessed: a 400 naming the right one is sent once more that way (session.names).
      const { res, note } = await session.names.send(
        session.client,
        'history.assetIdField',
        'assetHistory',
        (m) => historyRequest(m, ctx.ids.fromBridge(ledgerTarget(session), assetId)),
        { priority: 'interactive', signal: call?.signal },
      );
      // History is not probed (one per asset): a first answer the map does not fit is detected, and said so.
      const read = readHistoryOrDetect(res.body, session.map);
      return maskedAnswer(ctx, { assetId, items: read.value, ...readInfo(note === null ? read : { ...read, notes: [...read.notes, note] }) });
    },
  };
}
