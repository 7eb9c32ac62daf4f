import { useEffect } from 'react';
import { useRequestDetail } from '../../api/queries';
import { Pill, statusTone } from '../../components/Pill';
import { ErrorCallout, Loading } from '../../components/states';
import { DASH, fmtClock, fmtMs } from '../../lib/format';
import { CopyCurl } from './CopyCurl';
import { parseJsonExact } from '../../../../shared/json/parse-exact';
import { stringifyJsonExact } from '../../../../shared/json/stringify-exact';

function Headers({ title, headers }: { title: string; headers: Record<string, string> }) {
  const entries = Object.entries(headers).sort(([a], [b]) => a.localeCompare(b));
  return (
    <>
      <h3 className="detail-section">{title}</h3>
      {entries.length === 0 ? (
        <p className="muted small">None recorded.</p>
      ) : (
        <table className="table table-compact headers-table" aria-label={title}>
          <tbody>
            {entries.map(([k, v]) => (
              <tr key={k} className={/^x-rate-limit-/i.test(k) ? 'row-highlight' : undefined}>
                <th scope="row" className="mono">
                  {k}
                </th>
                <td className="mono break">{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** Escapes that a JSON round trip would undo (`\/` and `\uXXXX`; `\"`, `\\` and `\n` come back as they were). */
const UNDONE_BY_PARSING = /\\(\/|u[0-9a-fA-F]{4})/;

/**
 * A body pretty-printed when it is JSON, but never un-escaped: a body with escapes that parsing
 * would undo is shown as sent, so the screen shows exactly what main masked and nothing it could not see.
 */
export function shownBody(body: string): string {
  if (UNDONE_BY_PARSING.test(body)) return body;
  try {
    // Exact: an id past 2^53 is shown as sent, not rounded; any depth.
    return stringifyJsonExact(parseJsonExact(body), 2) ?? body;
  } catch {
    return body; // not JSON (or cut short): as sent
  }
}

function Body({ title, body }: { title: string; body: string | null }) {
  const shown = body ? shownBody(body) : body;
  return (
    <>
      <h3 className="detail-section">{title}</h3>
      {shown ? (
        <pre className="code-block" aria-label={title}>
          {shown}
        </pre>
      ) : (
        <p className="muted small">Empty.</p>
      )}
    </>
  );
}

export function RequestDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const detail = useRequestDetail(id);
  const d = detail.data;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <aside className="panel detail" aria-label="Request detail">
      <header className="detail-head">
        <div>
          <div className="muted small mono">Request #{id}</div>
          <h2 className="detail-title mono">{d ? `${d.method} ${d.path}` : 'Request'}</h2>
        </div>
        <button type="button" className="btn btn-ghost" onClick={onClose} aria-label="Close request detail" title="Close (Esc)">
          ✕
        </button>
      </header>
      {d ? (
        <div className="detail-actions">
          <CopyCurl detail={d} />
        </div>
      ) : null}
      {detail.isPending ? (
        <Loading />
      ) : detail.isError ? (
        <ErrorCallout error={detail.error} onRetry={() => void detail.refetch()}>
          <div className="muted small">The bounded log may have let this entry go.</div>
        </ErrorCallout>
      ) : d ? (
        <>
          <dl className="stats stats-compact">
            <div>
              <dt>Status</dt>
              <dd>
                <Pill tone={statusTone(d.status)}>{d.status === 0 ? 'no answer' : d.status}</Pill>
                {d.errorCode ? <code className="code-chip">{d.errorCode}</code> : null}
              </dd>
            </div>
            <div>
              <dt>At</dt>
              <dd className="mono">{fmtClock(d.at, true)}</dd>
            </div>
            <div>
              <dt>Latency</dt>
              <dd>{fmtMs(d.latencyMs)}</dd>
            </div>
            <div>
              <dt>Waited</dt>
              <dd>{fmtMs(d.waitedMs)}</dd>
            </div>
            <div>
              <dt>Attempt</dt>
              <dd>{d.attempt}</dd>
            </div>
            <div className="stats-span2">
              <dt>Limit / Remaining / Reset</dt>
              <dd className="mono">
                {d.limit ?? DASH} / {d.remaining ?? DASH} / {d.reset ?? DASH}
              </dd>
            </div>
          </dl>
          {d.headerProblems.length > 0 ? (
            <div className="callout callout-warn">
              <div className="callout-title">Rate-limit header problems</div>
              <ul>
                {d.headerProblems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <Headers title="Request headers" headers={d.requestHeaders} />
          <Body title="Request body" body={d.requestBody} />
          <Headers title="Response headers" headers={d.responseHeaders} />
          <Body title="Response body" body={d.responseBody} />
        </>
      ) : null}
    </aside>
  );
}
