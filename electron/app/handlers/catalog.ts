/** listAssets (the catalog's page reader), searchAssets, categories, assetHistory: interactive priority. */
import type { z } from 'zod';
import { categoriesSchema, historySchema, pageSchema, searchResultSchema } from '../../../shared/bridge/schemas';
import { ENDPOINTS } from '../../../shared/endpoints';
import type { EndpointId } from '../../../shared/endpoints';
import { PartnerError } from '../../../shared/errors';
import { readPage } from '../../catalog';
import { describeIssues } from '../dispatcher';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

/** The first array in a body: `{items: [...]}` in the simulator, a bare array elsewhere. */
function itemsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    if (Array.isArray(record.items)) return record.items;
    for (const value of Object.values(record)) if (Array.isArray(value)) return value;
  }
  return [];
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A body that does not fit what the dashboard shows is the service's problem, not a bug of ours. */
function checked<S extends z.ZodType>(schema: S, value: unknown, endpoint: EndpointId): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new PartnerError({
    code: 'INVALID_RESPONSE',
    message: `${ENDPOINTS[endpoint].label} answered with data the dashboard cannot show (${describeIssues(parsed.error.issues)}).`,
    endpoint: ENDPOINTS[endpoint].label,
    retryable: false,
  });
}

export function catalogHandlers(ctx: AppContext): HandlerGroup<'listAssets' | 'searchAssets' | 'categories' | 'assetHistory'> {
  return {
    async listAssets({ lastId, pageSize }) {
      const session = ctx.session();
      const page = await readPage(session.client, {
        lastId,
        pageSize,
        pageSizeParam: session.profile.pageSizeParam,
        idField: session.profile.idField,
        priority: 'interactive',
      });
      return checked(pageSchema, { items: page.items, cursor: page.done ? null : page.cursor, done: page.done, total: page.total }, 'listAssets');
    },
    async searchAssets({ query, category, limit }) {
      const session = ctx.session();
      const body: Record<string, unknown> = { query, limit };
      if (category !== null && category !== '') body.category = category;
      const res = await session.client.request('searchAssets', { body, priority: 'interactive' });
      return checked(searchResultSchema, { items: itemsOf(res.body), total: numberOrNull((res.body as { total?: unknown } | null)?.total) }, 'searchAssets');
    },
    async categories() {
      const res = await ctx.session().client.request('categories', { priority: 'interactive' });
      return checked(categoriesSchema, { items: itemsOf(res.body) }, 'categories');
    },
    async assetHistory({ assetId }) {
      const res = await ctx.session().client.request('assetHistory', { body: { asset_id: assetId }, priority: 'interactive' });
      const reported = (res.body as { asset_id?: unknown } | null)?.asset_id;
      const id = typeof reported === 'number' || typeof reported === 'string' ? reported : assetId;
      return checked(historySchema, { assetId: id, items: itemsOf(res.body) }, 'assetHistory');
    },
  };
}
