/** Vendor profiles: add, edit, remove, test the connection, choose the active one. Tokens only ever masked. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CallRequest, CallResponse } from '../../../../shared/bridge/contract';
import { useApi } from '../../api/context';
import type { ProfileView } from '../../api/queries';
import { keys, useProfiles } from '../../api/queries';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Pill } from '../../components/Pill';
import { Empty, ErrorCallout, Loading } from '../../components/states';
import { DASH, fmtMs } from '../../lib/format';
import { ProfileForm } from './ProfileForm';

type TestResult = CallResponse<'testConnection'>;

export function ProfilesPanel() {
  const api = useApi();
  const queryClient = useQueryClient();
  const profiles = useProfiles();
  const [editing, setEditing] = useState<ProfileView | 'new' | null>(null);
  const [removing, setRemoving] = useState<ProfileView | null>(null);
  const [tests, setTests] = useState<Record<string, TestResult | { failed: unknown } | 'running'>>({});

  const invalidateAll = () => queryClient.invalidateQueries();
  const save = useMutation({
    mutationFn: (input: CallRequest<'saveProfile'>) => api.saveProfile(input),
    onSuccess: () => {
      setEditing(null);
      void queryClient.invalidateQueries({ queryKey: keys.profiles });
    },
  });
  const remove = useMutation({ mutationFn: (id: string) => api.removeProfile({ id }), onSettled: invalidateAll });
  const select = useMutation({ mutationFn: (id: string) => api.selectProfile({ id }), onSettled: invalidateAll });

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
        <div className="table-wrap">
          <table className="table" aria-label="Vendor profiles">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Vendor</th>
                <th scope="col">Base URL</th>
                <th scope="col">Tokens</th>
                <th scope="col">Connection test</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((p) => {
                const t = tests[p.id];
                return (
                  <tr key={p.id} aria-current={p.id === activeId ? 'true' : undefined}>
                    <td>
                      <strong>{p.name}</strong> {p.id === activeId ? <Pill tone="ok">active</Pill> : null}{' '}
                      {p.demo ? <span className="demo-tag">DEMO</span> : null}
                    </td>
                    <td>{p.vendor}</td>
                    <td className="mono small break">{p.baseUrl}</td>
                    <td className="mono small">{p.tokens.length === 0 ? DASH : p.tokens.map((tk) => tk.masked).join(', ')}</td>
                    <td className="small">
                      {t === undefined ? (
                        <span className="muted">not tested</span>
                      ) : t === 'running' ? (
                        <span className="muted">testing…</span>
                      ) : 'failed' in t ? (
                        <ErrorCallout error={t.failed} />
                      ) : (
                        <span className={t.ok ? 'text-ok' : 'text-danger'}>
                          {t.ok ? 'OK' : 'Failed'} · {t.status || 'no answer'} · {fmtMs(t.latencyMs)} · Limit {t.limit ?? DASH} · Remaining{' '}
                          {t.remaining ?? DASH} · Reset {t.reset ?? DASH}
                          {t.error ? <span className="muted"> · {t.error.message}</span> : null}
                        </span>
                      )}
                    </td>
                    <td className="actions-cell">
                      <button type="button" className="btn btn-small" onClick={() => void test(p.id)} disabled={t === 'running'}>
                        Test
                      </button>
                      {p.id !== activeId ? (
                        <button type="button" className="btn btn-small" onClick={() => select.mutate(p.id)} disabled={select.isPending}>
                          Use
                        </button>
                      ) : null}
                      <button type="button" className="btn btn-small" onClick={() => setEditing(p)} disabled={editing !== null}>
                        Edit
                      </button>
                      <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => setRemoving(p)}>
                        Remove
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {select.isError ? <ErrorCallout error={select.error} /> : null}
      {remove.isError ? <ErrorCallout error={remove.error} /> : null}
      {editing !== null ? (
        <ProfileForm
          profile={editing === 'new' ? null : editing}
          saving={save.isPending}
          error={save.isError ? save.error : null}
          onSave={(input) => save.mutate(input)}
          onCancel={() => {
            save.reset();
            setEditing(null);
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
