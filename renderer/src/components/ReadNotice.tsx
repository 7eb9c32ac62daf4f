/**
 * What a service's answer did not give, said where it shows: the service map's warnings (a setting
 * the service seems to ignore) and the fields that could not be found, with the raw answer in the
 * JSON viewer and a link to the Service map settings where either can be fixed.
 */
import { routeHref } from '../lib/hash-route';
import { JsonViewer } from './JsonViewer';
import './ReadNotice.css';

/** The tolerant-reading fields that map-read answers carry (shared/service-map/bridge.ts). */
export interface ReadInfo {
  missing?: string[] | undefined;
  warnings?: string[] | undefined;
  /** How the answer was read (a detected layout to save), not a fault: shown as information. */
  notes?: string[] | undefined;
  raw?: unknown;
}

export const SERVICE_MAP_HREF = routeHref('settings', 'service-map');

function MapLink() {
  return (
    <a href={SERVICE_MAP_HREF} className="read-notice-link">
      Open the service map in Settings
    </a>
  );
}

export function ReadNotice({ info, what }: { info: ReadInfo | undefined | null; what: string }) {
  const warnings = info?.warnings ?? [];
  const missing = info?.missing ?? [];
  const notes = info?.notes ?? [];
  if (warnings.length === 0 && missing.length === 0 && notes.length === 0) return null;
  return (
    <div className="read-notices">
      {notes.map((n) => (
        <div key={n} className="callout read-notice-note" role="status">
          <div className="callout-title">Read with a detected layout</div>
          <div>{n}</div>
          <MapLink />
        </div>
      ))}
      {warnings.map((w) => (
        <div key={w} className="callout callout-warn" role="status">
          <div className="callout-title">{warningTitle(w)}</div>
          <div>{w}</div>
          <MapLink />
        </div>
      ))}
      {missing.length > 0 ? (
        <div className="callout callout-warn" role="status">
          <div className="callout-title">Part of {what} could not be read</div>
          <div>
            Not found in the service's answer: {missing.map((m, i) => (
              <span key={m}>
                {i > 0 ? ', ' : ''}
                <code className="code-chip">{m}</code>
              </span>
            ))}
            . What could be read is shown; the rest is below as the service sent it.
          </div>
          {info?.raw !== undefined ? (
            <details className="read-raw">
              <summary>The service's answer (raw JSON, tokens masked)</summary>
              <JsonViewer value={info.raw} label={`Raw answer: ${what}`} />
            </details>
          ) : null}
          <MapLink />
        </div>
      ) : null}
    </div>
  );
}

/** Verification warnings say a parameter "seems ignored"; the others (state words, validate, ids) are about the map itself. */
function warningTitle(warning: string): string {
  return /seems? (to be )?ignored|seems to ignore/i.test(warning) ? 'The service seems to ignore a setting' : 'Check the service map';
}
