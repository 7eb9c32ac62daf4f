/**
 * A readable, collapsible view of a JSON value (a service's answer, tokens already masked by main):
 * objects and arrays open and close with real buttons (Tab, Enter, Space), long strings wrap, and a
 * big array shows its count and opens in chunks, so a 10,000-item answer never renders at once.
 */
import { useState } from 'react';
import type { ReactNode } from 'react';
import './JsonViewer.css';

/** Arrays longer than this start closed, and open this many items at a time. */
export const JSON_CHUNK = 50;
/** Deeper than this is shown as text: a guard against hostile nesting. */
const MAX_DEPTH = 40;

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

/** "3 keys", "1 item": what a closed node holds. */
export function summarize(value: Container): string {
  if (Array.isArray(value)) return `${value.length.toLocaleString('en-US')} ${value.length === 1 ? 'item' : 'items'}`;
  const n = Object.keys(value).length;
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'key' : 'keys'}`;
}

function Scalar({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span className="jv-string">&quot;{value}&quot;</span>;
  if (typeof value === 'number' || typeof value === 'bigint') return <span className="jv-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="jv-bool">{String(value)}</span>;
  if (value === null) return <span className="jv-null">null</span>;
  return <span className="jv-null">{value === undefined ? 'undefined' : String(value)}</span>;
}

function Node({
  name,
  value,
  depth,
  openDepth,
  ancestors,
}: {
  name: ReactNode;
  value: unknown;
  depth: number;
  openDepth: number;
  ancestors: readonly object[];
}) {
  const container = isContainer(value);
  const big = Array.isArray(value) && value.length > JSON_CHUNK;
  const [open, setOpen] = useState(container && depth < openDepth && !big);
  const [shown, setShown] = useState(JSON_CHUNK);
  const label = name === null ? null : <span className="jv-key">{name}: </span>;

  if (!container) {
    return (
      <li className="jv-row">
        {label}
        <Scalar value={value} />
      </li>
    );
  }
  if (ancestors.includes(value) || depth > MAX_DEPTH) {
    return (
      <li className="jv-row">
        {label}
        <span className="jv-null">{ancestors.includes(value) ? '(refers to itself)' : '(nested too deep to show)'}</span>
      </li>
    );
  }
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray ? value.slice(0, shown).map((v, i) => [String(i), v]) : Object.entries(value).slice(0, shown);
  const total = isArray ? value.length : Object.keys(value).length;
  const [openMark, closeMark] = isArray ? ['[', ']'] : ['{', '}'];
  return (
    <li className="jv-row">
      <button type="button" className="jv-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="jv-caret" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        {label}
        <span className="jv-mark">{openMark}</span>
        {open ? null : (
          <>
            <span className="jv-summary">{summarize(value)}</span>
            <span className="jv-mark">{closeMark}</span>
          </>
        )}
      </button>
      {open ? (
        <>
          <ul className="jv-list">
            {entries.map(([k, v]) => (
              <Node
                key={k}
                name={isArray ? <span className="jv-index">{k}</span> : k}
                value={v}
                depth={depth + 1}
                openDepth={openDepth}
                ancestors={[...ancestors, value]}
              />
            ))}
            {total > shown ? (
              <li className="jv-row">
                <button type="button" className="btn btn-small" onClick={() => setShown(shown + JSON_CHUNK)}>
                  Show {Math.min(JSON_CHUNK, total - shown)} more ({(total - shown).toLocaleString('en-US')} not shown)
                </button>
              </li>
            ) : null}
          </ul>
          <span className="jv-mark">{closeMark}</span>
        </>
      ) : null}
    </li>
  );
}

/** Text for the clipboard; a value JSON cannot write (a cycle) still gives words, never a throw. */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

export function JsonViewer({ value, label, openDepth = 1 }: { value: unknown; label: string; openDepth?: number }) {
  const [copied, setCopied] = useState<string>('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(jsonText(value));
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copy was refused by the browser.');
    }
  };
  return (
    <div className="jv" role="group" aria-label={label}>
      <div className="jv-tools">
        <button type="button" className="btn btn-small" onClick={() => void copy()}>
          Copy JSON
        </button>
        <span className="muted small" role="status" aria-live="polite">
          {copied}
        </span>
      </div>
      <ul className="jv-list jv-root">
        <Node name={null} value={value} depth={0} openDepth={openDepth} ancestors={[]} />
      </ul>
    </div>
  );
}
