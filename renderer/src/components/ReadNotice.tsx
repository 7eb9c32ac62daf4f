/**
 * What a service's answer did not give, said where it shows, in ONE notice: the service map's
 * warnings (a setting the service seems to ignore), the fields that could not be found (the raw
 * answer in the JSON viewer) and how the answer was read. It offers "Detect again" in place (the
 * active profile's map detected anew, <= 3 requests, and the answers read again); where a field was
 * not found or a setting seems wrong, also a link to the Service map settings to edit the map by hand.
 * An answer read with a detected layout (a reviewed map that does not fit it) needs only Detect again.
 */
import { useConnection } from '../api/queries';
import { useDetectAgain } from '../api/service-map-queries';
import { routeHref } from '../lib/hash-route';
import { JsonViewer } from './JsonViewer';
import './ReadNotice.css';

/** The tolerant-reading fields that map-read answers carry (shared/service-map/bridge.ts). */
export interface ReadInfo {
  missing?: string[] | undefined;
  warnings?: string[] | undefined;
  /** How the answer was read (a detected layout the reviewed map lacks), not a fault: shown as information. */
  notes?: string[] | undefined;
  raw?: unknown;
}

export const SERVICE_MAP_HREF = routeHref('settings', 'service-map');

/** Detect again for the active profile (not the built-in demo, whose map is fixed), with what it did. */
function DetectAgain() {
  const connection = useConnection().data;
  const detect = useDetectAgain();
  const profileId = connection?.profileId ?? null;
  if (profileId === null || connection?.demo) return null;
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => detect.mutate(profileId)} disabled={detect.isPending}>
        {detect.isPending ? 'Detecting…' : 'Detect again'}
      </button>
      {detect.isSuccess ? (
        <span className="small muted">
          {detect.data.saved
            ? `Detected again (confidence ${detect.data.confidence}): the answers are read with the new map, kept as not yet reviewed.`
            : `Detection found nothing surer (confidence ${detect.data.confidence}): the map is unchanged.`}
        </span>
      ) : null}
      {detect.isError ? <span className="small">Detection failed: {detect.error instanceof Error ? detect.error.message : String(detect.error)}</span> : null}
    </>
  );
}

export function ReadNotice({ info, what }: { info: ReadInfo | undefined | null; what: string }) {
  const warnings = info?.warnings ?? [];
  const missing = info?.missing ?? [];
  const notes = info?.notes ?? [];
  if (warnings.length === 0 && missing.length === 0 && notes.length === 0) return null;
  // Only notes: information (the answer was read), not a fault.
  const onlyNotes = warnings.length === 0 && missing.length === 0;
  const title = missing.length > 0 ? `Part of ${what} could not be read` : warnings.length > 0 ? warningTitle(warnings[0]!) : 'Read with a detected layout';
  return (
    <div className="read-notices">
      <div className={`callout ${onlyNotes ? 'read-notice-note' : 'callout-warn'}`} role="status">
        <div className="callout-title">{title}</div>
        {warnings.map((w) => (
          <div key={w}>{w}</div>
        ))}
        {missing.length > 0 ? (
          <div>
            Not found in the service's answer:{' '}
            {missing.map((m, i) => (
              <span key={m}>
                {i > 0 ? ', ' : ''}
                <code className="code-chip">{m}</code>
              </span>
            ))}
            . What could be read is shown; the rest is below as the service sent it.
          </div>
        ) : null}
        {notes.map((n) => (
          <div key={n}>{n}</div>
        ))}
        {missing.length > 0 && info?.raw !== undefined ? (
          <details className="read-raw">
            <summary>The service's answer (raw JSON, tokens masked)</summary>
            <JsonViewer value={info.raw} label={`Raw answer: ${what}`} />
          </details>
        ) : null}
        <div className="read-notice-actions">
          <DetectAgain />
          {onlyNotes ? null : (
            <a href={SERVICE_MAP_HREF} className="read-notice-link">
              Open the service map in Settings
            </a>
          )}
        </div>
      </div>
    </div>
  );
}

/** Verification warnings say a parameter "seems ignored"; the others (state words, validate, ids) are about the map itself. */
function warningTitle(warning: string): string {
  return /seems? (to be )?ignored|seems to ignore/i.test(warning) ? 'The service seems to ignore a setting' : 'Check the service map';
}
