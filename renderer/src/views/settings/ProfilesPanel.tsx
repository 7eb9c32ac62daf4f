/**
 * Vendor profiles: add, edit, remove, test the connection, choose the active one, open the service
 * map. Each profile is a card whose actions wrap inside the panel (never a sideways scroll) and whose
 * test result takes the card's full width below them. Tokens only ever masked, but for the built-in
 * demo's public ones.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { CallRequest, CallResponse } from '../../../../shared/bridge/contract';
import { useApi } from '../../api/context';
import type { ProfileView } from '../../api/queries';
import { keys, useProfiles } from '../../api/queries';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Pill } from '../../components/Pill';
import { Empty, ErrorCallout, Loading } from '../../components/states';
import { DASH, fmtMs } from '../../lib/format';
import { navigate } from '../../lib/hash-route';
import { useConnectedProfiles, useConnectProfile, useDisconnectProfile } from '../overview/session-queries';
import { ProfileForm } from './ProfileForm';
import { ServiceMapPanel } from './ServiceMapPanel';
import { MapReviewBadge } from './MapReviewBadge';
import './settings.css';

type TestResult = CallResponse<'testConnection'>;

export function ProfilesPanel({ openMapOf, openAdd = false }: { openMapOf: string | null; openAdd?: boolean }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const profiles = useProfiles();
  const [editing, setEditing] = useState<ProfileView | 'new' | null>(null);
  const [mapOf, setMapOf] = useState<string | null>(null);
  const [removing, setRemoving] = useState<ProfileView | null>(null);
  const [tests, setTests] = useState<Record<string, TestResult | { failed: unknown } | 'running'>>({});

  const invalidateAll = () => queryClient.invalidateQueries();
  const save = useMutation({
    mutationFn: (input: CallRequest<'saveProfile'>) => api.saveProfile(input),
    onSuccess: () => {
      setEditing(null);
      if (openAdd) navigate('settings');
      void queryClient.invalidateQueries({ queryKey: keys.profiles });
    },
  });
  const remove = useMutation({ mutationFn: (id: string) => api.removeProfile({ id }), onSettled: invalidateAll });
  const select = useMutation({ mutationFn: (id: string) => api.selectProfile({ id }), onSettled: invalidateAll });
  // Several profiles may be connected at once (the Overview shows them); one is active.
  const sessions = useConnectedProfiles();
  const connect = useConnectProfile();
  const disconnect = useDisconnectProfile();
  const connectedIds = new Set((sessions.data?.items ?? []).map((c) => c.profileId));

  const test = async (id: string) => {
    setTests((t) => ({ ...t, [id]: 'running' }));
    try {
      const result = await api.testConnection({ id });
      setTests((t) => ({ ...t, [id]: result }));
    } catch (error) {
      setTests((t) => ({ ...t, [id]: { failed: error } }));
    }
  };

  const items = profiles.data?.items ?? [];
  const activeId = profiles.data?.activeId ?? null;
  // A link to the service map (#/settings/service-map, from a warning elsewhere) opens the active profile's.
  useEffect(() => {
    if (openMapOf !== null && activeId !== null) setMapOf(activeId);
  }, [openMapOf, activeId]);
  const mapProfile = items.find((p) => p.id === mapOf) ?? null;
  // #/settings/add-profile (the first-run card's "Add your vendor") opens the add form, in view, its first field focused.
  useEffect(() => {
    if (openAdd) setEditing('new');
  }, [openAdd]);

  return (
    <section className="panel settings-card settings-wide" aria-labelledby="profiles-title">
      <div className="section-head-row">
        <h2 id="profiles-title" className="section-title">
          Vendor profiles
        </h2>
        <button type="button" className="btn btn-primary" onClick={() => setEditing('new')} disabled={editing !== null}>
          Add profile
        </button>
      </div>
      {profiles.isPending ? (
        <Loading />
      ) : profiles.isError ? (
        <ErrorCallout error={profiles.error} onRetry={() => void profiles.refetch()} />
      ) : items.length === 0 ? (
        <Empty title="No profile yet.">Add one with the vendor's base URL and tokens.</Empty>
      ) : (
        <ul className="profile-list" aria-label="Vendor profiles">
          {items.map((p) => {
            const t = tests[p.id];
            const lost = p.tokens.filter((tk) => tk.lost);
            return (
              <li key={p.id} className="profile-card" aria-current={p.id === activeId ? 'true' : undefined} aria-label={p.name}>
                <div className="profile-main">
                  <div>
                    <strong>{p.name}</strong>{' '}
                    {p.id === activeId ? <Pill tone="ok">active</Pill> : connectedIds.has(p.id) ? <Pill tone="info">connected</Pill> : null}{' '}
                    {p.demo ? <span className="demo-tag">DEMO</span> : null}
                  </div>
                  <div className="small">
                    <span className="muted">Vendor</span> {p.vendor} · <span className="mono">{p.baseUrl}</span>
                  </div>
                  <div className="small">
                    <span className="muted">Tokens</span>{' '}
                    {p.tokens.length === 0 ? (
                      DASH
                    ) : p.demo && p.tokens.every((tk) => tk.publicText) ? (
                      // The built-in demo's tokens are public (main sends their text for it alone): shown, to try with curl.
                      <>
                        <span className="mono profile-public-tokens" aria-label={`Demo tokens ${p.tokens.map((tk) => tk.publicText).join(', ')}`}>
                          {p.tokens.map((tk) => tk.publicText).join(', ')}
                        </span>{' '}
                        <span className="muted">(public demo tokens)</span>
                      </>
                    ) : (
                      <span className="mono">{p.tokens.map((tk) => tk.masked).join(', ')}</span>
                    )}
                  </div>
                </div>
                <div className="profile-actions">
                  <button type="button" className="btn btn-small" onClick={() => void test(p.id)} disabled={t === 'running'}>
                    Test
                  </button>
                  {p.id !== activeId ? (
                    <button type="button" className="btn btn-small" onClick={() => select.mutate(p.id)} disabled={select.isPending}>
                      Use
                    </button>
                  ) : null}
                  {connectedIds.has(p.id) ? (
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => disconnect.mutate(p.id)}
                      disabled={disconnect.isPending}
                      aria-label={`Disconnect ${p.name}`}
                    >
                      Disconnect
                    </button>
                  ) : sessions.isSuccess ? (
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => connect.mutate(p.id)}
                      disabled={connect.isPending}
                      aria-label={`Connect ${p.name}`}
                      title="Open it in the background (the Overview shows it); the active profile stays"
                    >
                      Connect
                    </button>
                  ) : null}
                  <button type="button" className="btn btn-small" onClick={() => setMapOf(p.id)} aria-label={`Service map of ${p.name}`}>
                    Service map
                  </button>
                  {!p.demo ? <MapReviewBadge profileId={p.id} onReview={() => setMapOf(p.id)} /> : null}
                  {!p.demo ? (
                    <>
                      <button type="button" className="btn btn-small" onClick={() => setEditing(p)} disabled={editing !== null}>
                        Edit
                      </button>
                      <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => setRemoving(p)}>
                        Remove
                      </button>
                    </>
                  ) : null}
                </div>
                {lost.length > 0 ? (
                  <div className="profile-wide callout callout-warn" role="status">
                    <div className="callout-title">
                      {lost.length === p.tokens.length
                        ? 'The token must be entered again'
                        : `${lost.length} of ${p.tokens.length} tokens must be entered again`}
                    </div>
                    <div>
                      Tokens are kept in memory only here, and {lost.map((tk) => tk.masked).join(', ')} {lost.length === 1 ? 'was' : 'were'} entered before
                      Partner Console restarted. Choose Edit and add {lost.length === 1 ? 'it' : 'them'} again.
                    </div>
                  </div>
                ) : null}
                <div className="profile-wide small" aria-live="polite">
                  {t === undefined ? null : t === 'running' ? (
                    <span className="muted">Testing…</span>
                  ) : 'failed' in t ? (
                    <ErrorCallout error={t.failed} />
                  ) : !t.ok && t.status === 0 ? (
                    <span className="text-danger">Failed: no answer from the service. {t.error?.message ?? ''}</span>
                  ) : (
                    <span className={t.ok ? 'text-ok' : 'text-danger'}>
                      {t.ok ? 'OK' : 'Failed'} · {t.status || 'no answer'} · {fmtMs(t.latencyMs)} · Limit {t.limit ?? DASH} · Remaining {t.remaining ?? DASH} ·
                      Reset {t.reset ?? DASH}
                      {t.error ? <span className="muted"> · {t.error.message}</span> : null}
                    </span>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {select.isError ? <ErrorCallout error={select.error} /> : null}
      {connect.isError ? <ErrorCallout error={connect.error} action="connection" /> : null}
      {disconnect.isError ? <ErrorCallout error={disconnect.error} /> : null}
      {remove.isError ? <ErrorCallout error={remove.error} /> : null}
      {editing !== null ? (
        <ProfileForm
          key={editing === 'new' ? 'new' : editing.id}
          profile={editing === 'new' ? null : editing}
          others={items.map((p) => ({ id: p.id, name: p.name }))}
          saving={save.isPending}
          error={save.isError ? save.error : null}
          focusOnOpen={openAdd && editing === 'new'}
          onSave={(input) => save.mutate(input)}
          onCancel={() => {
            save.reset();
            setEditing(null);
            if (openAdd) navigate('settings');
          }}
        />
      ) : null}
      {mapProfile ? (
        <ServiceMapPanel
          key={mapProfile.id}
          profile={mapProfile}
          onClose={() => {
            setMapOf(null);
            if (openMapOf !== null) navigate('settings');
          }}
        />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title="Remove this profile?"
        danger
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate(removing.id)}
      >
        Profile <strong>{removing?.name}</strong> and its stored tokens will be deleted from this computer.
      </ConfirmDialog>
    </section>
  );
}
