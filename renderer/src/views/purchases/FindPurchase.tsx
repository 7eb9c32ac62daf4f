/**
 * Find a purchase at the connected service: by its id (typed or pasted), or by the client reference
 * of its registration where the service map has a lookup by reference. What is found enters the
 * purchase ledger (main records every purchase answer), so it can be opened in the list.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { CallResponse } from '../../../../shared/bridge/contract';
import { useApi } from '../../api/context';
import { shownProfile, useProfile } from '../../api/queries';
import { ReadNotice } from '../../components/ReadNotice';
import { ErrorCallout } from '../../components/states';
import { navigate } from '../../lib/hash-route';
import { invalidateLedger } from './ledger-queries';
import { PurchaseResult } from './PurchaseActions';

type By = 'id' | 'reference';
type Found = { by: By; value: string; answer: CallResponse<'findPurchases'> };

export function FindPurchase() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [by, setBy] = useState<By>('id');
  const [value, setValue] = useState('');
  const inputId = useId();
  // The connected profile when Find is pressed: the lookup asks that one's service.
  const profile = useProfile();
  const find = useMutation({
    mutationFn: async ({ by, value, profileShown }: { by: By; value: string; profileShown: typeof profile }): Promise<Found> => {
      const profileId = shownProfile(profileShown);
      const answer =
        by === 'id' ? { items: [await api.purchaseInfo({ profileId, purchaseId: value })] } : await api.findPurchases({ profileId, reference: value });
      return { by, value, answer };
    },
    onSettled: () => invalidateLedger(queryClient),
  });
  const text = value.trim();

  return (
    <section className="panel find-purchase" aria-label="Find a purchase">
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          if (text) find.mutate({ by, value: text, profileShown: profile });
        }}
      >
        <span className="panel-title">Find a purchase</span>
        <select className="input" aria-label="Find by" value={by} onChange={(e) => setBy(e.target.value as By)}>
          <option value="id">by purchase id</option>
          <option value="reference">by registration reference</option>
        </select>
        <label className="visually-hidden" htmlFor={inputId}>
          {by === 'id' ? 'Purchase id' : 'Registration reference'}
        </label>
        <input
          id={inputId}
          className="input mono find-input"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder={by === 'id' ? 'e.g. p_1042' : 'e.g. pc-3f2a…'}
          spellCheck={false}
          autoComplete="off"
        />
        <button type="submit" className="btn" disabled={!text || find.isPending}>
          Find
        </button>
      </form>
      <div aria-live="polite">
        {find.isError ? <ErrorCallout error={find.error} action="lookup" /> : null}
        {find.isSuccess && find.data.answer.items.length === 0 ? (
          <p className="muted">
            The service has no purchase registered with reference <span className="mono">{find.data.value}</span>.
          </p>
        ) : null}
        {find.isSuccess
          ? find.data.answer.items.map((p) => (
              <div key={p.id || 'unreadable'} className="find-result">
                <PurchaseResult action="found" purchase={p} />
                {p.id ? (
                  <button type="button" className="btn btn-small" onClick={() => navigate('purchases', p.id)}>
                    Open purchase {p.id}
                  </button>
                ) : null}
              </div>
            ))
          : null}
        {find.isSuccess && find.data.by === 'reference' ? <ReadNotice info={find.data.answer} what="lookup by reference" /> : null}
      </div>
    </section>
  );
}
