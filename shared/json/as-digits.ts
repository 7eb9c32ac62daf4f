/**
 * A value with each NumberText replaced by its digits (a string): what crosses the bridge and
 * what an error body shows. A copy where anything changes (the value itself when nothing does);
 * walks with a stack, so any depth is fine. Only plain objects and arrays are opened.
 */
import { NumberText } from './number-text';

/** The type after the walk: NumberText becomes string, everywhere in the value. */
export type Digits<T> = T extends NumberText ? string : T extends readonly (infer U)[] ? Digits<U>[] : T extends object ? { [K in keyof T]: Digits<T[K]> } : T;

type Container = Record<string, unknown> | unknown[];

function isPlainContainer(v: unknown): v is Container {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function holdsNumberText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v instanceof NumberText) return true;
    if (!isPlainContainer(v)) continue;
    for (const item of Array.isArray(v) ? v : Object.values(v)) if (typeof item === 'object' && item !== null) stack.push(item);
  }
  return false;
}

function copyOf(source: Container): Container {
  if (Array.isArray(source)) return [...source];
  // An own "__proto__" key of an answer stays data: spread defines properties (assigning would set the prototype).
  if (Object.getPrototypeOf(source) !== null) return { ...source };
  // Without Object.prototype in the chain there is no __proto__ setter to hit.
  return Object.assign(Object.create(null) as Record<string, unknown>, source);
}

/** `onEach` sees every NumberText replaced (ExactIds remembers which digits were numbers). */
export function numberTextAsDigits<T>(value: T, onEach?: (n: NumberText) => void): Digits<T> {
  if (!holdsNumberText(value)) return value as Digits<T>;
  const convert = (v: unknown): unknown => {
    if (!(v instanceof NumberText)) return v;
    onEach?.(v);
    return v.text;
  };
  const root = convert(value);
  if (!isPlainContainer(root)) return root as Digits<T>;
  const top = copyOf(root);
  const stack: Container[] = [top];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const keys = Array.isArray(node) ? [...node.keys()] : Object.keys(node);
    for (const key of keys) {
      const item = (node as Record<string | number, unknown>)[key];
      let next = convert(item);
      if (isPlainContainer(next)) {
        next = copyOf(next);
        stack.push(next as Container);
      }
      if (next !== item) Object.defineProperty(node, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
  }
  return top as Digits<T>;
}
