/**
 * The header's vendor selector: which of the connected profiles the detailed views (Budget, Catalog,
 * Purchases, Requests) show. Only there while more than one is connected; the others stay connected.
 */
import { useConnectedProfiles, useSelectProfile } from './session-queries';
import './profile-switcher.css';

export function ProfileSwitcher() {
  const sessions = useConnectedProfiles();
  const select = useSelectProfile();
  const items = sessions.data?.items ?? [];
  if (items.length < 2) return null;
  const active = items.find((p) => p.active);
  // The vendor is short and says whose budget; the profile's name only where two share a vendor.
  const shared = (vendor: string) => items.filter((p) => p.vendor === vendor).length > 1;
  return (
    <select
      className="input profile-switcher"
      aria-label="Active profile"
      title={select.isError ? `Could not switch: ${select.error.message}` : 'The profile the detailed views show; the others stay connected'}
      aria-invalid={select.isError || undefined}
      value={active?.profileId ?? ''}
      disabled={select.isPending}
      onChange={(e) => select.mutate(e.target.value)}
    >
      {active ? null : <option value="">Choose a profile</option>}
      {items.map((p) => (
        <option key={p.profileId} value={p.profileId}>
          {shared(p.vendor) ? `${p.vendor} · ${p.name}` : p.vendor}
        </option>
      ))}
    </select>
  );
}
