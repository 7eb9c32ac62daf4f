/**
 * The six purchase operations for one asset (or one purchase), as buttons enabled only where the
 * purchase's state allows. Register and cancel ask first. Results and errors are shown in words.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Purchase, PurchaseState } from '../../../../shared/catalog';
import { PURCHASE_ACTIONS_BY_STATE } from '../../../../shared/catalog';
import { useApi, useAppContext } from '../../api/context';
import type { SessionPurchase, UrlResult } from '../../api/queries';
import { keys, useSessionPurchases } from '../../api/queries';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyField } from '../../components/CopyField';
import { Pill, purchaseTone } from '../../components/Pill';
import { ErrorCallout } from '../../components/states';
import { errorData, referenceOf } from '../../lib/error-text';
import { fmtDateTime, fmtPrice } from '../../lib/format';
import { clearUnknownRegistration, markUnknownRegistration, useUnknownRegistration } from './unknown-registrations';

type Action = 'purchaseInfo' | 'validatePurchase' | 'registerPurchase' | 'downloadUrl' | 'viewUrl' | 'cancelPurchase';

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

type Outcome =
  | { kind: 'purchase'; action: Action; purchase: Purchase }
  | { kind: 'url'; action: Action; result: UrlResult }
  | { kind: 'error'; action: Action; error: unknown };

export function actionsAllowed(state: string): readonly string[] {
  return (PURCHASE_ACTIONS_BY_STATE as Record<string, readonly string[] | undefined>)[state as PurchaseState] ?? ['purchaseInfo'];
}

export function PurchaseActions({
  assetId,
  assetTitle,
  purchaseId,
}: {
  assetId: string | number;
  assetTitle: string | null;
  /** A specific purchase (the Purchases view); otherwise the asset's live or latest one. */
  purchaseId?: string;
}) {
  const api = useApi();
  const { shell } = useAppContext();
  const queryClient = useQueryClient();
  const purchases = useSessionPurchases();
  const unknown = useUnknownRegistration(assetId);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [confirming, setConfirming] = useState<'registerPurchase' | 'cancelPurchase' | null>(null);

  const forAsset: SessionPurchase[] = (purchases.data?.items ?? [])
    .filter((p) => String(p.purchase.asset_id) === String(assetId))
    .sort((a, b) => b.updatedAt - a.updatedAt);
  const live = forAsset.find((p) => p.purchase.state !== 'cancelled') ?? null;
  const current = (purchaseId ? forAsset.find((p) => p.purchase.id === purchaseId) : null) ?? live ?? forAsset[0] ?? null;
  const allowed = current ? actionsAllowed(current.purchase.state) : [];

  const run = useMutation({
    mutationFn: async (action: Action): Promise<Outcome> => {
      const id = current?.purchase.id ?? '';
      switch (action) {
        case 'registerPurchase':
          return { kind: 'purchase', action, purchase: await api.registerPurchase({ assetId, assetTitle }) };
        case 'purchaseInfo':
          return { kind: 'purchase', action, purchase: await api.purchaseInfo({ purchaseId: id }) };
        case 'validatePurchase':
          return { kind: 'purchase', action, purchase: await api.validatePurchase({ purchaseId: id }) };
        case 'cancelPurchase':
          return { kind: 'purchase', action, purchase: await api.cancelPurchase({ purchaseId: id }) };
        case 'downloadUrl':
          return { kind: 'url', action, result: await api.downloadUrl({ purchaseId: id }) };
        case 'viewUrl':
          return { kind: 'url', action, result: await api.viewUrl({ purchaseId: id }) };
      }
    },
    onMutate: () => setOutcome(null),
    onSuccess: (o) => {
      setOutcome(o);
      if (o.action === 'registerPurchase') clearUnknownRegistration(assetId);
    },
    onError: (error, action) => {
      setOutcome({ kind: 'error', action, error });
      const data = errorData(error);
      if (action === 'registerPurchase' && data.code === 'UNKNOWN_OUTCOME') {
        markUnknownRegistration(assetId, referenceOf(data));
      }
    },
    // Every action may change a purchase: the session list is refetched after each.
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.sessionPurchases }),
  });

  const openExternal = useMutation({ mutationFn: (url: string) => api.openExternal({ url }) });

  const enabled = (action: Action): boolean => {
    if (run.isPending || purchases.isPending) return false;
    if (action === 'registerPurchase') return live === null && unknown === null;
    return allowed.includes(action);
  };

  const button = (action: Action, className = 'btn') => (
    <button
      type="button"
      className={className}
      disabled={!enabled(action)}
      aria-busy={run.isPending && run.variables === action}
      onClick={() => (action === 'registerPurchase' || action === 'cancelPurchase' ? setConfirming(action) : run.mutate(action))}
    >
      {run.isPending && run.variables === action ? <span className="spinner spinner-inline" aria-hidden="true" /> : null}
      {LABELS[action]}
    </button>
  );

  return (
    <div className="purchase-actions">
      <div className="purchase-status">
        {purchases.isPending ? (
          <span className="muted">Checking this session's purchases…</span>
        ) : current ? (
          <>
            <span className="mono">{current.purchase.id}</span>
            <Pill tone={purchaseTone(current.purchase.state)}>{current.purchase.state}</Pill>
            <span className="muted small">updated {fmtDateTime(current.updatedAt)}</span>
          </>
        ) : (
          <span className="muted">No purchase of this asset in this session.</span>
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

      {unknown ? (
        <div className="callout callout-warn" role="status">
          Registering is off for this asset: an earlier registration may or may not have gone through.{' '}
          {unknown.reference ? (
            <>
              Registration reference <span className="mono">{unknown.reference}</span>: check with Purchase info.
            </>
          ) : (
            'Check the session purchases (Purchases) or the service first.'
          )}
          <button type="button" className="btn btn-small" onClick={() => clearUnknownRegistration(assetId)}>
            I checked: allow registering again
          </button>
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
            {openExternal.isError ? (
              <div className="muted small" role="alert">
                {shell === 'web'
                  ? 'Opening the system browser is available in the desktop app; copy the URL instead.'
                  : errorData(openExternal.error).message}
              </div>
            ) : null}
          </div>
        ) : null}
        {outcome?.kind === 'error' ? <ErrorCallout error={outcome.error} action={NOUNS[outcome.action]} /> : null}
      </div>

      <ConfirmDialog
        open={confirming === 'registerPurchase'}
        title="Register a purchase?"
        onClose={() => setConfirming(null)}
        onConfirm={() => run.mutate('registerPurchase')}
      >
        This registers a purchase of <strong>{assetTitle ?? `asset ${String(assetId)}`}</strong> with the service. A registration is never
        sent twice automatically.
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === 'cancelPurchase'}
        title="Cancel this purchase?"
        danger
        onClose={() => setConfirming(null)}
        onConfirm={() => run.mutate('cancelPurchase')}
      >
        Purchase <span className="mono">{current?.purchase.id}</span> will be cancelled. A cancelled purchase cannot be validated or
        downloaded.
      </ConfirmDialog>
    </div>
  );
}

function PurchaseResult({ action, purchase }: { action: Action; purchase: Purchase }) {
  const verb: Partial<Record<Action, string>> = {
    registerPurchase: 'Registered',
    validatePurchase: 'Validated',
    cancelPurchase: 'Cancelled',
    purchaseInfo: 'Current state',
  };
  return (
    <div className="result">
      <div className="result-title">
        {verb[action]}: <span className="mono">{purchase.id}</span> <Pill tone={purchaseTone(purchase.state)}>{purchase.state}</Pill>
      </div>
      <dl className="kv kv-compact">
        {Object.entries(purchase).map(([k, v]) => (
          <div key={k} className="kv-row">
            <dt>{k.replace(/_/g, ' ')}</dt>
            <dd>{k === 'price' ? fmtPrice(v, purchase.currency) : k.endsWith('_at') ? fmtDateTime(String(v)) : String(v)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
