/**
 * The service map's form, as data: each editable field's place in the map, its kind and its words.
 * The form, the confidence badges (detection names fields the same way: "asset.price") and the
 * preview all walk this one list.
 */
import type { ServiceMap } from '../../../../shared/service-map/schema';

export type FieldKind =
  /** A field path; empty = null where `nullable`. */
  | 'path'
  /** A parameter or body field name. */
  | 'name'
  | 'number'
  | { options: readonly string[] };

export interface MapField {
  /** Dotted place in the map: `list.items`, `purchaseId.cancelPurchase.name`. */
  key: string;
  label: string;
  kind: FieldKind;
  /** Empty input means null (not in this service). */
  nullable?: boolean;
  hint?: string;
}

export interface MapSection {
  title: string;
  /** The sample kind the section reads (for the preview), if any. */
  sample?: 'asset' | 'category' | 'list' | 'search';
  fields: MapField[];
}

const placement = (endpoint: string, label: string): MapField[] => [
  { key: `purchaseId.${endpoint}.in`, label: `${label}: sent in`, kind: { options: ['query', 'body'] } },
  { key: `purchaseId.${endpoint}.name`, label: `${label}: name`, kind: 'name' },
];

export const MAP_SECTIONS: MapSection[] = [
  {
    title: 'Asset list (paging)',
    sample: 'list',
    fields: [
      { key: 'list.items', label: 'Items', kind: 'path', nullable: true, hint: 'empty: the first array in the answer' },
      { key: 'list.pageSizeParam', label: 'Page-size parameter', kind: 'name', nullable: true, hint: 'empty: none sent' },
      { key: 'list.pageSizeMax', label: 'Largest page size', kind: 'number' },
      { key: 'list.cursorParam', label: 'Cursor parameter', kind: 'name' },
      { key: 'list.cursor', label: 'Next cursor', kind: 'path', nullable: true, hint: "empty: the last item's id" },
      { key: 'list.hasMore', label: 'More pages follow', kind: 'path', nullable: true },
      { key: 'list.total', label: 'Total', kind: 'path', nullable: true },
    ],
  },
  {
    title: 'Asset',
    sample: 'asset',
    fields: [
      { key: 'asset.id', label: 'Id', kind: 'path' },
      { key: 'asset.title', label: 'Title', kind: 'path', nullable: true },
      { key: 'asset.category', label: 'Category', kind: 'path', nullable: true },
      { key: 'asset.price', label: 'Price', kind: 'path', nullable: true },
      { key: 'asset.priceUnit', label: 'Price unit', kind: { options: ['major', 'minor'] }, hint: 'minor: cents' },
      { key: 'asset.currency', label: 'Currency', kind: 'path', nullable: true },
      { key: 'asset.fixedCurrency', label: 'Fixed currency', kind: 'name', nullable: true, hint: 'when the answer names none' },
    ],
  },
  {
    title: 'Search',
    sample: 'search',
    fields: [
      { key: 'search.textField', label: 'Text field', kind: 'name' },
      { key: 'search.categoryField', label: 'Category field', kind: 'name', nullable: true, hint: 'empty: no category filter' },
      { key: 'search.limitField', label: 'Limit field', kind: 'name', nullable: true },
      { key: 'search.items', label: 'Items', kind: 'path', nullable: true },
      { key: 'search.total', label: 'Total', kind: 'path', nullable: true },
    ],
  },
  {
    title: 'Categories',
    sample: 'category',
    fields: [
      { key: 'categories.items', label: 'Items', kind: 'path', nullable: true },
      { key: 'category.id', label: 'Id', kind: 'path' },
      { key: 'category.name', label: 'Name', kind: 'path', nullable: true },
      { key: 'category.count', label: 'Count', kind: 'path', nullable: true },
    ],
  },
  {
    title: 'History',
    fields: [
      { key: 'history.assetIdField', label: 'Asset id field (request)', kind: 'name' },
      { key: 'history.points', label: 'Points', kind: 'path', nullable: true },
      { key: 'historyPoint.time', label: 'Time', kind: 'path' },
      { key: 'historyPoint.timeFormat', label: 'Time format', kind: { options: ['auto', 'iso', 'epoch-s', 'epoch-ms'] } },
      { key: 'historyPoint.value', label: 'Value (price)', kind: 'path', nullable: true },
      { key: 'historyPoint.event', label: 'Event', kind: 'path', nullable: true },
    ],
  },
  {
    title: 'Purchase',
    fields: [
      { key: 'register.assetIdField', label: 'Register: asset id field', kind: 'name' },
      { key: 'register.referenceField', label: 'Register: reference field', kind: 'name', nullable: true },
      {
        key: 'idempotencyHeader',
        label: 'Register: idempotency key header',
        kind: 'name',
        nullable: true,
        hint: 'sends the reference as this header; empty: none',
      },
      { key: 'purchase.at', label: 'Purchase object at', kind: 'path', nullable: true, hint: 'empty: the answer itself' },
      { key: 'purchase.id', label: 'Id', kind: 'path' },
      { key: 'purchase.state', label: 'State', kind: 'path', nullable: true },
      { key: 'purchase.asset', label: 'Asset', kind: 'path', nullable: true },
      { key: 'purchase.reference', label: 'Reference', kind: 'path', nullable: true },
      ...placement('purchaseInfo', 'Info'),
      ...placement('downloadUrl', 'Download URL'),
      ...placement('viewUrl', 'View URL'),
      ...placement('cancelPurchase', 'Cancel'),
      { key: 'validate.takes', label: 'Validate takes', kind: { options: ['purchase', 'asset'] } },
      { key: 'validate.in', label: 'Validate: sent in', kind: { options: ['query', 'body'] } },
      { key: 'validate.name', label: 'Validate: name', kind: 'name' },
    ],
  },
  {
    title: 'URL answer',
    fields: [
      { key: 'url.at', label: 'Object at', kind: 'path', nullable: true },
      { key: 'url.url', label: 'URL', kind: 'path' },
      { key: 'url.expiry', label: 'Expiry', kind: 'path', nullable: true },
      { key: 'url.expiryKind', label: 'Expiry is', kind: { options: ['time', 'seconds'] } },
    ],
  },
];

/** The value at a dotted key (own properties only). */
export function getAt(map: unknown, key: string): unknown {
  let node: unknown = map;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** A copy of the map with one value replaced (the map is never changed in place). */
export function setAt(map: ServiceMap, key: string, value: unknown): ServiceMap {
  const parts = key.split('.');
  const write = (node: unknown, i: number): unknown => {
    const record = typeof node === 'object' && node !== null ? (node as Record<string, unknown>) : {};
    return { ...record, [parts[i]!]: i === parts.length - 1 ? value : write(record[parts[i]!], i + 1) };
  };
  return write(map, 0) as ServiceMap;
}

/** Text for an input: null and absent read as ''. */
export function inputText(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/** The value an input's text stands for. */
export function fromInput(field: MapField, text: string): unknown {
  if (field.kind === 'number') return text.trim() === '' ? NaN : Number(text);
  if (field.nullable && text.trim() === '') return null;
  return text;
}

export type Confidence = 'high' | 'medium' | 'low';
export function confidenceLevel(c: number): Confidence {
  return c >= 0.8 ? 'high' : c >= 0.5 ? 'medium' : 'low';
}
