/**
 * Loose shapes of the purchase answers (extra fields pass through). The purchase itself comes from
 * shared/catalog.ts; the URL answers and the list by reference are only used here.
 */
import { z } from 'zod';
import { purchaseSchema } from '../../shared/catalog';

/** Only http(s): the dashboard opens these links, so a javascript: or file: URL is refused. */
const webUrl = z.string().refine((value) => {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}, 'not an http(s) URL');

export const purchaseUrlSchema = z.looseObject({
  purchase_id: z.union([z.string(), z.number()]).optional(),
  url: webUrl,
  expires_at: z.string().optional(),
});
export type PurchaseUrl = z.infer<typeof purchaseUrlSchema>;

/** `{ items: Purchase[] }`, or a bare array. */
export const purchaseListSchema = z.union([z.looseObject({ items: z.array(purchaseSchema) }).transform((v) => v.items), z.array(purchaseSchema)]);
