import { useAppInfo, useSimState } from '../../api/queries';
import { ADD_PROFILE_PARAM, useRoute } from '../../lib/hash-route';
import { PreferencesPanel } from './PreferencesPanel';
import { ProfilesPanel } from './ProfilesPanel';
import { SimulatorPanel } from './SimulatorPanel';

export default function SettingsView() {
  const info = useAppInfo();
  const sim = useSimState();
  const storage = info.data?.tokenStorage;
  // #/settings/service-map (linked from a reading warning) opens the active profile's service map.
  const route = useRoute();
  const openMap = route.view === 'settings' && route.param === 'service-map' ? 'active' : null;
  const openAdd = route.view === 'settings' && route.param === ADD_PROFILE_PARAM;
  return (
    <div className="view">
      <div className="view-head">
        <div>
          <h1 className="view-title">Settings</h1>
          <p className="view-sub">
            Vendor profiles, preferences{sim.data ? ' and the built-in simulator' : ''}.
            {info.data ? ` Partner Console ${info.data.version} (${info.data.shell === 'web' ? 'browser mode' : 'desktop'}).` : ''}
          </p>
        </div>
      </div>
      {storage === 'plaintext' ? (
        <div className="banner banner-warn" role="alert">
          <strong>Tokens are stored without encryption.</strong> This system offers no keychain to Partner Console, so vendor tokens are saved in plain text in
          the app's data folder. Protect that folder, or use tokens you can revoke.
        </div>
      ) : storage === 'memory' ? (
        <div className="banner banner-warn" role="alert">
          <strong>Tokens are kept in memory only.</strong> Tokens added here are forgotten when Partner Console stops.
        </div>
      ) : null}
      {info.data?.settingsProblem ? (
        <div className="banner banner-warn" role="alert">
          <strong>Settings could not be read as saved.</strong> {info.data.settingsProblem}
        </div>
      ) : null}
      <div className="settings-grid">
        <ProfilesPanel openMapOf={openMap} openAdd={openAdd} />
        <PreferencesPanel />
        {sim.data ? <SimulatorPanel state={sim.data} /> : null}
      </div>
    </div>
  );
}
