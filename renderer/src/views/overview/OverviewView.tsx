/**
 * Every connected vendor at a glance (host-map style): one row per connected profile, one cell per
 * endpoint coloured by its use of the limit over the last minute, with 429 and alert marks. A cell
 * opens that vendor's Budget view at that endpoint.
 */
import { useState } from 'react';
import type { EndpointId } from '../../../../shared/endpoints';
import { Empty, ErrorCallout, Loading } from '../../components/states';
import { endpointParam, navigate } from '../../lib/hash-route';
import { useNow } from '../../lib/use-now';
import { useFiringAlerts } from '../alerts/alert-queries';
import { ConnectProfile } from './ConnectProfile';
import { OverviewGrid } from './OverviewGrid';
import { OverviewLegend } from './OverviewLegend';
import type { ConnectedProfile } from './session-queries';
import { useConnectedProfiles, useSelectProfile } from './session-queries';
import './overview.css';

const TICK_MS = 1000;

export default function OverviewView() {
  const sessions = useConnectedProfiles();
  const select = useSelectProfile();
  const firing = useFiringAlerts();
  const now = useNow(TICK_MS);
  const [opening, setOpening] = useState<string | null>(null);
  const items = sessions.data?.items ?? [];

  // The detailed views show the active profile: make this one active first, then open its Budget there.
  const open = async (profile: ConnectedProfile, endpoint: EndpointId) => {
    setOpening(profile.profileId);
    try {
      if (!profile.active) await select.mutateAsync(profile.profileId);
      navigate('budget', endpointParam(endpoint));
    } catch {
      // Shown below (select.error); the Overview stays.
    } finally {
      setOpening(null);
    }
  };

  return (
    <div className="view overview-view">
      <div className="view-head">
        <div>
          <h1 className="view-title">Overview</h1>
          <p className="view-sub">
            Each connected vendor's use of every endpoint's limit over the last minute. Open a cell for that vendor's Budget at that endpoint.
          </p>
        </div>
        <ConnectProfile connected={items} />
      </div>
      {select.isError ? <ErrorCallout error={select.error} action="profile switch" /> : null}
      {sessions.isPending ? (
        <Loading label="Loading the connected profiles…" />
      ) : sessions.isError ? (
        <ErrorCallout error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : items.length === 0 ? (
        <Empty title="No profile connected.">
          Connect a saved profile above, or add one in <a href="#/settings">Settings</a>.
        </Empty>
      ) : (
        <>
          <OverviewGrid profiles={items} firing={firing} now={now} opening={opening} onOpen={(p, e) => void open(p, e)} />
          <OverviewLegend />
        </>
      )}
    </div>
  );
}
