import { useRequestDetail } from '../../api/queries';
import { Pill, statusTone } from '../../components/Pill';
import { ErrorCallout, Loading } from '../../components/states';
import { DASH, fmtClock, fmtMs } from '../../lib/format';

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

function Body({ title, body }: { title: string; body: string | null }) {
  let shown = body;
  if (body) {
    try {
      shown = JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      shown = body; // not JSON (or cut short): as sent
    }
  }
  return (
    <>
      <h3 className="detail-section">{title}</h3>
      {shown ? <pre className="code-block" aria-label={title}>{shown}</pre> : <p className="muted small">Empty.</p>}
    </>
  );
}

export function RequestDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const detail = useRequestDetail(id);
  const d = detail.data;
  return (
    <aside className="panel detail" aria-label="Request detail">
      <header className="detail-head">
        <div>
          <div className="muted small mono">Request #{id}</div>
          <h2 className="detail-title mono">{d ? `${d.method} ${d.path}` : 'Request'}</h2>
        </div>
        <button type="button" className="btn btn-ghost" onClick={onClose} aria-label="Close request detail">
          ✕
        </button>
      </header>
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
