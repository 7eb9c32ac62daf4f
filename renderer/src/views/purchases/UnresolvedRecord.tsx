/**
 * One registration whose outcome is unknown, with the two ways to settle it: look it up at the
 * service (by its reference, or by a purchase id the person found), or mark it as checked.
 */
import { useId, useState } from 'react';
import { ErrorCallout } from '../../components/states';
import { fmtDateTime } from '../../lib/format';
import type { LedgerRecord } from './ledger-queries';
import { useResolve } from './ledger-queries';

export function UnresolvedRecord({
  record,
  showAsset = false,
  onResolved,
}: {
  record: LedgerRecord;
  showAsset?: boolean;
  /** Told the outcome in words: a settled record leaves the list, its message must not. */
  onResolved?: (message: string) => void;
}) {
  const resolve = useResolve(onResolved);
  const [purchaseId, setPurchaseId] = useState('');
  const inputId = useId();
  const asset = record.assetTitle ?? `asset ${record.assetId}`;
  const sending = record.state === 'sending';

  return (
    <div className="callout callout-warn unresolved" role="status" aria-label={`Unresolved registration ${record.reference ?? record.id}`}>
      <div>
        {showAsset ? <strong>{asset}</strong> : 'This asset'} {sending ? 'is being registered now' : 'may or may not be registered'}
        <span className="muted small">
          {' '}
          · {record.vendor} · {fmtDateTime(record.createdAt)}
        </span>
      </div>
      <div className="small">
        {record.reference ? (
          <>
            Reference <span className="mono">{record.reference}</span>.{' '}
          </>
        ) : null}
        {record.note ?? ''} Look it up before registering this asset again.
      </div>
      <div className="button-row">
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={resolve.isPending}
          onClick={() => resolve.mutate({ id: record.id, action: 'lookup' })}
        >
          Look it up
        </button>
        <label className="visually-hidden" htmlFor={inputId}>
          Purchase id found elsewhere
        </label>
        <input
          id={inputId}
          className="input input-small mono"
          placeholder="or a purchase id"
          value={purchaseId}
          onChange={(e) => setPurchaseId(e.target.value)}
          spellCheck={false}
        />
        <button
          type="button"
          className="btn btn-small"
          disabled={resolve.isPending || purchaseId.trim() === ''}
          onClick={() => resolve.mutate({ id: record.id, action: 'lookup', purchaseId: purchaseId.trim() })}
        >
          Check this id
        </button>
        <button type="button" className="btn btn-small" disabled={resolve.isPending} onClick={() => resolve.mutate({ id: record.id, action: 'markChecked' })}>
          Mark as checked
        </button>
      </div>
      {resolve.isSuccess ? <div className="small">{resolve.data.message}</div> : null}
      {resolve.isError ? <ErrorCallout error={resolve.error} action="lookup" /> : null}
    </div>
  );
}
