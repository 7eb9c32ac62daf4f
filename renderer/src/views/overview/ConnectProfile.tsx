/** "Connect a profile": a saved profile that is not connected yet, opened in the background (the active one stays). */
import { useState } from 'react';
import { useProfiles } from '../../api/queries';
import { ErrorCallout } from '../../components/states';
import type { ConnectedProfile } from './session-queries';
import { useConnectProfile } from './session-queries';

export function ConnectProfile({ connected }: { connected: readonly ConnectedProfile[] }) {
  const profiles = useProfiles();
  const connect = useConnectProfile();
  const [chosen, setChosen] = useState('');
  const open = new Set(connected.map((c) => c.profileId));
  const candidates = (profiles.data?.items ?? []).filter((p) => !open.has(p.id));
  const id = candidates.some((p) => p.id === chosen) ? chosen : (candidates[0]?.id ?? '');

  return (
    <div className="ov-connect">
      <form
        className="toolbar"
        aria-label="Connect a profile"
        onSubmit={(e) => {
          e.preventDefault();
          if (id) connect.mutate(id);
        }}
      >
        {candidates.length > 0 ? (
          <>
            <label className="inline-field">
              <span>Connect a profile</span>
              <select className="input" value={id} onChange={(e) => setChosen(e.target.value)} disabled={connect.isPending}>
                {candidates.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name} ({p.vendor})
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="btn btn-primary" disabled={!id || connect.isPending}>
              {connect.isPending ? 'Connecting…' : 'Connect'}
            </button>
          </>
        ) : profiles.isSuccess ? (
          <span className="muted small">
            Every saved profile is connected. <a href="#/settings">Add a profile</a>
          </span>
        ) : null}
      </form>
      {connect.isError ? <ErrorCallout error={connect.error} action="connection" /> : null}
    </div>
  );
}
