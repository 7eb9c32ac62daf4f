/**
 * Where a search hit matched: a service searches fields the table does not show (tags, keywords,
 * descriptions), so a row whose title lacks the words says which of its other fields hold them.
 * Generic over the asset's shape: every string (or string in an array or nested object) is looked at.
 */

export interface Match {
  /** The asset's field, dotted for nesting: `tags`, `attributes.keywords`. */
  field: string;
  /** The values of that field that contain the words (at most a few). */
  values: string[];
}

const MAX_VALUES = 4;
const MAX_DEPTH = 4;

function collect(value: unknown, field: string, needle: string, depth: number, out: Map<string, string[]>): void {
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value);
    if (!text.toLowerCase().includes(needle)) return;
    const values = out.get(field) ?? [];
    if (values.length < MAX_VALUES) values.push(text);
    out.set(field, values);
  } else if (Array.isArray(value)) {
    for (const v of value) collect(v, field, needle, depth + 1, out);
  } else if (typeof value === 'object' && value !== null && depth < MAX_DEPTH) {
    for (const [k, v] of Object.entries(value)) collect(v, field === '' ? k : `${field}.${k}`, needle, depth + 1, out);
  }
}

/**
 * The fields besides `shownFields` (what the table already shows) whose text contains the query,
 * case-insensitively; empty when the query is blank or the match is in a shown field.
 */
export function whereMatched(asset: Record<string, unknown>, query: string, shownFields: readonly string[]): Match[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [];
  const out = new Map<string, string[]>();
  for (const [k, v] of Object.entries(asset)) {
    if (!shownFields.includes(k)) collect(v, k, needle, 0, out);
  }
  return [...out].map(([field, values]) => ({ field, values }));
}

/** True when one of the shown fields already holds the words (the row explains itself). */
export function matchesShown(asset: Record<string, unknown>, query: string, shownFields: readonly string[]): boolean {
  const needle = query.trim().toLowerCase();
  return shownFields.some((k) => {
    const v = asset[k];
    return (typeof v === 'string' || typeof v === 'number') && String(v).toLowerCase().includes(needle);
  });
}
