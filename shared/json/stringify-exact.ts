/**
 * JSON.stringify for parsed answers and request bodies: NumberText (and bigint) written as the
 * number text they hold, and any depth written without recursion (V8's JSON.stringify overflows
 * the stack near 6,000 levels). Plain data only: toJSON is honoured (Date), cycles are refused.
 */
import { NumberText } from './number-text';

type Container =
  { kind: 'array'; value: unknown[]; index: number } | { kind: 'object'; value: Record<string, unknown>; keys: string[]; index: number; wrote: boolean };

/** What a value is written as: its text, a container to open, or nothing (undefined, a function). */
function leaf(value: unknown): string | object | undefined {
  if (value instanceof NumberText) return value.text;
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
    if (value instanceof NumberText) return value.text;
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object':
      return value === null ? 'null' : value;
    default:
      return undefined;
  }
}

/** The JSON text of a value; undefined where JSON.stringify gives undefined. `indent`: spaces per level. */
export function stringifyJsonExact(value: unknown, indent = 0): string | undefined {
  const first = leaf(value);
  if (typeof first !== 'object') return first;
  const pad = (depth: number): string => (indent > 0 ? `\n${' '.repeat(indent * depth)}` : '');
  const colon = indent > 0 ? ': ' : ':';
  const onPath = new Set<object>();
  const stack: Container[] = [];
  let out = '';

  const open = (node: object): void => {
    if (onPath.has(node)) throw new TypeError('Converting circular structure to JSON');
    onPath.add(node);
    if (Array.isArray(node)) {
      out += '[';
      stack.push({ kind: 'array', value: node, index: 0 });
    } else {
      out += '{';
      const record = node as Record<string, unknown>;
      stack.push({ kind: 'object', value: record, keys: Object.keys(record), index: 0, wrote: false });
    }
  };

  open(first);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const depth = stack.length;
    if (top.kind === 'array') {
      if (top.index >= top.value.length) {
        out += top.value.length > 0 ? `${pad(depth - 1)}]` : ']';
        onPath.delete(top.value);
        stack.pop();
        continue;
      }
      out += `${top.index > 0 ? ',' : ''}${pad(depth)}`;
      const item = leaf(top.value[top.index++]);
      if (typeof item === 'object') open(item);
      else out += item ?? 'null';
      continue;
    }
    if (top.index >= top.keys.length) {
      out += top.wrote ? `${pad(depth - 1)}}` : '}';
      onPath.delete(top.value);
      stack.pop();
      continue;
    }
    const key = top.keys[top.index++]!;
    const item = leaf(top.value[key]);
    if (item === undefined) continue;
    out += `${top.wrote ? ',' : ''}${pad(depth)}${JSON.stringify(key)}${colon}`;
    top.wrote = true;
    if (typeof item === 'object') open(item);
    else out += item;
  }
  return out;
}
