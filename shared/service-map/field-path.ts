/**
 * Field paths into a JSON answer: `items`, `meta.total`, `data[].attributes.title`,
 * `hits.hits[]._source`, `_embedded.assets`, `rows[0].id`, and alternatives `next_cursor|meta.next`
 * (the first that is present wins). `[]` maps the rest of the path over an array's elements.
 * Reading never throws: a hostile value (a cycle, a getter, a huge array) gives "not found".
 */
import { NumberText } from '../json/number-text';

export type Step = { kind: 'key'; name: string } | { kind: 'each' } | { kind: 'index'; at: number };

export interface Found {
  found: boolean;
  value: unknown;
}

const NOT_FOUND: Found = Object.freeze({ found: false, value: undefined });
const MAX_STEPS = 32;

/**
 * Keys that reach an object's prototype when assigned (`__proto__`) or name its machinery: a map
 * that writes `__proto__.body` would set Object.prototype.body for the whole process.
 */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The first unsafe key among the segments of a name or path (`a.b`, `a|b`, `a[].b`), or null. */
export function unsafeSegment(text: string): string | null {
  for (const segment of text.split(/[.|[\]]/)) if (UNSAFE_KEYS.has(segment.trim())) return segment.trim();
  return null;
}

/** The steps of one path (no alternatives); null when it cannot be a path. */
export function parsePath(path: string): Step[] | null {
  const text = path.trim();
  if (text === '' || text === '.') return [];
  const steps: Step[] = [];
  for (const part of text.split('.')) {
    const m = /^([^[\]]*)((?:\[\d*\])*)$/.exec(part);
    if (!m) return null;
    if (UNSAFE_KEYS.has(m[1]!)) return null;
    if (m[1] !== '') steps.push({ kind: 'key', name: m[1]! });
    for (const b of m[2]!.match(/\[\d*\]/g) ?? []) {
      steps.push(b === '[]' ? { kind: 'each' } : { kind: 'index', at: Number(b.slice(1, -1)) });
    }
    if (m[1] === '' && m[2] === '') return null;
  }
  return steps.length > MAX_STEPS ? null : steps;
}

/** True when the text is a well-formed path (or a `|` list of them). */
export function isPath(path: string): boolean {
  return path.split('|').every((p) => parsePath(p) !== null);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  // A NumberText (an integer past 2^53) is a value, not an object to open.
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof NumberText);
}

function own(record: Record<string, unknown>, name: string): Found {
  try {
    if (!Object.prototype.hasOwnProperty.call(record, name)) return NOT_FOUND;
    const value = record[name];
    return value === undefined ? NOT_FOUND : { found: true, value };
  } catch {
    return NOT_FOUND;
  }
}

function walk(value: unknown, steps: readonly Step[], from: number): Found {
  let current = value;
  for (let i = from; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.kind === 'key') {
      if (!isRecord(current)) return NOT_FOUND;
      const next = own(current, step.name);
      if (!next.found) return NOT_FOUND;
      current = next.value;
    } else if (step.kind === 'index') {
      if (!Array.isArray(current) || step.at >= current.length) return NOT_FOUND;
      current = current[step.at];
      if (current === undefined) return NOT_FOUND;
    } else {
      if (!Array.isArray(current)) return NOT_FOUND;
      const out: unknown[] = [];
      for (const element of current) {
        const r = walk(element, steps, i + 1);
        if (r.found) out.push(r.value);
      }
      return { found: true, value: out };
    }
  }
  return { found: true, value: current };
}

/** Parsed alternatives per path text: a download reads the same few paths millions of times. */
const compiled = new Map<string, Step[][]>();
const MAX_COMPILED = 1000;

function compile(path: string): Step[][] {
  let steps = compiled.get(path);
  if (steps === undefined) {
    steps = path.split('|').flatMap((alternative) => {
      const parsed = parsePath(alternative);
      return parsed === null ? [] : [parsed];
    });
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(path, steps);
  }
  return steps;
}

/** Reads a path (or the first present of `a|b` alternatives) from a value. Never throws. */
export function readPath(value: unknown, path: string | null | undefined): Found {
  if (path === null || path === undefined) return NOT_FOUND;
  for (const steps of compile(path)) {
    const r = walk(value, steps, 0);
    if (r.found) return r;
  }
  return NOT_FOUND;
}

/** Which of a path's alternatives (`a|b`) the value has, for naming the field in a message; null when none. */
export function foundAlternative(value: unknown, path: string | null | undefined): string | null {
  if (path === null || path === undefined) return null;
  return path.split('|').find((alternative) => readPath(value, alternative).found) ?? null;
}

/** The first key of a path (for "the other fields" of an object): `attributes.title` -> `attributes`. */
export function topKey(path: string): string | null {
  const steps = parsePath(path.split('|')[0] ?? '');
  const first = steps?.[0];
  return first?.kind === 'key' ? first.name : null;
}

/** An object with no prototype: a key written into it is only ever its own data. */
export function bareRecord(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/** Sets an own data key (defined, not assigned): an answer's `__proto__` key stays data, never a prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Sets a value at a simple dotted path (keys only), creating objects without prototypes: builds
 * request bodies. Throws on a `__proto__`, `constructor` or `prototype` segment (never written).
 */
export function writePath(target: Record<string, unknown>, path: string, value: unknown): void {
  const unsafe = unsafeSegment(path);
  if (unsafe !== null) throw new Error(`refused field name "${path}": "${unsafe}" is not allowed in a field name`);
  const keys = path.split('.').filter((k) => k !== '');
  let node = target;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i]!;
    const next = Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined;
    if (isRecord(next)) node = next;
    else node = node[key] = bareRecord();
  }
  const last = keys[keys.length - 1];
  if (last !== undefined) node[last] = value;
}
