/**
 * The purchase operations for one asset (or one purchase), from the purchase ledger that main keeps.
 * Register always asks first; when the ledger holds a purchase of the asset, or a registration whose
 * outcome is unknown, it asks differently and names them (main refuses a second registration unless
 * they are named, so nothing here decides safety). Cancel asks too. Results and errors in words.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { UNRESOLVED_STATES, blocksRegistration, confirmationName, ledgerRecordSchema } from '../../../../shared/bridge/ledger-schemas';
import type { CallResponse } from '../../../../shared/bridge/contract';
import { PURCHASE_ACTIONS_BY_STATE } from '../../../../shared/catalog';
import { useApi, useAppContext } from '../../api/context';
import type { UrlResult } from '../../api/queries';
import type { AssetSource } from '../catalog/asset-source';
import { scopeOf } from '../catalog/asset-source';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyField } from '../../components/CopyField';
import { Pill, purchaseTone } from '../../components/Pill';
import { ReadNotice } from '../../components/ReadNotice';
import { ErrorCallout } from '../../components/states';
import { errorData } from '../../lib/error-text';
import { fmtDateTime, fmtPrice } from '../../lib/format';
import type { LedgerRecord } from './ledger-queries';
import { invalidateLedger, useAssetLedger } from './ledger-queries';
import { UnresolvedRecord } from './UnresolvedRecord';
import './purchases.css';

type Purchase = CallResponse<'purchaseInfo'>;
type Action = 'purchaseInfo' | 'validatePurchase' | 'registerPurchase' | 'downloadUrl' | 'viewUrl' | 'cancelPurchase';
type PurchaseAction = Exclude<Action, 'registerPurchase'>;

const LABELS: Record<Action, string> = {
  purchaseInfo: 'Purchase info',
  validatePurchase: 'Validate before payment',
  registerPurchase: 'Register purchase',
  downloadUrl: 'Get download URL',
  viewUrl: 'Get view URL',
  cancelPurchase: 'Cancel purchase',
};

/** What the action is called in an error sentence. */
const NOUNS: Record<Action, string> = {
  purchaseInfo: 'lookup',
  validatePurchase: 'validation',
  registerPurchase: 'registration',
  downloadUrl: 'request for a download URL',
  viewUrl: 'request for a view URL',
  cancelPurchase: 'cancellation',
};

const ALL_ACTIONS: readonly PurchaseAction[] = ['purchaseInfo', 'validatePurchase', 'downloadUrl', 'viewUrl', 'cancelPurchase'];

type Outcome =
  | { kind: 'purchase'; action: Action; purchase: Purchase }
  | { kind: 'url'; action: Action; result: UrlResult }
  | { kind: 'error'; action: Action; error: unknown };

/** What the page showed when the person acted: the profile and the purchase (read then, never after an await). */
type Shown = { profileShown: AssetSource | undefined; purchaseId: string };

const blockingRecordsSchema = z.object({ records: z.array(ledgerRecordSchema) });

/**
 * The actions a purchase's state allows: the service map's own list from the last answer, else the
 * default dialect's for the canonical state; an unknown state offers every action (the service decides).
 */
export function actionsAllowed(record: LedgerRecord, answer: Purchase | null): readonly string[] {
  if (answer?.actions) return answer.actions;
  const state = record.purchaseStateKind ?? record.purchaseState ?? '';
  return (PURCHASE_ACTIONS_BY_STATE as Record<string, readonly string[] | undefined>)[state] ?? ALL_ACTIONS;
}

function describeRecord(r: LedgerRecord): string {
  if (UNRESOLVED_STATES.includes(r.state)) return `registration ${r.reference ?? `#${r.id}`} of ${fmtDateTime(r.createdAt)}, whose outcome is unknown`;
  return `purchase ${r.purchaseId ?? r.reference ?? `#${r.id}`}${r.purchaseState ? ` (${r.purchaseState})` : ''}, registered ${fmtDateTime(r.createdAt)}`;
}

export function PurchaseActions({
  assetId,
  assetTitle,
  source,
  purchaseId,
}: {
  assetId: string | number;
  assetTitle: string | null;
  /** The profile the asset (or purchase) was read from: every action goes there, never to the one connected now. */
  source: AssetSource;
  /** A specific purchase (the Purchases view); otherwise the asset's live or latest one. */
  purchaseId?: string;
}) {
  const api = useApi();
  const { shell } = useAppContext();
  const queryClient = useQueryClient();
  const ledger = useAssetLedger(assetId, source);
  /** What was on screen when the open dialog (Register or Cancel) opened: its confirmation acts on that. */
  const [askedFor, setAskedFor] = useState<Shown>({ profileShown: undefined, purchaseId: '' });
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  /** Register's dialog, with the records it must name (none: a first registration). */
  const [confirmRegister, setConfirmRegister] = useState<LedgerRecord[] | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [resolved, setResolved] = useState<string | null>(null);

  const records = [...(ledger.data?.items ?? [])].sort((a, b) => b.updatedAt - a.updatedAt);
  const unresolved = records.filter((r) => UNRESOLVED_STATES.includes(r.state));
  const purchases = records.filter((r) => r.purchaseId !== null);
  const current =
    (purchaseId ? purchases.find((r) => r.purchaseId === purchaseId) : null) ??
    purchases.find((r) => r.state === 'registered' && r.purchaseStateKind !== 'cancelled') ??
    purchases[0] ??
    null;
  const lastAnswer = outcome?.kind === 'purchase' && outcome.purchase.id === current?.purchaseId ? outcome.purchase : null;
  const allowed = current ? actionsAllowed(current, lastAnswer) : [];

  const run = useMutation({
    mutationFn: async ({ action, seen, profileShown, purchaseId: id }: { action: Action; seen?: string[] } & Shown): Promise<Outcome> => {
      const scope = scopeOf(profileShown);
      switch (action) {
        case 'registerPurchase':
          return {
            kind: 'purchase',
            action,
            purchase: await api.registerPurchase({ ...scope, assetId, assetTitle, ...(seen ? { confirmDuplicate: { seen } } : {}) }),
          };
        case 'purchaseInfo':
          return { kind: 'purchase', action, purchase: await api.purchaseInfo({ ...scope, purchaseId: id }) };
        case 'validatePurchase':
          return { kind: 'purchase', action, purchase: await api.validatePurchase({ ...scope, purchaseId: id, assetId }) };
        case 'cancelPurchase':
          return { kind: 'purchase', action, purchase: await api.cancelPurchase({ ...scope, purchaseId: id }) };
        case 'downloadUrl':
          return { kind: 'url', action, result: await api.downloadUrl({ ...scope, purchaseId: id }) };
        case 'viewUrl':
          return { kind: 'url', action, result: await api.viewUrl({ ...scope, purchaseId: id }) };
      }
    },
    onMutate: () => setOutcome(null),
    onSuccess: (o) => setOutcome(o),
    onError: (error, { action, profileShown }) => {
      const data = errorData(error);
      // Main's guard found records this page did not show yet: ask, naming them (for the same profile).
      const blocking = data.code === 'CONFIRMATION_REQUIRED' ? blockingRecordsSchema.safeParse(data.body) : null;
      if (blocking?.success) {
        setAskedFor({ profileShown, purchaseId: '' });
        setConfirmRegister(blocking.data.records);
        return;
      }
      // An unknown registration shows as the ledger's unresolved record below (with its reference and a lookup).
      if (action === 'registerPurchase' && data.code === 'UNKNOWN_OUTCOME') return;
      setOutcome({ kind: 'error', action, error });
    },
    // Every action may change a purchase: the ledger is refetched after each.
    onSettled: () => invalidateLedger(queryClient),
  });

  const openExternal = useMutation({ mutationFn: (url: string) => api.openExternal({ url }) });

  const busy = run.isPending || ledger.isPending;
  const enabled = (action: Action): boolean => !busy && (action === 'registerPurchase' || allowed.includes(action));

  const button = (action: Action, className = 'btn') => (
    <button
      type="button"
      className={className}
      disabled={!enabled(action)}
      aria-busy={run.isPending && run.variables.action === action}
      onClick={() => {
        // The asset's own profile, as it pointed when the asset was read: taken when a button is clicked or a dialog opens.
        const shown: Shown = { profileShown: source, purchaseId: current?.purchaseId ?? '' };
        if (action === 'registerPurchase' || action === 'cancelPurchase') setAskedFor(shown);
        if (action === 'registerPurchase') setConfirmRegister(records.filter(blocksRegistration));
        else if (action === 'cancelPurchase') setConfirmCancel(true);
        else run.mutate({ action, ...shown });
      }}
    >
      {run.isPending && run.variables.action === action ? <span className="spinner spinner-inline" aria-hidden="true" /> : null}
      {LABELS[action]}
    </button>
  );

  const again = confirmRegister !== null && confirmRegister.length > 0;

  return (
    <div className="purchase-actions">
      <div className="purchase-status">
        {ledger.isPending ? (
          <span className="muted">Checking the purchase ledger…</span>
        ) : current ? (
          <>
            <span className="mono">{current.purchaseId}</span>
            {current.purchaseState ? <Pill tone={purchaseTone(current.purchaseStateKind ?? current.purchaseState)}>{current.purchaseState}</Pill> : null}
            <span className="muted small">updated {fmtDateTime(current.updatedAt)}</span>
          </>
        ) : unresolved.length > 0 ? (
          <span className="muted">No confirmed purchase of this asset: a registration's outcome is unknown (below).</span>
        ) : (
          <span className="muted">No purchase of this asset in the ledger.</span>
        )}
      </div>

      <div className="button-row" role="group" aria-label="Purchase actions">
        {button('registerPurchase', 'btn btn-primary')}
        {button('validatePurchase')}
        {button('downloadUrl')}
        {button('viewUrl')}
        {button('purchaseInfo')}
        {button('cancelPurchase', 'btn btn-danger-ghost')}
      </div>
      {current && !lastAnswer && !(current.purchaseStateKind ?? current.purchaseState ?? '') ? (
        <div className="muted small">The purchase's state is not known: every action is offered, and the service decides.</div>
      ) : null}

      {unresolved.map((r) => (
        <UnresolvedRecord key={r.id} record={r} onResolved={setResolved} />
      ))}
      {resolved ? (
        <div className="muted small" role="status">
          {resolved}
        </div>
      ) : null}

      <div aria-live="polite">
        {outcome?.kind === 'purchase' ? <PurchaseResult action={outcome.action} purchase={outcome.purchase} /> : null}
        {outcome?.kind === 'url' ? (
          <div className="result">
            <div className="result-title">
              {outcome.action === 'downloadUrl' ? 'Download URL' : 'View URL'}
              {outcome.result.expiresAt ? <span className="muted small"> · expires {fmtDateTime(outcome.result.expiresAt)}</span> : null}
            </div>
            <CopyField
              label={outcome.action === 'downloadUrl' ? 'Download URL' : 'View URL'}
              value={outcome.result.url}
              onOpen={() => openExternal.mutate(outcome.result.url)}
            />
            <ReadNotice info={outcome.result} what={outcome.action === 'downloadUrl' ? 'download URL' : 'view URL'} />
            {openExternal.isError ? (
              <div className="muted small" role="alert">
                {shell === 'web' ? 'Opening the system browser is available in the desktop app; copy the URL instead.' : errorData(openExternal.error).message}
              </div>
            ) : null}
          </div>
        ) : null}
        {outcome?.kind === 'error' ? <ErrorCallout error={outcome.error} action={NOUNS[outcome.action]} /> : null}
      </div>

      <ConfirmDialog
        open={confirmRegister !== null}
        title={again ? 'Register this asset again?' : 'Register a purchase?'}
        confirmLabel={again ? 'Register again' : 'Register purchase'}
        danger={again}
        onClose={() => setConfirmRegister(null)}
        onConfirm={() => run.mutate({ action: 'registerPurchase', seen: again ? confirmRegister.map(confirmationName) : undefined, ...askedFor })}
      >
        {again ? (
          <>
            <p>
              The purchase ledger already holds {confirmRegister.length === 1 ? 'this' : 'these'} for{' '}
              <strong>{assetTitle ?? `asset ${String(assetId)}`}</strong>:
            </p>
            <ul className="confirm-records">
              {confirmRegister.map((r) => (
                <li key={r.id}>{describeRecord(r)}</li>
              ))}
            </ul>
            <p>Registering again buys it a second time.</p>
          </>
        ) : (
          <>
            This registers a purchase of <strong>{assetTitle ?? `asset ${String(assetId)}`}</strong> with the service. It is written to the purchase ledger
            first and never sent twice automatically.
          </>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmCancel}
        title="Cancel this purchase?"
        confirmLabel="Cancel purchase"
        cancelLabel="Keep purchase"
        danger
        onClose={() => setConfirmCancel(false)}
        onConfirm={() => run.mutate({ action: 'cancelPurchase', ...askedFor })}
      >
        Purchase <span className="mono">{askedFor.purchaseId}</span> will be cancelled. A cancelled purchase cannot be validated or downloaded.
      </ConfirmDialog>
    </div>
  );
}

const SKIPPED = new Set(['missing', 'warnings', 'raw', 'actions', 'stateKind', 'unresolved', 'ledgerWarning']);

export function PurchaseResult({ action, purchase }: { action: Action | 'found'; purchase: Purchase }) {
  const verb: Partial<Record<Action | 'found', string>> = {
    registerPurchase: 'Registered',
    validatePurchase: 'Validated',
    cancelPurchase: 'Cancelled',
    purchaseInfo: 'Current state',
    found: 'Found',
  };
  return (
    <div className="result">
      <div className="result-title">
        {verb[action]}: <span className="mono">{purchase.id || 'id not readable'}</span>{' '}
        {purchase.state ? <Pill tone={purchaseTone(purchase.stateKind ?? purchase.state)}>{purchase.state}</Pill> : null}
      </div>
      <dl className="kv kv-compact">
        {Object.entries(purchase)
          .filter(([k]) => !SKIPPED.has(k))
          .map(([k, v]) => (
            <div key={k} className="kv-row">
              <dt>{k.replace(/_/g, ' ')}</dt>
              <dd>
                {k === 'price'
                  ? fmtPrice(v, purchase.currency)
                  : k.endsWith('_at')
                    ? fmtDateTime(String(v))
                    : typeof v === 'object'
                      ? JSON.stringify(v)
                      : String(v)}
              </dd>
            </div>
          ))}
      </dl>
      {purchase.ledgerWarning ? (
        <div className="callout callout-warn" role="status">
          <div className="callout-title">Purchase ledger not updated yet</div>
          <div>{purchase.ledgerWarning}</div>
        </div>
      ) : null}
      <ReadNotice info={purchase} what="purchase" />
    </div>
  );
}
